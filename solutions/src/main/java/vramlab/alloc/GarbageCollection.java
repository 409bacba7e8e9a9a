package vramlab.alloc;

import java.util.ArrayList;

/**
 * Garbage collection of cached blocks under a memory fraction, as PyTorch's
 * {@code garbage_collect_cached_blocks} does it (c10/cuda/CUDACachingAllocator.cpp, 2024 main,
 * CCA:2566-2623), with the ages it reads: each pool counts its {@code get_free_block} calls
 * ({@code get_free_blocks_call_count}) and a cached block is stamped with that count, so its age
 * is the searches since it was cached. It runs only with {@code set_per_process_memory_fraction}
 * and {@code garbage_collection_threshold} both set.
 */
final class GarbageCollection {
    private final CachingAllocator allocator;
    private final long[] getFreeBlockCalls = new long[PoolKind.values().length];

    GarbageCollection(CachingAllocator allocator) { this.allocator = allocator; }

    /** Both a memory fraction and a threshold are set (CCA get_free_block and malloc). */
    boolean enabled() {
        return allocator.allowedMemory() >= 0 && allocator.policy().garbageCollectionThreshold() > 0;
    }

    /** One more {@code get_free_block} call on this pool. */
    void countSearch(PoolKind kind) { getFreeBlockCalls[kind.ordinal()]++; }

    /** Stamps a block being cached with its pool's count: its age starts now. */
    void stamp(Block b) { b.gcStamp = getFreeBlockCalls[b.segment.pool.ordinal()]; }

    /**
     * {@code garbage_collect_cached_blocks} (CCA:2566-2623): above threshold * allowed, release
     * unsplit cached large blocks whose age (free-set searches since cached) is at least the
     * average, pass after pass, until enough is reclaimed or a pass frees nothing.
     */
    void collect() {
        long threshold = (long) (allocator.policy().garbageCollectionThreshold() * allocator.allowedMemory());
        if (allocator.reserved() <= threshold) return;
        long target = allocator.reserved() - threshold;
        FreeSet large = allocator.freeSet(PoolKind.LARGE);
        long now = getFreeBlockCalls[PoolKind.LARGE.ordinal()];
        long totalAge = 0;
        int count = 0;
        for (Block b : large) {
            if (CacheRelease.isWholeSegment(b)) {
                totalAge += now - b.gcStamp;
                count++;
            }
        }
        long reclaimed = 0;
        boolean freed = true;
        while (reclaimed < target && freed && count > 0) {
            double ageThreshold = (double) totalAge / count;
            freed = false;
            for (Block b : new ArrayList<>(large)) {
                if (CacheRelease.isWholeSegment(b) && now - b.gcStamp >= ageThreshold) {
                    freed = true;
                    reclaimed += b.size;
                    totalAge -= now - b.gcStamp;
                    count--;
                    allocator.release().releaseBlock(b);
                }
            }
        }
    }
}
