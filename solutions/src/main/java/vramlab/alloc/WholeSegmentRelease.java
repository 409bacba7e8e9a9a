package vramlab.alloc;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

// lab:shortcut begin
// labs: /**
// labs:  * Where the reference keeps its release shortcut ({@code release_blocks},
// labs:  * c10/cuda/CUDACachingAllocator.cpp, 2024 main, CCA:2916-2940, without its walk over every free
// labs:  * block). In this edition empty_cache always runs your step 3.5,
// labs:  * {@link CacheRelease#releaseWholeFreeSegments}, and notes nothing.
// labs:  */
/**
 * The release shortcut, a pure optimisation of {@code release_blocks}
 * (c10/cuda/CUDACachingAllocator.cpp, 2024 main, CCA:2916-2940), which walks every free block
 * of a pool to cudaFree the whole free segments: this class releases the same blocks, in the
 * same order, without the walk. A free block becomes whole only when it is cached (a merged
 * block is cached anew), so the allocator notes here the blocks cached whole; {@link #run}
 * walks nothing when there are none and, beyond {@link #FULL_WALK_MAX} free blocks, releases
 * those of them still cached whole. PyTorch has no such list: a trace calling
 * {@code empty_cache} every few events would otherwise walk every free block each time.
 * ({@code EmptyCacheTest} compares the shortcut with the walk, {@code fastRelease} off.)
 *
 * <p>Invariant: every block noted ({@link Block#noted}) is in the list exactly once.
 */
// lab:shortcut end
final class WholeSegmentRelease {
    /** Up to this many free blocks, empty_cache walks the free sets (step 3.5's body). */
    static final int FULL_WALK_MAX = 256;

    /** The allocator's free-set order, large pool first: the order a release walk visits. */
    static final Comparator<Block> RELEASE_ORDER_THEN_FREE_SET =
            Comparator.<Block>comparingInt(b -> b.segment.pool == PoolKind.LARGE ? 0 : 1)
                    .thenComparing(FreeSet.BY_STREAM_SIZE_ADDRESS);

    private final CachingAllocator allocator;
    private final CacheRelease release;
    /** Blocks cached whole since the last release (some may since have been used or merged). */
    private final List<Block> wholeCached = new ArrayList<>();

    WholeSegmentRelease(CachingAllocator allocator, CacheRelease release) {
        this.allocator = allocator;
        this.release = release;
    }

    List<Block> wholeCached() { return wholeCached; }

    // lab:shortcut begin
    // labs: /** cudaFrees every whole free cudaMalloc segment: your step 3.5, every time. */
    /**
     * cudaFrees every whole free cudaMalloc segment, as
     * {@link CacheRelease#releaseWholeFreeSegments} does: by that walk up to
     * {@link #FULL_WALK_MAX} free blocks, from the list beyond.
     */
    // lab:shortcut end
    void run() {
        // lab:shortcut begin
        // labs: release.releaseWholeFreeSegments();
        if (wholeCached.isEmpty()) return;
        if (allocator.fastRelease && allocator.freeBlockCount() > FULL_WALK_MAX) releaseCachedWholeBlocks();
        else release.releaseWholeFreeSegments();
        for (Block b : wholeCached) b.noted = false;
        wholeCached.clear();
        // lab:shortcut end
    }

    // lab:shortcut begin
    /**
     * What {@link CacheRelease#releaseWholeFreeSegments} releases, in its order, found among
     * the blocks cached whole since the last release instead of by walking every free block: the
     * ones still cached and still whole, large pool first, each pool in its free set's order.
     */
    private void releaseCachedWholeBlocks() {
        List<Block> whole = new ArrayList<>();
        for (Block b : wholeCached) if (isCachedWhole(b)) whole.add(b);
        whole.sort(RELEASE_ORDER_THEN_FREE_SET);
        for (Block b : whole) release.releaseBlock(b);     // the list holds a block once (Block.noted)
    }

    /**
     * A cached free block with no neighbour in a cudaMalloc segment this allocator holds. A
     * block merged into its neighbour keeps its old links, so it never passes.
     */
    private boolean isCachedWhole(Block b) {
        return !b.allocated && !b.isSplit() && b.segment.owner == allocator && !b.segment.isExpandable()
                && b.eventCount == 0 && !b.hasStreamUses();
    }

    // labs: /** The reference notes a block cached whole here, for its shortcut; this edition notes nothing. */
    /**
     * Notes a block cached whole, once: a block still in the list (cached whole before, then
     * taken and cached whole again) is not added twice. The list is kept no longer than twice
     * the free blocks: past that, the entries no longer cached whole are dropped.
     */
    // lab:shortcut end
    void note(Block b) {
        // lab:shortcut begin
        if (b.noted) return;
        b.noted = true;
        wholeCached.add(b);
        if (wholeCached.size() > 2 * FULL_WALK_MAX && wholeCached.size() > 2 * allocator.freeBlockCount()) {
            wholeCached.removeIf(c -> {
                if (isCachedWhole(c)) return false;
                c.noted = false;
                return true;
            });
        }
        // lab:shortcut end
    }
}
