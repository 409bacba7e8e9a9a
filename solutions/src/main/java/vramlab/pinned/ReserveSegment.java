package vramlab.pinned;

import vramlab.driver.HostBuffer;
import vramlab.driver.HostMemory;
import vramlab.units.Bytes;

/**
 * {@code pinned_reserve_segment_size_mb}: one slab pinned at first use, carved front to back
 * with a bump pointer in 4 KiB steps (aten/src/ATen/cuda/CachingHostAllocator.cpp
 * @03258ab, {@code PinnedReserveSegment}). The slab is never freed, and the pointer never moves back.
 *
 * <p>Invariant: {@code 0 <= used <= slab.size()} and {@code used} is 4 KiB aligned.
 */
final class ReserveSegment {
    private final HostBuffer slab;
    private long used;

    ReserveSegment(HostBuffer slab) { this.slab = slab; }

    /** The carved block's address, or -1 when the slab has no room left. */
    long carve(long size) {
        long step = Bytes.alignUp(size, HostMemory.PAGE);
        if (used + step > slab.size()) return -1;
        long address = slab.address() + used;
        used += step;
        return address;
    }

    HostBuffer slab() { return slab; }
    long used() { return used; }
}
