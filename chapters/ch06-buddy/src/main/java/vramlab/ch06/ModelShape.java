package vramlab.ch06;

import java.util.List;
import java.util.Locale;

/**
 * The part of a transformer's shape that sets its KV cache size: per token, every layer keeps
 * one key and one value vector per KV head. Bytes per token =
 * {@code 2 (K and V) x layers x kvHeads x headDim x dtypeBytes}, the same product as vLLM's
 * page size per layer times the layers (the vLLM blog's "Inside vLLM: Anatomy of a
 * High-Throughput LLM Inference System", 2025-09-05: 2 x block_size x num_kv_heads x head_size x
 * dtype bytes per layer).
 */
public record ModelShape(String name, int layers, int kvHeads, int headDim, int dtypeBytes) {

    // tag::presets[]
    /** OPT-13B, fp16: 40 layers, hidden 5120 = 40 heads x 128; the vLLM paper's 800 KB/token (sec. 3). */
    public static final ModelShape OPT_13B = new ModelShape("OPT-13B", 40, 40, 128, 2);
    /** Llama-2-7B, fp16: 32 layers, 32 KV heads of 128 (no GQA); Hugging Face config.json. */
    public static final ModelShape LLAMA_2_7B = new ModelShape("Llama-2-7B", 32, 32, 128, 2);
    /** Llama-3-8B, bf16: 32 layers, 8 KV heads (GQA) of 128; Hugging Face config.json. */
    public static final ModelShape LLAMA_3_8B = new ModelShape("Llama-3-8B", 32, 8, 128, 2);
    /** Llama-2-70B, fp16: 80 layers, 8 KV heads (GQA) of 128; Hugging Face config.json. */
    public static final ModelShape LLAMA_2_70B = new ModelShape("Llama-2-70B", 80, 8, 128, 2);
    // end::presets[]

    public static final List<ModelShape> PRESETS = List.of(OPT_13B, LLAMA_2_7B, LLAMA_3_8B, LLAMA_2_70B);

    public ModelShape {
        if (layers <= 0 || kvHeads <= 0 || headDim <= 0 || dtypeBytes <= 0) {
            throw new IllegalArgumentException("model shape " + name + ": every dimension must be positive");
        }
    }

    // tag::kv-bytes[]
    /** KV cache bytes one token costs across all layers. */
    public long kvBytesPerToken() {
        return 2L * layers * kvHeads * headDim * dtypeBytes;
    }
    // end::kv-bytes[]

    /** A preset by name, case-insensitive ({@code llama-3-8b}). */
    public static ModelShape preset(String name) {
        for (ModelShape m : PRESETS) if (m.name.equalsIgnoreCase(name)) return m;
        throw new IllegalArgumentException("unknown model '" + name + "': expected one of "
                + PRESETS.stream().map(ModelShape::name).toList());
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "%s (%d layers x %d KV heads x %d x %d B = %d KiB/token)",
                name, layers, kvHeads, headDim, dtypeBytes, kvBytesPerToken() / 1024);
    }
}
