package vramlab.alloc;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import vramlab.alloc.DeviceTrace.Action;

/**
 * Giving cached memory back to the driver, as PyTorch's {@code DeviceCachingAllocator} does
 * (c10/cuda/CUDACachingAllocator.cpp, 2024 main, cited as CCA:lines): {@code empty_cache}'s
 * {@code release_cached_blocks} and {@code release_blocks}, {@code release_block} (one cudaFree),
 * and {@code release_available_cached_blocks}, the {@code max_split_size} step of malloc's
 * recovery. Step 3.5 is {@link #releaseWholeFreeSegments}; {@link WholeSegmentRelease} runs it
 * (the reference cores by a shortcut past a few hundred free blocks) and
 * {@link ExpandableBlocks#unmapFreePages} is the expandable segments' part.
 */
final class CacheRelease {
    /** The order {@code release_cached_blocks} visits the pools in: large, then small. */
    static final List<PoolKind> RELEASE_ORDER = List.of(PoolKind.LARGE, PoolKind.SMALL);

    private final CachingAllocator allocator;
    private final Map<PoolKind, FreeSet> freeBlocks;    // the allocator's free sets
    private final StatUpdates statUpdates;
    private final WholeSegmentRelease wholeRelease;

    CacheRelease(CachingAllocator allocator, Map<PoolKind, FreeSet> freeBlocks, StatUpdates statUpdates) {
        this.allocator = allocator;
        this.freeBlocks = freeBlocks;
        this.statUpdates = statUpdates;
        this.wholeRelease = new WholeSegmentRelease(allocator, this);
    }

    WholeSegmentRelease wholeRelease() { return wholeRelease; }

    /**
     * {@code release_cached_blocks} (CCA:2772-2797): synchronise, then {@code release_blocks}
     * on the large pool and the small one. Each {@code release_blocks} walks its pool's free
     * set, not the segments, so {@code empty_cache} costs O(free blocks) (CCA release_blocks,
     * pytorch/pytorch@001074d25084fdb87a799823e395a50f5ec044d3, c10/cuda/CUDACachingAllocator.cpp).
     * Simplified: the source unmaps a pool's expandable blocks right after freeing that pool's
     * whole segments; here every pool's whole segments go first, then every pool's free pages.
     * The two orders differ only when one allocator holds both kinds of segment (a restored
     * snapshot), and then only in the order of the trace's entries.
     *
     * <p>The reference cores take shortcuts, so that a trace calling {@code empty_cache} every few
     * events does not walk every free block each time (what is released, and in what order, is the
     * same): {@link WholeSegmentRelease} and {@link ExpandableBlocks#unmapFreePages}; the labs
     * edition walks every time. The walk for free pages runs only while an expandable segment exists.
     */
    long releaseCachedBlocks() {
        allocator.synchronize();
        long before = allocator.reserved;
        wholeRelease.run();
        if (allocator.expandableSegmentCount() > 0) allocator.expandable().unmapFreePages();
        return before - allocator.reserved;
    }

    // tag::empty-cache[]
    /**
     * cudaFree every cudaMalloc segment that one free block covers whole: a free block with no
     * neighbour ({@code release_blocks}: {@code !block->prev && !block->next}, CCA:2916-2940),
     * each by {@link #releaseBlock}. Returns the bytes released: the sizes of the segments freed.
     */
    long releaseWholeFreeSegments() {
        // lab:begin 3.5 "empty_cache" see ch03 "empty_cache releases whole free segments only"
        List<Block> whole = new ArrayList<>();
        for (PoolKind kind : RELEASE_ORDER) {
            for (Block b : freeBlocks.get(kind)) {
                if (!b.segment.isExpandable() && !b.isSplit()) whole.add(b);
            }
        }
        long released = 0;
        for (Block b : whole) {
            released += b.size;
            releaseBlock(b);
        }
        return released;
        // lab:end
    }
    // end::empty-cache[]

    /** {@code release_block} (CCA:2815-2848): cudaFree one whole free segment. */
    void releaseBlock(Block block) {
        Segment s = block.segment;
        if (s.isExpandable() || block.isSplit() || block.allocated) {
            throw new IllegalStateException("release_block(" + block + "): not a whole free cudaMalloc segment");
        }
        freeBlocks.get(s.pool).remove(block);
        allocator.trace().add(Action.SEGMENT_FREE, s.address, s.size, s.stream);
        allocator.process().cudaFree(s.ptr);
        allocator.reserved -= s.size;
        statUpdates.segmentReleased(s.pool, s.size);
        allocator.disown(s);
    }

    /**
     * {@code release_available_cached_blocks} (CCA:2728-2770): only with {@code max_split_size}.
     * Releases the smallest cached oversize block of at least max(request, max_split_size), or
     * else the largest oversize blocks, biggest first, until they cover the request.
     */
    boolean releaseAvailableCachedBlocks(PoolKind kind, int stream, long rounded) {
        long maxSplit = allocator.policy().maxSplitSize();
        if (maxSplit == Long.MAX_VALUE) return false;
        FreeSet pool = freeBlocks.get(kind);
        long key = Math.max(rounded, maxSplit);
        Block it = pool.ceiling(allocator.probe(stream, key));
        if (it != null && it.stream == stream) {
            if (!isWholeSegment(it)) return false;
            releaseBlock(it);
            return true;
        }
        Block cur = it == null ? (pool.isEmpty() ? null : pool.last()) : pool.lower(it);
        long released = 0;
        while (cur != null && released < key && cur.size >= maxSplit && cur.stream == stream
                && isWholeSegment(cur)) {
            Block lower = pool.lower(cur);
            released += cur.size;
            releaseBlock(cur);
            cur = lower;
        }
        return released >= key;
    }

    /** The source releases oversize blocks as whole segments; this guards that assumption. */
    static boolean isWholeSegment(Block b) { return !b.segment.isExpandable() && !b.isSplit(); }
}
