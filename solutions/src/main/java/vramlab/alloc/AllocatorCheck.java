package vramlab.alloc;

import java.util.EnumMap;
import java.util.Map;

/**
 * {@link CachingAllocator#checkInvariants()}: walks every segment and block and compares what
 * it finds with the free sets, the counters, the statistics and the driver. Throws with the
 * segment map on the first disagreement.
 */
final class AllocatorCheck {
    private final CachingAllocator a;

    AllocatorCheck(CachingAllocator a) { this.a = a; }

    void run() {
        long sumAllocated = 0, sumRequested = 0, sumReserved = 0, live = 0;
        Map<PoolKind, Integer> freeCount = new EnumMap<>(PoolKind.class);
        Map<PoolKind, Integer> unmappedCount = new EnumMap<>(PoolKind.class);
        for (Segment s : a.segments()) {
            sumReserved += s.reservedBytes();
            if (s.owner != a) fail("segment " + s.id + " does not name this allocator as its owner");
            if (!s.isExpandable() && a.process().allocationSize(s.ptr) != s.size) {
                fail("segment " + s.id + " is not a live cudaMalloc");
            }
            long expected = 0, mapped = 0;
            Block prev = null;
            for (Block b = s.first; b != null; b = b.next) {
                if (b.segment != s || b.prev != prev || b.offset != expected || b.size <= 0 || b.stream != s.stream) {
                    fail("blocks of segment " + s.id + " do not tile it at " + b);
                }
                if (prev != null && CachingAllocator.canMerge(prev, b) && CachingAllocator.canMerge(b, prev)) fail("adjacent free blocks " + prev + " " + b);
                if (b.mapped) mapped += b.size;
                checkBlockSets(s, b, freeCount, unmappedCount);
                if (b.allocated) {
                    sumAllocated += b.size;
                    sumRequested += b.requested;
                    live++;
                    if (b.requested > b.size) fail("block " + b + " smaller than its request " + b.requested);
                }
                expected += b.size;
                prev = b;
            }
            if (expected != s.size) fail("blocks of segment " + s.id + " cover " + expected + " of " + s.size);
            if (s.isExpandable()) checkPages(s, mapped);
        }
        int expandable = 0;
        for (Segment s : a.segments()) if (s.isExpandable()) expandable++;
        if (expandable != a.expandableSegmentCount()) {
            fail("expandable segments counted " + a.expandableSegmentCount() + ", held " + expandable);
        }
        // empty_cache looks for whole free blocks in this list: each block once, its flag set
        java.util.Set<Block> noted = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        for (Block b : a.wholeCached()) {
            if (!b.noted) fail("block " + b + " in the list of blocks cached whole, its noted flag unset");
            if (!noted.add(b)) fail("block " + b + " twice in the list of blocks cached whole");
        }
        for (PoolKind k : PoolKind.values()) {
            a.freeSet(k).checkInvariants();      // ordered, keys unchanged since cached
            a.unmappedSet(k).checkInvariants();
            for (Block b : a.freeSet(k)) {
                // lab:shortcut begin
                if (!b.isSplit() && !b.segment.isExpandable() && !noted.contains(b)) {   // the labs edition notes none
                    fail("whole free block " + b + " cached, not noted");
                }
                // lab:shortcut end
                if (b.noted != noted.contains(b)) fail("free block " + b + ": its noted flag disagrees with the list");
            }
            if (a.freeSet(k).size() != freeCount.getOrDefault(k, 0)) fail("stale entries in " + k + " free set");
            if (a.unmappedSet(k).size() != unmappedCount.getOrDefault(k, 0)) fail("stale entries in " + k + " unmapped set");
        }
        if (sumAllocated != a.allocated() || sumRequested != a.requested() || sumReserved != a.reserved() || live != a.liveBlocks()) {
            fail("counters disagree with blocks: allocated " + a.allocated() + " vs " + sumAllocated
                    + ", requested " + a.requested() + " vs " + sumRequested + ", reserved " + a.reserved()
                    + " vs " + sumReserved);
        }
        if (!(a.requested() <= a.allocated() && a.allocated() <= a.reserved())) {
            fail("requested <= allocated <= reserved broken: " + a.requested() + ", " + a.allocated() + ", " + a.reserved());
        }
        if (a.memoryStats().stat("allocated_bytes", "all").current() != a.allocated()
                || a.memoryStats().stat("reserved_bytes", "all").current() != a.reserved()
                || a.memoryStats().stat("allocation", "all").current() != a.liveBlocks()) {
            fail("statistics disagree with the counters: " + a.memoryStats().asMap());
        }
    }

    private void checkBlockSets(Segment s, Block b, Map<PoolKind, Integer> freeCount,
                                Map<PoolKind, Integer> unmappedCount) {
        boolean inFree = a.freeSet(s.pool).contains(b);
        boolean inUnmapped = a.unmappedSet(s.pool).contains(b);
        boolean cachedFree = !b.allocated && b.mapped && b.eventCount == 0;
        if (inFree != cachedFree) fail((cachedFree ? "free block missing from its pool: " : "block in free set: ") + b);
        if (inUnmapped != !b.mapped) fail("unmapped set disagrees about " + b);
        if (!b.mapped && (b.allocated || !s.isExpandable())) fail("unmapped block that is live or not expandable: " + b);
        if (inFree) freeCount.merge(s.pool, 1, Integer::sum);
        if (inUnmapped) unmappedCount.merge(s.pool, 1, Integer::sum);
    }

    /** An expandable segment's pages are mapped exactly under its mapped blocks. */
    private void checkPages(Segment s, long mappedBlocks) {
        ExpandableSegment p = s.pages;
        if (mappedBlocks != p.mappedBytes()) fail("segment " + s.id + ": blocks map " + mappedBlocks + " B, pages " + p.mappedBytes());
        for (Block b = s.first; b != null; b = b.next) {
            if (!b.mapped && (b.offset % p.pageSize() != 0 || b.size % p.pageSize() != 0)) {
                fail("unmapped block not on page boundaries: " + b);
            }
            int first = (int) (b.offset / p.pageSize());
            int last = (int) ((b.offset + b.size - 1) / p.pageSize());
            for (int i = first; i <= last; i++) {
                if (p.isMapped(i) != b.mapped) fail("page " + i + " of segment " + s.id + " disagrees with " + b);
            }
        }
    }

    private void fail(String what) {
        String map;
        try {
            map = SegmentMap.text(a);
        } catch (RuntimeException e) {                 // blocks broken so that no map can be drawn
            map = "(the segment map cannot be drawn: " + e + ")";
        }
        throw new IllegalStateException(what + "\n" + map);
    }
}
