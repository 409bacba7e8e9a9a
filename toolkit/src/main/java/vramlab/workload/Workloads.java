package vramlab.workload;

import java.util.ArrayList;
import java.util.List;

import vramlab.units.Bytes;
import vramlab.units.SeededRandom;

/**
 * The contest's public workloads: seeded traces shaped like real GPU jobs, each on a card of a
 * real size, each modelled on published numbers (named in its {@link Workload#source()}). The
 * same seed gives the same trace, event for event.
 *
 * <p>Simplifications, all of them: one CUDA stream; tensors only, no cuBLAS workspaces or
 * NCCL buffers; a layer's activations as Korthikanti et al. count them (see
 * {@link Transformer#layerActivations}); no kernel fusion (FlashAttention would drop the
 * {@code as^2b} terms). The shapes are right; the exact tensor list of any one framework
 * version is not claimed.
 */
public final class Workloads {
    /** The seed of the public set. */
    public static final long PUBLIC_SEED = 2026;

    private Workloads() {}

    /** The public set, in the order the leaderboard shows. */
    public static List<Workload> publicSet() { return all(PUBLIC_SEED); }

    /** Every generated workload, with {@code seed}. */
    public static List<Workload> all(long seed) {
        return List.of(trainingStep(seed, 3), llmServing(seed, 24), ratchetingBatches(seed, 10),
                diffusionSampling(seed, 10), finetuneCheckpointed(seed, 2));
    }

    /** A fp32 weight, gradient or Adam moment: 4 bytes. */
    private static final long FP32 = 4;
    /** A 16-bit weight or activation. */
    private static final long FP16 = 2;

    // --- 1. a transformer training step -----------------------------------------------------

    /**
     * GPT-2 medium trained with Adam, batch 4 of 1024 tokens, activations in 16 bits under
     * autocast: weights, gradients and Adam's two moments in fp32 (16 bytes a parameter, as
     * Rajbhandari et al. 2020, ZeRO, section 3.1, count them); Adam's moments created at its first
     * step ({@code torch.optim.Adam} initialises its state lazily), gradients freed by
     * {@code zero_grad()} after each step ({@code set_to_none=True}, the default since PyTorch 2.0).
     */
    public static Workload trainingStep(long seed, int steps) {
        Transformer m = Transformer.GPT2_MEDIUM;
        long seq = 1024, batch = 4;
        TraceBuilder t = new TraceBuilder();
        List<String> weights = loadWeights(t, m, FP32, true);
        List<String> adam = new ArrayList<>();
        SeededRandom rnd = new SeededRandom(seed);
        for (int step = 0; step < steps; step++) {
            List<String> grads = trainStep(t, m, seq, batch, FP32, weights.size(), rnd);
            if (step == 0) {
                for (long w : weightSizes(m, FP32)) {
                    adam.add(t.alloc("adam.m", w));
                    adam.add(t.alloc("adam.v", w));
                }
            }
            t.freeAll(grads);
        }
        return new Workload("training-step", Bytes.gib(24),
                "GPT-2 medium (345M) trained with Adam, batch 4 x 1024 tokens, " + steps + " steps",
                "GPT-2 (Radford et al. 2019, Table 2); activations sbh(34 + 5as/h) bytes a layer "
                        + "(Korthikanti et al. 2022, section 4.1); 16 B a parameter for weights, "
                        + "gradients and Adam (Rajbhandari et al. 2020, ZeRO, section 3.1); a 24 GiB card "
                        + "(RTX 4090)", t.finish());
    }

    /** The weights, tensor by tensor: embeddings, each layer's, the final norm. */
    private static List<String> loadWeights(TraceBuilder t, Transformer m, long bytes, boolean tiedHead) {
        List<String> handles = new ArrayList<>();
        for (long w : weightSizes(m, bytes)) handles.add(t.alloc("w", w));
        if (!tiedHead) handles.add(t.alloc("w.head", m.vocab() * m.hidden() * bytes));
        return handles;
    }

    private static List<Long> weightSizes(Transformer m, long bytes) {
        List<Long> sizes = new ArrayList<>();
        sizes.add(m.vocab() * m.hidden() * bytes);
        for (int l = 0; l < m.layers(); l++) {
            for (long p : m.layerWeights()) sizes.add(p * bytes);
        }
        sizes.add(2 * m.hidden() * bytes);
        return sizes;
    }

