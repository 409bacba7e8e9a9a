package vramlab.triage;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Words around a message (traceback frames, log prefixes) that point at a cause the numbers
 * alone cannot name.
 */
public enum Clue {
    DISTRIBUTED("a distributed run (NCCL, torch.distributed, ranks)",
            "nccl|torch\\.distributed|processgroup|all_?reduce|all_?gather|reduce_?scatter"
                    + "|\\bddp\\b|fsdp|\\[rank\\d+\\]|distributedDataParallel"),
    CUDNN("a convolution through cuDNN",
            "cudnn|conv[123]d|_conv_forward|convolution|conv_transpose"),
    CUDA_GRAPHS("CUDA graphs (capture, replay, reduce-overhead)",
            "cuda_?graph|cudagraph|graph\\.replay|torch\\.cuda\\.graph|reduce-overhead"
                    + "|graph_pool_handle|stream capture");

    private final String description;
    private final Pattern pattern;

    Clue(String description, String regex) {
        this.description = description;
        this.pattern = Pattern.compile(regex, Pattern.CASE_INSENSITIVE);
    }

    public String description() { return description; }

    /** Whether the (unsqueezed) text shows this clue. */
    public boolean foundIn(String text) { return pattern.matcher(text.toLowerCase(Locale.ROOT)).find(); }
}
