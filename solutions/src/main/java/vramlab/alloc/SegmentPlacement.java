package vramlab.alloc;

import java.util.Collection;
import java.util.Map;
import java.util.TreeMap;

/**
 * Where a new segment starts: the driver's pointer, or the address a replay of a recorded run
 * expects. PyTorch orders free blocks of one size by address (c10/cuda/CUDACachingAllocator.cpp,
 * 2024 main, {@code BlockComparatorSize}, CCA:746-754), so a replay that gives its segments
 * the recorded addresses (what that run's cudaMalloc or cuMemAddressReserve returned) breaks
 * best-fit ties as the recorded run did. PyTorch itself has no hints: this is the replay's
 * seam, and without a hint a segment takes the driver's pointer, as in PyTorch.
 *
 * <p>Until the first hint, every segment lies where the driver put it, inside a cudaMalloc or
 * a reservation of its own that it holds while it lives, and the driver never hands out a
 * range that overlaps a live one: the driver's pointer is then always the answer, and no index
 * is kept (a trace's replay never gives a hint). The first hint builds the index from the
 * segments held; from then on it follows every segment.
 *
 * <p>Invariant, once indexed: {@code byAddress} holds exactly the allocator's segments, keyed
 * by address, and no two overlap.
 */
final class SegmentPlacement {
    private final Collection<Segment> held;              // the allocator's segments
    private TreeMap<Long, Segment> byAddress;            // null until the first hint
    private long expectedAddress = CachingAllocator.NO_HINT;

    SegmentPlacement(Collection<Segment> held) { this.held = held; }

    /** The next segment takes {@code address} unless it would overlap one held. */
    void expect(long address) { expectedAddress = address; }

    void add(Segment s) {
        if (byAddress != null) byAddress.put(s.address, s);
    }

    void remove(Segment s) {
        if (byAddress != null) byAddress.remove(s.address);
    }

    /** The address of a new segment of {@code size} bytes the driver placed at {@code ptr}; clears the hint. */
    long address(long ptr, long size) {
        long hint = expectedAddress;
        expectedAddress = CachingAllocator.NO_HINT;
        if (hint != CachingAllocator.NO_HINT) {
            if (byAddress == null) index();
            if (isUnused(hint, size)) return hint;
        }
        if (byAddress == null || byAddress.isEmpty() || isUnused(ptr, size)) return ptr;
        Segment top = byAddress.lastEntry().getValue();   // clear of every hinted segment
        return Math.max(ptr, top.address + top.size);
    }

    /** Whether the segments are indexed by address (a hint has been given), for tests. */
    boolean indexed() { return byAddress != null; }

    private void index() {
        byAddress = new TreeMap<>();
        for (Segment s : held) byAddress.put(s.address, s);
    }

    private boolean isUnused(long address, long size) {
        Map.Entry<Long, Segment> below = byAddress.floorEntry(address + size - 1);
        return below == null || below.getValue().address + below.getValue().size <= address;
    }
}