    /**
     * One forward and backward pass: each layer's activations kept, fp32 logits, then backward
     * layer by layer from the top, each freeing its activations after allocating its gradients
     * and two transient buffers (the gradient flowing down, and the largest activation's).
     * Returns the gradient handles (one per weight).
     */
    private static List<String> trainStep(TraceBuilder t, Transformer m, long seq, long batch, long gradBytes,
                                          int weightCount, SeededRandom rnd) {
        String ids = t.alloc("ids", seq * batch * 8);
        List<List<String>> acts = new ArrayList<>();
        String hidden = t.alloc("embed.out", seq * batch * m.hidden() * FP16);
        for (int l = 0; l < m.layers(); l++) {
            List<String> layer = new ArrayList<>();
            for (long a : m.layerActivations(seq, batch)) layer.add(t.alloc("act.l" + l, a));
            acts.add(layer);
        }
        String logits = t.alloc("logits", seq * batch * m.vocab() * FP32);
        String loss = t.alloc("loss", 4);
        String dlogits = t.alloc("dlogits", seq * batch * m.vocab() * FP32);
        t.free(logits);
        List<String> grads = new ArrayList<>();
        long[] per = m.layerWeights();
        grads.add(t.alloc("grad.head", m.vocab() * m.hidden() * gradBytes));
        t.free(dlogits);
        for (int l = m.layers() - 1; l >= 0; l--) {
            String down = t.alloc("dgrad", seq * batch * m.hidden() * FP16);
            String big = t.alloc("dgrad.big", m.layerActivations(seq, batch)[3]);
            for (long p : per) grads.add(t.alloc("grad.l" + l, p * gradBytes));
            t.free(big);
            t.freeAll(acts.get(l));
            t.free(down);
        }
        while (grads.size() < weightCount) grads.add(t.alloc("grad", 2 * m.hidden() * gradBytes));
        t.free(hidden);
        t.free(loss);
        t.free(ids);
        return grads;
    }

    // --- 2. LLM serving ---------------------------------------------------------------------

