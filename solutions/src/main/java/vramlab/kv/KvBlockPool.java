package vramlab.kv;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import vramlab.driver.GpuProcess;

/**
 * The paged KV cache's pool in vLLM's manner ({@code vllm/v1/core/block_pool.py} @c59cb794, class
 * {@code BlockPool}): {@code numBlocks} equal blocks of {@code blockSize} tokens each, all
 * made at start-up, one free queue. Block 0 is taken at construction as the null block and
 * never handed out, so {@code numBlocks - 1} blocks are usable.
 *
 * <p>The memory is one {@code cudaMalloc} of {@code numBlocks * blockBytes} at start-up, as
 * vLLM allocates its KV cache tensors once after profiling.
 *
 * <p>Invariants: every block but the null block is either in the free queue with
 * {@code refCnt == 0}, or out of it with {@code refCnt >= 1}; the null block is never queued.
 *
 * <p>Prefix caching (used through {@link KvCacheManager#allocatePrompt}): a full block may
 * carry a {@link BlockHash}; cached blocks are found by hash, shared by reference count
 * ({@link #touch}), and stay in the free queue with their hash when their count drops to 0, until
 * {@link #getNewBlocks} pops one for reuse and evicts the hash. Invariant: a hash maps to a block
 * exactly when that block carries it.
 */
public final class KvBlockPool {
    /** vLLM's default block size, 16 tokens ({@code CacheConfig.DEFAULT_BLOCK_SIZE}, vllm/config/cache.py). */
    public static final int DEFAULT_BLOCK_SIZE = 16;
    public static final int NULL_BLOCK = 0;

    private final int numBlocks;
    private final int blockSize;
    private final long blockBytes;
    private final FreeBlockQueue freeQueue;
    private final int[] refCnt;
    private final GpuProcess process;
    private final long base;
    private final BlockHash[] hashOf;
    private final Map<BlockHash, Integer> cached = new HashMap<>();
    private long evictions;

    public KvBlockPool(GpuProcess process, int numBlocks, int blockSize, long blockBytes) {
        if (numBlocks < 2 || blockSize <= 0 || blockBytes <= 0) {
            throw new IllegalArgumentException("KvBlockPool needs at least 2 blocks (one is the null block), "
                    + "a positive block size and block bytes; got " + numBlocks + ", " + blockSize + ", " + blockBytes);
        }
        this.process = process;
        this.numBlocks = numBlocks;
        this.blockSize = blockSize;
        this.blockBytes = blockBytes;
        this.base = process.cudaMalloc(numBlocks * blockBytes);
        this.freeQueue = new FreeBlockQueue(numBlocks);
        this.refCnt = new int[numBlocks];
        this.hashOf = new BlockHash[numBlocks];
        freeQueue.popLeft();                    // block 0: the null block, never freed
        refCnt[NULL_BLOCK] = 1;
    }

    public int numBlocks() { return numBlocks; }
    public int blockSize() { return blockSize; }
    public long blockBytes() { return blockBytes; }
    public int numFreeBlocks() { return freeQueue.size(); }
    /** Usable blocks: all but the null block. */
    public int usableBlocks() { return numBlocks - 1; }
    public long reserved() { return process.allocationSize(base); }
    public long base() { return base; }
    /** The device address of a block's first byte. */
    public long address(int block) { return base + block * blockBytes; }
    public int refCnt(int block) { return refCnt[block]; }
    public FreeBlockQueue freeQueue() { return freeQueue; }

    // tag::get-new-blocks[]
    /**
     * vLLM's {@code get_new_blocks}: pops {@code n} blocks from the front of the free queue.
     *
     * @throws IllegalArgumentException when fewer than {@code n} are free (vLLM raises
     *     {@code ValueError}); nothing is taken then
     */
    public int[] getNewBlocks(int n) {
        if (n > freeQueue.size()) {
            throw new IllegalArgumentException("Cannot get " + n + " free blocks from the pool ("
                    + freeQueue.size() + " free)");
        }
        int[] blocks = new int[n];
        for (int i = 0; i < n; i++) {
            blocks[i] = freeQueue.popLeft();
            evict(blocks[i]);                   // a cached block is reused: its contents go
            refCnt[blocks[i]] = 1;
        }
        return blocks;
    }
    // end::get-new-blocks[]

    private void evict(int block) {
        if (hashOf[block] == null) return;
        cached.remove(hashOf[block]);
        hashOf[block] = null;
        evictions++;
    }

    /** The cached block holding {@code hash}, or -1. */
    public int cachedBlock(BlockHash hash) { return cached.getOrDefault(hash, -1); }

    /** Records that the full block {@code block} holds {@code hash}'s tokens. */
    public void cacheBlock(int block, BlockHash hash) {
        if (hashOf[block] != null || cached.containsKey(hash)) return;   // already cached
        hashOf[block] = hash;
        cached.put(hash, block);
    }

    /** vLLM's {@code touch}: a prefix hit takes a reference, leaving the free queue if it was there. */
    public void touch(int block) {
        if (refCnt[block] == 0) freeQueue.remove(block);
        refCnt[block]++;
    }

    public int cachedBlocks() { return cached.size(); }
    public long evictions() { return evictions; }

    // tag::free-blocks[]
    /**
     * vLLM's {@code free_blocks} (vllm/v1/core/block_pool.py at c59cb794): drops one reference
     * from each block; the blocks that reach 0 go back to the free queue, those without a hash
     * at the front, in the order given ({@code prepend_n}: reused first, their contents are
     * worth nothing), the cached ones at the back ({@code append_n}: kept longest for prefix
     * hits). Older releases appended both.
     */
    public void freeBlocks(Iterable<Integer> blocks) {
        List<Integer> fresh = new ArrayList<>();
        List<Integer> cachedOnes = new ArrayList<>();
        for (int b : blocks) {
            if (b == NULL_BLOCK) throw new IllegalArgumentException("free: block 0 is the null block");
            if (refCnt[b] <= 0) throw new IllegalArgumentException("free: block " + b + " is already free");
            if (--refCnt[b] == 0) (hashOf[b] == null ? fresh : cachedOnes).add(b);
        }
        for (int i = fresh.size() - 1; i >= 0; i--) freeQueue.prepend(fresh.get(i));
        for (int b : cachedOnes) freeQueue.append(b);
    }
    // end::free-blocks[]

    public void checkInvariants() {
        freeQueue.checkInvariants();
        if (freeQueue.contains(NULL_BLOCK)) throw new IllegalStateException("the null block is in the free queue");
        for (var e : cached.entrySet()) {
            if (hashOf[e.getValue()] != e.getKey()) throw new IllegalStateException("hash map stale at " + e);
        }
        for (int b = 1; b < numBlocks; b++) {
            if (hashOf[b] != null && cached.get(hashOf[b]) != b) {
                throw new IllegalStateException("block " + b + " carries a hash the map does not know");
            }
            if (freeQueue.contains(b) != (refCnt[b] == 0) || refCnt[b] < 0) {
                throw new IllegalStateException("block " + b + " refCnt " + refCnt[b]
                        + (freeQueue.contains(b) ? " but queued" : " but not queued"));
            }
        }
        if (reserved() != process.allocationSize(base) || reserved() < numBlocks * blockBytes) {
            throw new IllegalStateException("the pool's cudaMalloc is gone or too small");
        }
    }
}
