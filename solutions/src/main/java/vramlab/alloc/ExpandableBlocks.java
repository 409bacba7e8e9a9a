package vramlab.alloc;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import vramlab.alloc.DeviceTrace.Action;

/**
 * The blocks of expandable segments: how the allocator maps pages under them on demand and
 * unmaps the free ones, as {@code DeviceCachingAllocator} does with
 * {@code expandable_segments:True} (c10/cuda/CUDACachingAllocator.cpp, 2024 main, cited as
 * CCA:lines: {@code try_allocate_expandable_block}, {@code find_expandable_block},
 * {@code map_block}, {@code unmap_block}, {@code release_expandable_segment}). The pages
 * themselves are {@link ExpandableSegment}'s; the blocks over them are {@link CachingAllocator}'s,
 * in its free sets when mapped and in this class's unmapped sets when not.
 *
 * <p>Invariant (checked by {@link AllocatorCheck}): each pool's unmapped set holds exactly the
 * unmapped blocks of that pool's expandable segments.
 */
final class ExpandableBlocks {
    private final CachingAllocator allocator;
    private final Map<PoolKind, FreeSet> freeBlocks;    // the allocator's free sets
    private final Map<PoolKind, FreeSet> unmapped = new EnumMap<>(PoolKind.class);
    private final MemoryStats stats;
    private final DeviceTrace trace;
    // lab:shortcut begin
    /** Free blocks of expandable segments cached since the last unmap pass (some since used or merged). */
    private final List<Block> expandableCached = new ArrayList<>();
    // lab:shortcut end

    ExpandableBlocks(CachingAllocator allocator, Map<PoolKind, FreeSet> freeBlocks, MemoryStats stats,
                     DeviceTrace trace) {
        this.allocator = allocator;
        this.freeBlocks = freeBlocks;
        this.stats = stats;
        this.trace = trace;
        for (PoolKind k : PoolKind.values()) unmapped.put(k, new FreeSet(FreeSet.Order.STREAM_ADDRESS));
    }

    /** The unmapped ranges of one pool's expandable segments, by (stream, address). */
    FreeSet unmappedSet(PoolKind pool) { return unmapped.get(pool); }

    /**
     * {@code try_allocate_expandable_block} (CCA:2297-2328): find the lowest run of free and
     * unmapped space that fits, map what is missing, and return it as one free block.
     */
    Block tryAllocate(PoolKind kind, int stream, long size) {
        Block candidate = findExpandableBlock(kind, stream, size);
        if (!candidate.mapped) {
            candidate = mapBlock(candidate, Math.min(candidate.size, size));
            if (candidate == null) return null;
        }
        while (candidate.size < size) {              // free -> unmapped -> ...
            Block next = candidate.next;
            candidate = mapBlock(next, Math.min(size - candidate.size, next.size));
            if (candidate == null) return null;
        }
        freeBlocks.get(kind).remove(candidate);
        return candidate;
    }

    private static boolean allocatable(Block b) {
        return b != null && !b.allocated && b.eventCount == 0 && !b.hasStreamUses();
    }

    /**
     * {@code find_expandable_block} (CCA:2178-2232): the lowest-address unmapped range (with
     * the free block just before it) that has room, else a new segment for this (pool, stream).
     */
    private Block findExpandableBlock(PoolKind kind, int stream, long size) {
        FreeSet ranges = unmapped.get(kind);
        for (Block c = ranges.ceiling(allocator.probe(stream, 0)); c != null && c.stream == stream;
                c = ranges.higher(c)) {
            Block start = allocatable(c.prev) ? c.prev : c;
            long bytes = 0;
            for (Block b = start; b != null && bytes < size && allocatable(b); b = b.next) bytes += b.size;
            if (bytes >= size) return start;
        }
        return newExpandableSegment(kind, stream);
    }

    /** A new reservation for (pool, stream): one unmapped block over all of it (CCA:2214-2231). */
    Block newExpandableSegment(PoolKind kind, int stream) {
        ExpandableSegment pages = new ExpandableSegment(allocator.process(),
                allocator.process().gpu().totalMemory(),   // totalGlobalMem
                allocator.policy().expandablePageSize(kind));
        Segment s = new Segment(allocator.newSegmentId(), allocator.placement.address(pages.base(), pages.size()),
                pages.base(), pages.size(), kind, stream, pages);
        Block all = new Block(s, stream, 0, s.size);
        all.mapped = false;
        s.first = all;
        allocator.adopt(s);
        unmapped.get(kind).add(all);
        return all;
    }

