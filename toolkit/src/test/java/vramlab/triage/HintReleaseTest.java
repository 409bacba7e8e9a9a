package vramlab.triage;

import static org.assertj.core.api.Assertions.assertThat;
import static vramlab.units.Bytes.gib;
import static vramlab.units.Bytes.mib;

import java.util.List;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import vramlab.alloc.PyTorchOomMessage;
import vramlab.alloc.PyTorchRelease;

/**
 * The OOM hint's three forms date the release that printed it: 2.9's (PYTORCH_CUDA_ALLOC_CONF, the
 * pytorch.org #environment-variables link), 2.10's (PYTORCH_ALLOC_CONF, the same link) and 2.11's
 * (PYTORCH_CUDA_ALLOC_CONF again, a docs.pytorch.org link to the section on it; the sources are in
 * PyTorchOomMessage.TAIL_SINCE_2_11's comment). Triage read a 2.11 message as it reads 2.9's, and
 * said of 2.10's variable only that it is the newer name.
 */
@DisplayName("triage names the release a hint's form belongs to")
class HintReleaseTest {
    static final PyTorchOomMessage.Facts FACTS = new PyTorchOomMessage.Facts(mib(20), 0, gib(24), mib(10),
            List.of(), -1, gib(20), 0, gib(23));

    /** A vLLM worker's message of May 2026 (vllm-project/perf-eval#6), in 2.11's form. */
    static final String PERF_EVAL_6 = "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.75 GiB. GPU 6"
            + " has a total capacity of 139.80 GiB of which 1003.31 MiB is free. Process 2479093 has 138.80 GiB"
            + " memory in use. Of the allocated memory 136.24 GiB is allocated by PyTorch, and 556.66 MiB is"
            + " reserved by PyTorch but unallocated. " + PyTorchOomMessage.TAIL_SINCE_2_11 + "\n";

    private static List<String> notes(String paste) { return Triage.of(paste).reading().notes(); }

    @Test
    @DisplayName("2.11's docs.pytorch.org link: the note says 2.11 and later, and that the kit's replays print the older link")
    void since211() {
        assertThat(notes(PERF_EVAL_6)).contains(MessageParser.SINCE_2_11_NOTE)
                .doesNotContain(MessageParser.ALLOC_CONF_NOTE);
        assertThat(MessageParser.SINCE_2_11_NOTE).isEqualTo("Its link to the docs' section on PYTORCH_CUDA_ALLOC_CONF"
                + " (docs.pytorch.org, #optimizing-memory-usage-with-pytorch-cuda-alloc-conf) is the hint of PyTorch"
                + " 2.11 and later; 2.10 and older link #environment-variables. The kit's replays follow 2.9 or 2.10"
                + " (--pytorch-version): they print the older link.");
    }

    @Test
    @DisplayName("the kit's own 2.9 and 2.10 messages: 2.10's variable is said to be 2.10's, neither gets 2.11's note")
    void modelledReleases() {
        List<String> v29 = notes(PyTorchOomMessage.format(FACTS, PyTorchRelease.V2_9.hintVariable()));
        List<String> v210 = notes(PyTorchOomMessage.format(FACTS, PyTorchRelease.V2_10.hintVariable()));
        assertThat(v29).doesNotContain(MessageParser.SINCE_2_11_NOTE, MessageParser.ALLOC_CONF_NOTE);
        assertThat(v210).contains(MessageParser.ALLOC_CONF_NOTE).doesNotContain(MessageParser.SINCE_2_11_NOTE);
        assertThat(MessageParser.ALLOC_CONF_NOTE).contains("as PyTorch 2.10 words its hint");
    }
}
