package vramlab.kv;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Block tables over a {@link KvBlockPool}, in the manner of vLLM's {@code KVCacheManager}
 * ({@code vllm/v1/core/kv_cache_manager.py} @ace980e6): each request holds a list of blocks, logical
 * block i of the request in physical block {@code table.get(i)}, allocated on demand as its
 * tokens grow. Blocks need not be contiguous, so any free block serves any request.
 *
 * <p>Invariants: a request with {@code t} tokens holds exactly {@code ceil(t / blockSize)}
 * blocks, none twice; a block's {@code refCnt} is the number of tables holding it (more than
 * one only through prefix caching); held plus free blocks are all the usable blocks.
 */
public final class KvCacheManager {
    private final KvBlockPool pool;
    private final Map<String, List<Integer>> tables = new LinkedHashMap<>();
    private final Map<String, Long> tokens = new LinkedHashMap<>();
    private long prefixHitTokens;

    public KvCacheManager(KvBlockPool pool) { this.pool = pool; }

    public KvBlockPool pool() { return pool; }
    public int blockSize() { return pool.blockSize(); }

    /** The request's block table, logical order. */
    public List<Integer> blocks(String request) {
        return Collections.unmodifiableList(tables.getOrDefault(request, List.of()));
    }

    public long tokens(String request) { return tokens.getOrDefault(request, 0L); }
    public int requests() { return tables.size(); }

    /** Token slots the live requests use, over all requests. */
    public long tokensHeld() { return tokens.values().stream().mapToLong(Long::longValue).sum(); }

    /** Token slots of all the blocks the live requests hold. */
    public long slotsHeld() { return tables.values().stream().mapToLong(List::size).sum() * blockSize(); }

    // tag::cdiv[]
    /** Blocks for {@code numTokens} tokens: {@code cdiv(numTokens, blockSize)}; 17 -> 2 at 16. */
    public int blocksNeeded(long numTokens) {
        // lab:begin 6.6 "Blocks for n tokens" see ch06 "Rule 5: blocks are ceil(tokens / 16)"
        return (int) ((numTokens + blockSize() - 1) / blockSize());
        // lab:end
    }
    // end::cdiv[]

    // tag::allocate-slots[]
    /**
     * vLLM's {@code allocate_slots}: makes room for {@code numNewTokens} more tokens of
     * {@code request}. It allocates the blocks the new total needs beyond those held, all or
     * none: when the free queue is short it returns {@code false} and changes nothing (vLLM
     * returns {@code None}; its scheduler then preempts or waits).
     */
    public boolean allocateSlots(String request, long numNewTokens) {
        // lab:begin 6.7 "Allocate all or nothing" see ch06 "Rule 6: all blocks or none"
        List<Integer> table = tables.getOrDefault(request, List.of());
        long total = tokens(request) + numNewTokens;
        int needed = blocksNeeded(total) - table.size();
        if (needed > pool.numFreeBlocks()) return false;
        List<Integer> grown = new ArrayList<>(table);
        for (int b : pool.getNewBlocks(Math.max(needed, 0))) grown.add(b);
        tables.put(request, grown);
        tokens.put(request, total);
        return true;
        // lab:end
    }
    // end::allocate-slots[]

    // tag::free[]
    /**
     * vLLM's {@code KVCacheManager.free}: gives the request's blocks back in reverse order, so
     * that its last block is first in line among those freed together, and, with prefix caching,
     * the tail of a hash chain is evicted before its head.
     */
    public void free(String request) {
        // lab:begin 6.8 "Free in reverse" see ch06 "Rule 7: free in reverse order"
        List<Integer> table = tables.remove(request);
        if (table == null) {
            throw new IllegalArgumentException("free(" + request + "): no such request");
        }
        tokens.remove(request);
        List<Integer> reversed = new ArrayList<>(table);
        Collections.reverse(reversed);
        pool.freeBlocks(reversed);
        // lab:end
    }
    // end::free[]