    /**
     * Llama-2-7B served in fp16 on a 24 GiB card, a framework that keeps each sequence's KV cache
     * as one contiguous tensor and regrows it by 16 tokens (allocate the larger one, copy, free
     * the old one): prefill allocates the prompt's KV and transient activations; each decode step
     * makes small transients for the batch. Up to 8 sequences at once (continuous batching).
     * Prompt and output lengths are exponential with ShareGPT's means as the vLLM paper reports
     * them, rounded to whole tokens: Kwon et al., "Efficient Memory Management for Large Language
     * Model Serving with PagedAttention", SOSP 2023, section 6.1 and Fig. 11, input mean 161.31
     * and output mean 337.99 tokens (Alpaca's, 19.31 and 58.45, are 8.4 and 5.8 times shorter).
     * Simplifications: the paper's histograms are right-skewed with a long tail, which an
     * exponential only resembles; the prompt is capped at 2048 tokens and prompt plus output at
     * 4096 (Llama 2's context), which pulls the sampled means slightly below the paper's.
     */
    public static Workload llmServing(long seed, int requests) {
        Transformer m = Transformer.LLAMA2_7B;
        long kvPerToken = 2 * m.layers() * m.hidden() * FP16;       // K and V, every layer: 512 KiB
        long grow = 16;
        int maxBatch = 8;
        SeededRandom rnd = new SeededRandom(seed);
        TraceBuilder t = new TraceBuilder();
        loadWeights(t, m, FP16, false);
        final class Sequence {                          // one request being decoded
            long tokens, toGenerate, kvCapacity;        // kvCapacity: tokens its KV buffer holds

            Sequence(long tokens, long toGenerate, long kvCapacity) {
                this.tokens = tokens;
                this.toGenerate = toGenerate;
                this.kvCapacity = kvCapacity;
            }
        }
        List<Sequence> running = new ArrayList<>();
        List<String> kv = new ArrayList<>();
        int admitted = 0;
        while (admitted < requests || !running.isEmpty()) {
            while (running.size() < maxBatch && admitted < requests) {
                long prompt = exponential(rnd, 161, 4, 2048);
                long output = exponential(rnd, 338, 1, 4096 - prompt);
                admitted++;
                long cap = Bytes.alignUp(prompt + 1, grow);
                kv.add(t.alloc("kv", cap * kvPerToken));
                List<String> pre = new ArrayList<>();
                pre.add(t.alloc("prefill.hidden", prompt * m.hidden() * FP16));
                pre.add(t.alloc("prefill.qkv", 3 * prompt * m.hidden() * FP16));
                pre.add(t.alloc("prefill.scores", m.heads() * prompt * prompt * FP16));
                t.free(pre.remove(2));
                pre.add(t.alloc("prefill.mlp", 2 * prompt * m.ffn() * FP16));
                pre.add(t.alloc("prefill.logits", m.vocab() * FP32));
                t.freeAll(pre);
                running.add(new Sequence(prompt, output, cap));
            }
            long b = running.size();
            List<String> step = new ArrayList<>();
            step.add(t.alloc("decode.hidden", b * m.hidden() * FP16));
            step.add(t.alloc("decode.mlp", 2 * b * m.ffn() * FP16));
            step.add(t.alloc("decode.logits", b * m.vocab() * FP32));
            t.freeAll(step);
            for (int i = running.size() - 1; i >= 0; i--) {
                Sequence s = running.get(i);
                s.tokens++;
                s.toGenerate--;
                if (s.toGenerate <= 0) {
                    t.free(kv.remove(i));
                    running.remove(i);
                } else if (s.tokens + 1 > s.kvCapacity) {
                    s.kvCapacity += grow;
                    String bigger = t.alloc("kv", s.kvCapacity * kvPerToken);
                    t.free(kv.get(i));
                    kv.set(i, bigger);
                }
            }
        }
        return new Workload("llm-serving", Bytes.gib(24),
                "Llama-2-7B in fp16 serving " + requests + " requests, up to 8 at once, KV regrown by 16 tokens",
                "Llama 2 (Touvron et al. 2023) 7B shape: 32 layers, 4096 hidden, KV 512 KiB a token in fp16; "
                        + "ShareGPT's mean prompt 161.31 and output 337.99 tokens (Kwon et al., SOSP 2023, vLLM, "
                        + "section 6.1, Fig. 11); a 24 GiB card (A10G)", t.finish());
    }

    /** An exponential sample with {@code mean}, within {@code [lo, hi]}. */
    private static long exponential(SeededRandom rnd, double mean, long lo, long hi) {
        double u = 1 - rnd.nextDouble();                      // (0, 1]
        long x = Math.round(-mean * Math.log(u));
        return Math.max(lo, Math.min(Math.max(lo, hi), x));
    }

    // --- 3. variable-length batches that ratchet ---------------------------------------------

    /**
     * BERT-base fine-tuned with AdamW, batch 24, each batch padded to its longest sequence (a
     * multiple of 8, 64 to 512 tokens, uniform): every batch longer than all before it needs
     * blocks larger than any cached, so the reserved memory ratchets up, the pattern PyTorch's
     * documentation gives for {@code expandable_segments} ("a changing batch size").
     */
    public static Workload ratchetingBatches(long seed, int batches) {
        Transformer m = Transformer.BERT_BASE;
        long batch = 24;
        SeededRandom rnd = new SeededRandom(seed);
        TraceBuilder t = new TraceBuilder();
        List<String> weights = loadWeights(t, m, FP32, true);
        List<String> adam = new ArrayList<>();
        for (int step = 0; step < batches; step++) {
            long seq = 8 * rnd.nextLong(8, 65);
            List<String> grads = trainStep(t, m, seq, batch, FP32, weights.size(), rnd);
            if (step == 0) {
                for (long w : weightSizes(m, FP32)) {
                    adam.add(t.alloc("adamw.m", w));
                    adam.add(t.alloc("adamw.v", w));
                }
            }
            t.freeAll(grads);
        }
        return new Workload("ratcheting-batches", Bytes.gib(16),
                "BERT-base fine-tuned with AdamW, " + batches + " batches of 24 padded to 64..512 tokens",
                "BERT-base (Devlin et al. 2019: L=12, H=768, A=12); activations as Korthikanti et al. 2022; "
                        + "PyTorch's CUDA semantics notes on expandable_segments and changing batch sizes; "
                        + "a 16 GiB card (V100 16GB)", t.finish());
    }

