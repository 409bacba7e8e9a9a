package vramlab.alloc;

import static vramlab.units.Bytes.formatSize;

import java.util.List;
import java.util.Locale;

/**
 * The allocator's state when an allocation fails: what a policy needs to write its message.
 *
 * @param requested       the caller's unrounded size
 * @param rounded         the size after the policy's rounding
 * @param tried           the segment the allocator tried to get from the driver ("Tried to allocate")
 * @param pool            the pool the request belongs to
 * @param deviceTotal     the device's total memory
 * @param deviceFree      the device's free memory, as cudaMemGetInfo reports it
 * @param allocated       bytes in live blocks
 * @param reserved        bytes in segments
 * @param largestFreeBlock the largest cached free block, in either pool
 * @param device          the device index
 * @param processes       what NVML would list on the device: each process's memory in use
 * @param allowed         the per-process limit ({@code set_per_process_memory_fraction}), or -1
 * @param privatePools    cached bytes in private pools (CUDA graphs; 0: not simulated)
 */
public record OomReport(long requested, long rounded, long tried, PoolKind pool,
                        long deviceTotal, long deviceFree, long allocated, long reserved,
                        long largestFreeBlock, int device,
                        List<PyTorchOomMessage.ProcessUsage> processes, long allowed,
                        long privatePools) {

    /** The toy's report: one device, no process list, no limit, no private pools. */
    public OomReport(long requested, long rounded, long tried, PoolKind pool, long deviceTotal,
                     long deviceFree, long allocated, long reserved, long largestFreeBlock) {
        this(requested, rounded, tried, pool, deviceTotal, deviceFree, allocated, reserved,
                largestFreeBlock, 0, List.of(), -1, 0);
    }

    /** Cached bytes no live block uses: {@code reserved - allocated}. */
    public long reservedButUnallocated() { return reserved - allocated; }

    /** What PyTorch's message reports (CCA:1258-1377). */
    public PyTorchOomMessage.Facts facts() {
        return new PyTorchOomMessage.Facts(tried, device, deviceTotal, deviceFree, processes,
                allowed, allocated, privatePools, reserved);
    }

    /** What JShell shows: the report's figures in {@code format_size}'s units. */
    @Override
    public String toString() {
        return "OOM report: asked " + formatSize(requested) + ", tried "
                + formatSize(tried) + " (" + pool.name().toLowerCase(Locale.ROOT)
                + " pool); device " + formatSize(deviceTotal) + " with "
                + formatSize(deviceFree) + " free; reserved " + formatSize(reserved)
                + ", allocated " + formatSize(allocated) + ", largest free block "
                + formatSize(largestFreeBlock);
    }
}
