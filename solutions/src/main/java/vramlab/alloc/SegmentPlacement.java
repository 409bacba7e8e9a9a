package vramlab.alloc;

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
 * <p>Invariant: {@code byAddress} holds exactly the allocator's segments, keyed by address,
 * and no two overlap.
 */
final class SegmentPlacement {
    private final TreeMap<Long, Segment> byAddress = new TreeMap<>();
    private long expectedAddress = CachingAllocator.NO_HINT;

    /** The next segment takes {@code address} unless it would overlap one held. */
    void expect(long address) { expectedAddress = address; }

    void add(Segment s) { byAddress.put(s.address, s); }

    void remove(Segment s) { byAddress.remove(s.address); }

    /** The address of a new segment of {@code size} bytes the driver placed at {@code ptr}; clears the hint. */
    long address(long ptr, long size) {
        long hint = expectedAddress;
        expectedAddress = CachingAllocator.NO_HINT;
        if (hint != CachingAllocator.NO_HINT && isUnused(hint, size)) return hint;
        if (byAddress.isEmpty() || isUnused(ptr, size)) return ptr;
        Segment top = byAddress.lastEntry().getValue();   // clear of every hinted segment
        return Math.max(ptr, top.address + top.size);
    }

    private boolean isUnused(long address, long size) {
        Map.Entry<Long, Segment> below = byAddress.floorEntry(address + size - 1);
        return below == null || below.getValue().address + below.getValue().size <= address;
    }
}