    // --- 4. diffusion sampling ----------------------------------------------------------------

    /**
     * Stable Diffusion 1.5 sampling a 512x512 image in fp16 with classifier-free guidance (batch
     * 2), the UNet's blocks as diffusers' config describes them (block channels 320, 640, 1280,
     * 1280 on a 64x64 latent, 8 attention heads, two ResNet blocks down and three up, attention in
     * the first three levels), inference only: each block's output freed when the next is made,
     * the skip connections kept for the up path, each attention's score matrix transient.
     */
    public static Workload diffusionSampling(long seed, int steps) {
        long[] channels = {320, 640, 1280, 1280};
        long b = 2, heads = 8, latent = 64;
        TraceBuilder t = new TraceBuilder();
        for (int level = 0; level < 4; level++) {                // UNet weights, block by block
            long c = channels[level];
            for (int r = 0; r < 5; r++) t.alloc("unet.conv", 2 * c * c * 9 * FP16);
            if (level < 3) {
                for (int r = 0; r < 2; r++) {
                    t.alloc("unet.attn", 4 * c * c * FP16);
                    t.alloc("unet.ff", 12 * c * c * FP16);
                }
            }
        }
        t.alloc("text-encoder", 123_000_000L * FP16);            // CLIP ViT-L/14 text model
        t.alloc("vae", 84_000_000L * FP16);
        String text = t.alloc("text.emb", b * 77 * 768 * FP16);
        String x = t.alloc("latent", b * 4 * latent * latent * FP16);
        SeededRandom rnd = new SeededRandom(seed);
        for (int step = 0; step < steps; step++) {
            List<String> skips = new ArrayList<>();
            long side = latent;
            String h = t.alloc("conv.in", b * channels[0] * side * side * FP16);
            for (int level = 0; level < 4; level++) {
                long c = channels[level];
                for (int r = 0; r < 2; r++) {
                    String out = t.alloc("res", b * c * side * side * FP16);
                    t.free(h);
                    h = out;
                    if (level < 3) h = attention(t, h, b, c, side, heads);
                    skips.add(t.alloc("skip", b * c * side * side * FP16));
                }
                if (level < 3) side /= 2;
            }
            for (int level = 3; level >= 0; level--) {
                long c = channels[level];
                for (int r = 0; r < 3 && !skips.isEmpty(); r++) {
                    String cat = t.alloc("cat", 2 * b * c * side * side * FP16);
                    t.free(skips.remove(skips.size() - 1));
                    t.free(h);
                    h = t.alloc("res", b * c * side * side * FP16);
                    t.free(cat);
                    if (level < 3) h = attention(t, h, b, c, side, heads);
                }
                if (level > 0) {
                    String up = t.alloc("upsample", b * c * 4 * side * side * FP16);
                    t.free(h);
                    h = up;
                    side *= 2;
                }
            }
            while (!skips.isEmpty()) t.free(skips.remove(skips.size() - 1));
            String next = t.alloc("latent", b * 4 * latent * latent * FP16);
            t.free(h);
            t.free(x);
            x = next;
            if (rnd.nextInt(4) == 0) t.alloc("preview", 4 * latent * latent * FP16);   // kept: a callback's copy
        }
        for (long side = 64; side <= 512; side *= 2) {           // VAE decoder, one image
            String a = t.alloc("vae.act", 512 * side * side * FP16 / (side >= 256 ? 2 : 1));
            String bb = t.alloc("vae.act", 512 * side * side * FP16 / (side >= 256 ? 2 : 1));
            t.free(a);
            t.free(bb);
        }
        t.free(text);
        return new Workload("diffusion-sampling", Bytes.gib(8),
                "Stable Diffusion 1.5, 512x512, batch 2 (guidance), " + steps + " UNet steps in fp16, then the VAE",
                "the UNet's published 860M parameters (Rombach et al. 2022) and diffusers' "
                        + "stable-diffusion-v1-5 unet/config.json (block_out_channels 320/640/1280/1280, "
                        + "sample_size 64, attention_head_dim 8); an 8 GiB card (RTX 3070)", t.finish());
    }

