package vramlab.pinned;

import java.util.LinkedHashMap;
import java.util.Map;

import vramlab.units.Bytes;

/**
 * {@code torch.cuda.host_memory_stats()}: what the pinned allocator owns and what it has
 * handed out. The record's names are the newer generation's; {@link #keys} gives each
 * generation's own, because the C++ struct {@code HostStats} and the Python keys were renamed
 * together (memory.py maps nothing) and the same word means opposite things in the two:
 * <ul>
 *   <li><b>older</b>, CHA.h @0445633 (the first releases with host_memory_stats, early 2025):
 *       {@code allocation} and {@code allocated_bytes} count the blocks CHECKED OUT (not on a
 *       free list), {@code segment} and {@code reserved_bytes} what the allocator OWNS;
 *   <li><b>newer</b>, the CHA.h with {@code allocations} / {@code active_requests} (memory.py
 *       @00b65a0, June 2025, documents these keys): {@code allocations} and
 *       {@code allocated_bytes} are what it OWNS, {@code active_requests} and
 *       {@code active_bytes} what is CHECKED OUT.
 * </ul>
 * In both, {@code num_host_alloc} / {@code num_host_free} count blocks created on the slow
 * path and blocks released (the owned stat's {@code allocated} / {@code freed}).
 */
public record HostStats(long allocations, long allocatedBytes, long allocatedBytesPeak,
                        long activeRequests, long activeBytes,
                        long numHostAlloc, long numHostFree,
                        long hostAllocTimeNanos, long hostFreeTimeNanos) {
    /** The two generations of {@code host_memory_stats()} keys (see the class comment). */
    public enum Generation { OLDER, NEWER }

    /** The {@code .current} values (and the counts) under {@code g}'s key names. */
    public Map<String, Long> keys(Generation g) {
        Map<String, Long> m = new LinkedHashMap<>();
        if (g == Generation.OLDER) {
            m.put("allocation.current", activeRequests);
            m.put("segment.current", allocations);
            m.put("allocated_bytes.current", activeBytes);
            m.put("reserved_bytes.current", allocatedBytes);
        } else {
            m.put("allocations.current", allocations);
            m.put("allocated_bytes.current", allocatedBytes);
            m.put("active_requests.current", activeRequests);
            m.put("active_bytes.current", activeBytes);
        }
        m.put("num_host_alloc", numHostAlloc);
        m.put("num_host_free", numHostFree);
        return m;
    }

    /** What JShell shows: the counters in bytes a reader takes in, with PyTorch's key names. */
    @Override
    public String toString() {
        return "host_memory_stats: allocated (owned) " + Bytes.formatSize(allocatedBytes) + " in " + allocations
                + (allocations == 1 ? " block" : " blocks") + " (peak " + Bytes.formatSize(allocatedBytesPeak)
                + "), active (checked out) " + Bytes.formatSize(activeBytes) + " for " + activeRequests
                + (activeRequests == 1 ? " request" : " requests") + ", cudaHostAlloc x" + numHostAlloc
                + ", cudaFreeHost x" + numHostFree;
    }

    /** One line in the walkthrough's report format: owned, checked out, cudaFreeHost calls. */
    public String line(String label) {
        return String.format("%-20s owned=%5d MiB  checked_out=%5d MiB  cudaFreeHost calls=%d",
                label, allocatedBytes / Bytes.MiB, activeBytes / Bytes.MiB, numHostFree);
    }
}