    // tag::map-block[]
    /**
     * {@code map_block} (statistics at CCA:2275-2290): map pages under the front of an unmapped block, keep
     * the rest unmapped, and merge the new memory with free neighbours across the page
     * boundary. Returns the merged free block (now in the free set), or null when the driver
     * has no pages.
     *
     * <p>The contract, in PyTorch's order. {@code toMap} is an unmapped block (in its pool's
     * unmapped set, starting on a page boundary) and {@code 0 < size <= toMap.size}.
     * <ol>
     *   <li>Ask the segment's pages ({@link ExpandableSegment#map}, step 5.1) for {@code size} bytes
     *       at the block's offset. The range they map is whole pages, so it may be more than
     *       {@code size}. If it is empty (the driver is out of memory), change nothing and return null.
     *   <li>The block leaves its pool's unmapped set and is mapped. When the pages mapped are fewer
     *       bytes than the block, split: the block shrinks to the bytes mapped, and the unmapped
     *       remainder becomes a new block of the same segment and stream, linked between the block
     *       and its old next, and put in the unmapped set (the invariant above).
     *   <li>Merge the mapped block with its free neighbours ({@code mergeWithNeighbours}, your
     *       step 3.4) and put the result in the pool's free set with {@code cache}: that block
     *       is the one returned.
     *   <li>Count the new memory as a {@code cudaMalloc} would be counted: the allocator's
     *       {@code reserved} and the pool's {@code reserved_bytes} stat grow by the bytes mapped
     *       (whole pages, not {@code size}), and {@code num_device_alloc} by one. The segment
     *       count does not change: no new segment was made.
     *   <li>Record a {@code SEGMENT_MAP} trace event: the address of the first byte mapped, the
     *       bytes mapped, and the block's stream.
     * </ol>
     */
    Block mapBlock(Block toMap, long size) {
        // lab:begin 5.2 "Map a block, merge across the page boundary" see ch05 "Growing: map pages on demand"
        ExpandableSegment.Range r = toMap.segment.pages.map(toMap.offset, size);
        if (r.size() == 0) return null;
        PoolKind kind = toMap.segment.pool;
        unmapped.get(kind).remove(toMap);
        toMap.mapped = true;
        if (r.size() < toMap.size) {                // [toMap mapped][rest unmapped]
            Block rest = new Block(toMap.segment, toMap.stream, toMap.offset + r.size(), toMap.size - r.size());
            rest.mapped = false;
            rest.prev = toMap;
            rest.next = toMap.next;
            if (toMap.next != null) toMap.next.prev = rest;
            toMap.next = rest;
            toMap.size = r.size();
            unmapped.get(kind).add(rest);
        }
        FreeSet pool = freeBlocks.get(kind);
        Block merged = allocator.mergeWithNeighbours(toMap, pool);
        allocator.cache(merged, pool);
        allocator.reserved += r.size();
        stats.increase(MemoryStats.RESERVED_BYTES, kind, r.size());
        stats.numDeviceAlloc++;
        trace.add(Action.SEGMENT_MAP, toMap.segment.address + r.offset(), r.size(), toMap.stream);
        return merged;
        // lab:end
    }
    // end::map-block[]

    // lab:shortcut begin
    // labs: /**
    // labs:  * Unmaps the whole free pages of every free block of the expandable segments (CCA:2916-2940):
    // labs:  * each free block, large pool first, each pool in its free set's order, goes through
    // labs:  * {@code unmap_block}, where your step 5.3 ({@link ExpandableSegment#unmap}) decides its pages.
    // labs:  */
    /**
     * Unmaps the whole free pages of every free block of the expandable segments (CCA:2916-2940).
     * Beyond {@link WholeSegmentRelease#FULL_WALK_MAX} free blocks, only the blocks cached since
     * the last pass are looked at, in the walk's order: a free block's pages change only when it
     * is cached anew (merged, split or mapped), and after a pass no free block left holds a whole
     * page, so the others would unmap nothing. An OOM's retry or an empty_cache then costs what
     * was cached since, not every free block.
     *
     * <p>The shortcut is reference-only (a shortcut region, HACKING.adoc): its whole-page
     * test restates step 5.3's rounding ({@link ExpandableSegment#unmap}), and it would hand a
     * student's 5.3 only the blocks the reference says hold a whole page. The labs edition walks
     * every free block, as the reference does with {@code fastRelease} off.
     */
    // lab:shortcut end
    void unmapFreePages() {
        // lab:shortcut begin
        // labs: List<Block> toUnmap = freeExpandableBlocks();
        boolean shortcut = allocator.fastRelease && allocator.freeBlockCount() > WholeSegmentRelease.FULL_WALK_MAX;
        List<Block> cached = cachedSinceLastPass(shortcut);
        List<Block> toUnmap = shortcut ? cached : freeExpandableBlocks();
        // lab:shortcut end
        for (Block b : toUnmap) {
            Block u = unmapBlock(b);
            if (u != null && u.prev == null && u.next == null) releaseExpandableSegment(u.segment);
        }
    }

