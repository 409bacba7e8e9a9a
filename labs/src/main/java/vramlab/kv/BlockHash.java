package vramlab.kv;

import java.util.List;

/**
 * The identity of a full block's contents for prefix caching, in vLLM's manner
 * ({@code hash_block_tokens} in {@code vllm/v1/core/kv_cache_utils.py}): the parent block's
 * hash chained with this block's token ids, so equal hashes mean equal prefixes.
 *
 * <p>Simplification: vLLM hashes to a fixed-size digest and adds extra keys (LoRA, multimodal
 * inputs, a cache salt); this record compares the whole chain exactly, so it never collides.
 */
public record BlockHash(BlockHash parent, List<Integer> tokens) {
    public BlockHash {
        tokens = List.copyOf(tokens);
    }
}
