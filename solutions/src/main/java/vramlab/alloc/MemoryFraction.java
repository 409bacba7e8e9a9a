package vramlab.alloc;

import vramlab.driver.GpuProcess;

/**
 * The per-process limit, {@code set_per_process_memory_fraction}
 * (c10/cuda/CUDACachingAllocator.cpp, {@code DeviceCachingAllocator::setMemoryFraction} at
 * pytorch/pytorch@001074d): the allocator may hold at most {@code fraction} of the device's
 * total memory ({@code allowed_memory_maximum}). {@code alloc_block} refuses a segment that
 * would pass it, garbage collection measures its threshold against it, and the OOM message
 * says "allowed". What 1.0 means is the release's ({@link PyTorchRelease}): at @001074d, and
 * in the kit's 2.9, a limit of the whole device, so garbage collection can run; in 2.10 (the
 * allocator as PR #161035 left it, with {@code std::optional<size_t> allowed_memory_maximum})
 * no limit at all: it is set only when {@code fraction < 1.0}.
 */
final class MemoryFraction {
    private final GpuProcess process;
    private final boolean wholeCardIsNoLimit;
    private long allowedMemoryMaximum = -1;   // -1: not set

    MemoryFraction(GpuProcess process, boolean wholeCardIsNoLimit) {
        this.process = process;
        this.wholeCardIsNoLimit = wholeCardIsNoLimit;
    }

    void set(double fraction) {
        if (!(fraction >= 0 && fraction <= 1)) {
            throw new IllegalArgumentException("invalid fraction:" + fraction + ". Please set within [0, 1].");
        }
        allowedMemoryMaximum = wholeCardIsNoLimit && fraction >= 1.0 ? -1
                : (long) (fraction * process.cudaMemGetInfo().total());
    }

    /** {@code get_per_process_memory_fraction}: the limit over the total, 1.0 when none is set. */
    double get() {
        return allowedMemoryMaximum < 0 ? 1.0 : (double) allowedMemoryMaximum / process.cudaMemGetInfo().total();
    }

    /** The limit in bytes, or -1 when no fraction is set. */
    long allowedMemoryMaximum() { return allowedMemoryMaximum; }

    /** {@code alloc_block}'s test: holding {@code reserved} bytes would pass the limit. */
    boolean refuses(long reserved) { return allowedMemoryMaximum >= 0 && reserved > allowedMemoryMaximum; }
}