    /** Every free block of an expandable segment: large pool first, each pool in its free set's order. */
    private List<Block> freeExpandableBlocks() {
        List<Block> blocks = new ArrayList<>();
        for (PoolKind kind : CacheRelease.RELEASE_ORDER) {
            for (Block b : freeBlocks.get(kind)) if (b.segment.isExpandable()) blocks.add(b);
        }
        return blocks;
    }

    // lab:shortcut begin
    /**
     * Empties the list of blocks cached since the last pass; with {@code keep}, returns those of
     * them still cached that hold a whole page, in the walk's order (else an empty list).
     */
    private List<Block> cachedSinceLastPass(boolean keep) {
        List<Block> kept = new ArrayList<>();
        for (Block b : expandableCached) {
            b.notedExpandable = false;
            if (keep && isCachedExpandable(b) && holdsWholePage(b)) kept.add(b);
        }
        expandableCached.clear();
        kept.sort(WholeSegmentRelease.RELEASE_ORDER_THEN_FREE_SET);
        return kept;
    }

    // labs: /** The reference notes a free block of an expandable segment here, for its shortcut; this edition notes nothing. */
    /** Notes a free block of an expandable segment, once; prunes the list as {@link WholeSegmentRelease#note} does. */
    // lab:shortcut end
    void noteCached(Block b) {
        // lab:shortcut begin
        if (b.notedExpandable) return;
        b.notedExpandable = true;
        expandableCached.add(b);
        if (expandableCached.size() > 2 * WholeSegmentRelease.FULL_WALK_MAX
                && expandableCached.size() > 2 * allocator.freeBlockCount()) {
            expandableCached.removeIf(c -> {
                if (isCachedExpandable(c)) return false;
                c.notedExpandable = false;
                return true;
            });
        }
        // lab:shortcut end
    }

    // lab:shortcut begin
    /** This very block is in its pool's free set (not merged away, not taken). */
    private boolean isCachedExpandable(Block b) {
        return !b.allocated && b.mapped && b.segment.owner == allocator
                && freeBlocks.get(b.segment.pool).ceiling(b) == b;
    }

    /** Whether a page of its segment lies wholly inside the block: what {@code unmap} would unmap. */
    private static boolean holdsWholePage(Block b) {
        long page = b.segment.pages.pageSize();
        return (b.offset + page - 1) / page < (b.offset + b.size) / page;
    }
    // lab:shortcut end

    /**
     * {@code unmap_block} (CCA:2850-2915): unmap the pages wholly inside a free block; the
     * partial pages at its ends stay mapped as free blocks of their own. Returns the unmapped
     * block after merging with unmapped neighbours, or null when no whole page was free.
     */
    private Block unmapBlock(Block block) {
        Segment s = block.segment;
        ExpandableSegment.Range r = s.pages.unmap(block.offset, block.size);
        if (r.size() == 0) return null;
        PoolKind kind = s.pool;
        FreeSet pool = freeBlocks.get(kind);
        pool.remove(block);
        long before = r.offset() - block.offset;
        if (before > 0) {                           // [before FREE][block]
            Block b = new Block(s, block.stream, block.offset, before);
            b.prev = block.prev;
            b.next = block;
            if (block.prev != null) block.prev.next = b; else s.first = b;
            block.prev = b;
            allocator.cache(b, pool);
        }
        long after = block.size - before - r.size();
        if (after > 0) {                            // [block][after FREE]
            Block a = new Block(s, block.stream, r.offset() + r.size(), after);
            a.prev = block;
            a.next = block.next;
            if (block.next != null) block.next.prev = a;
            block.next = a;
            allocator.cache(a, pool);
        }
        block.moveTo(r.offset());
        block.size = r.size();
        block.mapped = false;
        FreeSet unmappedSet = unmapped.get(kind);
        Block merged = allocator.mergeWithNeighbours(block, unmappedSet);
        unmappedSet.add(merged);
        allocator.reserved -= r.size();
        stats.decrease(MemoryStats.RESERVED_BYTES, kind, r.size());
        stats.numDeviceFree++;
        trace.add(Action.SEGMENT_UNMAP, s.address + r.offset(), r.size(), s.stream);
        return merged;
    }

    /** {@code release_expandable_segment} (CCA:2799-2813): its address space goes back. */
    private void releaseExpandableSegment(Segment s) {
        unmapped.get(s.pool).remove(s.first);
        s.pages.release();
        allocator.disown(s);
    }
}