    /** A transformer block at one level: Q, K, V, the score matrix (transient), the output. */
    private static String attention(TraceBuilder t, String in, long b, long c, long side, long heads) {
        long tokens = side * side;
        String qkv = t.alloc("qkv", 3 * b * tokens * c * FP16);
        String scores = t.alloc("scores", b * heads * tokens * tokens * FP16);
        String out = t.alloc("attn.out", b * tokens * c * FP16);
        t.free(scores);
        t.free(qkv);
        t.free(in);
        return out;
    }

    // --- 5. fine-tuning with activation checkpointing -----------------------------------------

    /**
     * Llama-2-7B fine-tuned with LoRA (rank 16 on Q and V, fp32 adapters and Adam) over frozen
     * fp16 weights, 2048 tokens, with activation checkpointing: forward keeps only each layer's
     * input; backward recomputes one layer's activations at a time (Chen et al. 2016,
     * "Training Deep Nets with Sublinear Memory Cost"), so a layer's worth comes and goes 32
     * times a step.
     */
    public static Workload finetuneCheckpointed(long seed, int steps) {
        Transformer m = Transformer.LLAMA2_7B;
        long seq = 2048, batch = 1, rank = 16;
        TraceBuilder t = new TraceBuilder();
        loadWeights(t, m, FP16, false);
        List<String> lora = new ArrayList<>();
        for (int l = 0; l < m.layers(); l++) {
            for (int k = 0; k < 4; k++) lora.add(t.alloc("lora", rank * m.hidden() * FP32));
        }
        SeededRandom rnd = new SeededRandom(seed);
        for (int step = 0; step < steps; step++) {
            String ids = t.alloc("ids", seq * batch * 8);
            List<String> checkpoints = new ArrayList<>();
            String h = t.alloc("embed.out", seq * batch * m.hidden() * FP16);
            for (int l = 0; l < m.layers(); l++) {
                checkpoints.add(h);
                List<String> acts = new ArrayList<>();
                for (long a : m.layerActivations(seq, batch)) acts.add(t.alloc("act.l" + l, a));
                h = t.alloc("layer.out", seq * batch * m.hidden() * FP16);
                t.freeAll(acts);                                   // not kept: recomputed in backward
            }
            String logits = t.alloc("logits", seq * batch * m.vocab() * FP32);
            String dlogits = t.alloc("dlogits", seq * batch * m.vocab() * FP32);
            t.free(logits);
            t.free(h);
            List<String> grads = new ArrayList<>();
            String down = t.alloc("dgrad", seq * batch * m.hidden() * FP16);
            t.free(dlogits);
            for (int l = m.layers() - 1; l >= 0; l--) {
                List<String> acts = new ArrayList<>();                 // the recomputation
                for (long a : m.layerActivations(seq, batch)) acts.add(t.alloc("recompute.l" + l, a));
                String below = t.alloc("dgrad", seq * batch * m.hidden() * FP16);
                for (int k = 0; k < 4; k++) grads.add(t.alloc("grad.lora", rank * m.hidden() * FP32));
                t.freeAll(acts);
                t.free(down);
                down = below;
                t.free(checkpoints.remove(checkpoints.size() - 1));
            }
            t.free(down);
            t.free(ids);
            if (step == 0) {
                for (int k = 0; k < lora.size(); k++) {
                    t.alloc("adam.m", rank * m.hidden() * FP32);
                    t.alloc("adam.v", rank * m.hidden() * FP32);
                }
            }
            t.freeAll(grads);
            if (rnd.nextInt(8) == 0) t.emptyCache();
        }
        return new Workload("finetune-checkpointed", Bytes.gib(24),
                "Llama-2-7B LoRA fine-tuning, 2048 tokens, activation checkpointing, " + steps + " steps",
                "Llama 2 7B's shape (Touvron et al. 2023); LoRA (Hu et al. 2021); activation checkpointing "
                        + "(Chen et al. 2016); activations as Korthikanti et al. 2022; a 24 GiB card (RTX 4090)",
                t.finish());
    }
}