    // tag::prefix[]
    /**
     * Admits a request with its prompt's token ids, reusing cached blocks for the longest
     * prefix of full blocks already computed (vLLM's {@code get_computed_blocks}, capped so at
     * least one token is computed again), then allocating the rest all or nothing, and caching
     * the prompt's new full blocks under their chained hashes.
     */
    public boolean allocatePrompt(String request, List<Integer> prompt) {
        if (tables.containsKey(request)) {
            throw new IllegalArgumentException("allocatePrompt(" + request + "): already admitted");
        }
        List<BlockHash> hashes = fullBlockHashes(prompt);
        List<Integer> hits = new ArrayList<>();
        for (int i = 0; i < hashes.size() && (i + 1L) * blockSize() <= prompt.size() - 1; i++) {
            int b = pool.cachedBlock(hashes.get(i));
            if (b < 0) break;
            hits.add(b);
        }
        int fresh = blocksNeeded(prompt.size()) - hits.size();
        long hitsInQueue = hits.stream().filter(b -> pool.refCnt(b) == 0).count();
        if (fresh + hitsInQueue > pool.numFreeBlocks()) return false;
        hits.forEach(pool::touch);                      // before popping: a hit is never evicted
        List<Integer> table = new ArrayList<>(hits);
        for (int b : pool.getNewBlocks(fresh)) table.add(b);
        for (int i = hits.size(); i < hashes.size(); i++) pool.cacheBlock(table.get(i), hashes.get(i));
        tables.put(request, table);
        tokens.put(request, (long) prompt.size());
        prefixHitTokens += (long) hits.size() * blockSize();
        return true;
    }
    // end::prefix[]

    /** The chained hashes of the prompt's full blocks, first block first. */
    List<BlockHash> fullBlockHashes(List<Integer> prompt) {
        List<BlockHash> hashes = new ArrayList<>();
        BlockHash parent = null;
        for (int start = 0; start + blockSize() <= prompt.size(); start += blockSize()) {
            parent = new BlockHash(parent, prompt.subList(start, start + blockSize()));
            hashes.add(parent);
        }
        return hashes;
    }

    /** Prompt tokens served from the prefix cache so far. */
    public long prefixHitTokens() { return prefixHitTokens; }

    /** Blocks held by at least one request. */
    public int blocksInUse() { return pool.usableBlocks() - pool.numFreeBlocks(); }

    /** The longest new request, in tokens, the free blocks could hold now. */
    public long largestServableTokens() { return (long) pool.numFreeBlocks() * blockSize(); }

    public void checkInvariants() {
        pool.checkInvariants();
        int[] holders = new int[pool.numBlocks()];
        for (var e : tables.entrySet()) {
            long t = tokens(e.getKey());
            if (e.getValue().size() != (t + blockSize() - 1) / blockSize()) {
                throw new IllegalStateException(e.getKey() + " holds " + e.getValue().size()
                        + " blocks for " + t + " tokens: " + e.getValue());
            }
            if (e.getValue().stream().distinct().count() != e.getValue().size()) {
                throw new IllegalStateException(e.getKey() + " holds a block twice: " + e.getValue());
            }
            for (int b : e.getValue()) {
                if (b == KvBlockPool.NULL_BLOCK) throw new IllegalStateException(e.getKey() + " holds the null block");
                holders[b]++;
            }
        }
        int held = 0;
        for (int b = 1; b < pool.numBlocks(); b++) {
            if (pool.refCnt(b) != holders[b]) {
                throw new IllegalStateException("block " + b + " has refCnt " + pool.refCnt(b) + " but "
                        + holders[b] + " holders\n" + map());
            }
            if (holders[b] > 0) held++;
        }
        if (held + pool.numFreeBlocks() != pool.usableBlocks()) {
            throw new IllegalStateException(held + " held + " + pool.numFreeBlocks() + " free != "
                    + pool.usableBlocks() + " usable blocks");
        }
    }

    /** The block tables as text: {@code r1: [1, 2] (17 tokens)}, one request per line. */
    public String map() {
        StringBuilder sb = new StringBuilder();
        tables.forEach((r, t) -> sb.append(r).append(": ").append(t).append(" (")
                .append(tokens(r)).append(" tokens)\n"));
        return sb.append("free queue: ").append(pool.freeQueue()).append('\n').toString();
    }

    @Override
    public String toString() { return map(); }
}
