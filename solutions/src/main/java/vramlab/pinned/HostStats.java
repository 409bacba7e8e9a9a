package vramlab.pinned;

import vramlab.units.Bytes;

/**
 * {@code torch.cuda.host_memory_stats()}, the keys the seed's walkthrough reads. Python's
 * {@code allocated_bytes} is what the allocator OWNS (checked out plus cached);
 * {@code active_bytes} is what is CHECKED OUT to callers. (In the C++ {@code HostStats} of
 * CHA.h the owned figure is {@code reserved_bytes}; MEM maps the names.)
 *
 * <p>{@code numHostAlloc} / {@code numHostFree} count blocks created on the slow path and
 * blocks released (CHA.h get_stats: {@code segment.allocated} / {@code segment.freed}).
 */
public record HostStats(long allocations, long allocatedBytes, long allocatedBytesPeak,
                        long activeRequests, long activeBytes,
                        long numHostAlloc, long numHostFree,
                        long hostAllocTimeNanos, long hostFreeTimeNanos) {
    /** One line in the seed's report format. */
    public String line(String label) {
        return String.format("%-20s owned=%5d MiB  checked_out=%5d MiB  cudaFreeHost calls=%d",
                label, allocatedBytes / Bytes.MiB, activeBytes / Bytes.MiB, numHostFree);
    }
}
