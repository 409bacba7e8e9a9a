package vramlab.alloc;

/**
 * The statistics hooks: the {@code update_stat} calls PyTorch's allocator makes on its
 * malloc/free path (c10/cuda/CUDACachingAllocator.cpp, 2024 main: {@code alloc_block}
 * CCA:2630-2722, {@code alloc_found_block} 1384-1474, {@code free_block} 2331-2408,
 * {@code release_block} 2815-2848), one method per place, so {@link CachingAllocator}'s
 * functions read as the path and {@link MemoryStats} holds the figures.
 */
final class StatUpdates {
    private final MemoryStats stats;
    private final Policy policy;

    StatUpdates(MemoryStats stats, Policy policy) {
        this.stats = stats;
        this.policy = policy;
        if (policy.maxSplitSize() != Long.MAX_VALUE) stats.maxSplitSize = policy.maxSplitSize();
    }

    /** {@code alloc_block}: one more segment of {@code size} bytes from cudaMalloc. */
    void segmentAllocated(PoolKind kind, long size) {
        stats.increase(MemoryStats.SEGMENT, kind, 1);
        stats.increase(MemoryStats.RESERVED_BYTES, kind, size);
        if (size >= policy.maxSplitSize()) stats.oversizeSegments.increase(1);
        stats.numDeviceAlloc++;
    }

    /** {@code release_block}: a segment of {@code size} bytes went back to cudaFree. */
    void segmentReleased(PoolKind kind, long size) {
        stats.numDeviceFree++;
        stats.decrease(MemoryStats.SEGMENT, kind, 1);
        stats.decrease(MemoryStats.RESERVED_BYTES, kind, size);
        if (size >= policy.maxSplitSize()) stats.oversizeSegments.decrease(1);
    }

    /**
     * {@code alloc_found_block}: the inactive-split figures after a split (or none), then the
     * block is live. Blocks of expandable segments are left out of the split figures
     * (CCA:2378-2403).
     */
    void blockAllocated(Block block, long size, boolean alreadySplit, Block remainder) {
        PoolKind kind = block.segment.pool;
        if (!block.segment.isExpandable()) {
            if (remainder != null && alreadySplit) {
                stats.decrease(MemoryStats.INACTIVE_SPLIT_BYTES, kind, block.size);
            } else if (remainder != null) {
                stats.increase(MemoryStats.INACTIVE_SPLIT_BYTES, kind, remainder.size);
                stats.increase(MemoryStats.INACTIVE_SPLIT, kind, 1);
            } else if (alreadySplit) {
                stats.decrease(MemoryStats.INACTIVE_SPLIT_BYTES, kind, block.size);
                stats.decrease(MemoryStats.INACTIVE_SPLIT, kind, 1);
            }
        }
        stats.increase(MemoryStats.ALLOCATION, kind, 1);
        stats.increase(MemoryStats.ALLOCATED_BYTES, kind, block.size);
        stats.increase(MemoryStats.ACTIVE, kind, 1);
        stats.increase(MemoryStats.ACTIVE_BYTES, kind, block.size);
        stats.increase(MemoryStats.REQUESTED_BYTES, kind, size);
        if (block.size >= policy.maxSplitSize()) stats.oversizeAllocations.increase(1);
    }

    /** {@code free}: the block is no longer allocated (it may stay active until its events complete). */
    void blockFreed(PoolKind kind, long size) {
        stats.decrease(MemoryStats.ALLOCATION, kind, 1);
        stats.decrease(MemoryStats.ALLOCATED_BYTES, kind, size);
        if (size >= policy.maxSplitSize()) stats.oversizeAllocations.decrease(1);
    }

    /**
     * {@code free_block}: the freed block of {@code originalSize} bytes ({@code requested} asked)
     * merged into {@code merged}, taking in {@code absorbed} free split neighbours of
     * {@code absorbedBytes}; now it is inactive. The net change of inactive split blocks is
     * the merged block (if still split) less the neighbours it took in.
     */
    void blockInactive(Block merged, long absorbed, long absorbedBytes, long originalSize, long requested) {
        PoolKind kind = merged.segment.pool;
        if (!merged.segment.isExpandable()) {
            long netSplitBlocks = -absorbed, netSplitBytes = -absorbedBytes;
            if (merged.isSplit()) {
                netSplitBlocks++;
                netSplitBytes += merged.size;
            }
            addSigned(MemoryStats.INACTIVE_SPLIT, kind, netSplitBlocks);
            addSigned(MemoryStats.INACTIVE_SPLIT_BYTES, kind, netSplitBytes);
        }
        stats.decrease(MemoryStats.ACTIVE, kind, 1);
        stats.decrease(MemoryStats.ACTIVE_BYTES, kind, originalSize);
        stats.decrease(MemoryStats.REQUESTED_BYTES, kind, requested);
    }

    private void addSigned(int stat, PoolKind kind, long n) {
        if (n > 0) stats.increase(stat, kind, n);
        if (n < 0) stats.decrease(stat, kind, -n);
    }
}
