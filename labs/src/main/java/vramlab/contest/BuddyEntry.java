package vramlab.contest;

import java.util.HashMap;
import java.util.Map;

import vramlab.buddy.BuddyAllocator;
import vramlab.buddy.BuddyOutOfMemoryError;
import vramlab.driver.GpuProcess;

/**
 * Chapter 6's buddy allocator as a contest entry: a pool of blocks of up to {@link #MAX_ORDER}
 * (4 GiB) covering the whole card, VA reserved up front and 2 MiB pages committed on demand
 * through the VMM calls ({@link BuddyAllocator#onDemand}), so a page goes back to the driver as
 * soon as no live block touches it. The smallest block is {@link #ALIGNMENT}, 2^9.
 */
public final class BuddyEntry implements DeviceAllocator {
    /** 2^9 = 512 B, the contest's alignment. */
    public static final int MIN_ORDER = 9;
    /** 2^32 = 4 GiB, the largest block; a card smaller than that gets its largest power of two. */
    public static final int MAX_ORDER = 32;

    private final BuddyAllocator buddy;
    private final Map<Long, Long> sizes = new HashMap<>();

    public BuddyEntry(GpuProcess process) {
        long card = process.cudaMemGetInfo().free();
        int maxOrder = Math.min(MAX_ORDER, 63 - Long.numberOfLeadingZeros(card));
        long pool = card / (1L << maxOrder) * (1L << maxOrder);
        this.buddy = BuddyAllocator.onDemand(process, pool, MIN_ORDER, maxOrder);
    }

    public BuddyAllocator buddy() { return buddy; }

    @Override public String name() { return "buddy"; }

    /** A request over the largest block is out of memory for this entry: no state of the pool could serve it. */
    @Override
    public long alloc(long size, int stream) {
        if (size > 1L << buddy.maxOrder()) {
            throw new BuddyOutOfMemoryError("buddy: " + size + " B is more than the largest block, 2^"
                    + buddy.maxOrder() + " B", size, buddy.maxOrder() + 1);
        }
        long address = buddy.alloc(size);
        sizes.put(address, 1L << buddy.orderFor(size));
        return address;
    }

    @Override
    public void free(long address) {
        buddy.free(address);
        sizes.remove(address);
    }

    @Override public long blockSize(long address) { return sizes.getOrDefault(address, -1L); }

    /** Nothing is cached: a page is unmapped when its last live block goes. */
    @Override public long emptyCache() { return 0; }
}
