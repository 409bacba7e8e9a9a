package vramlab.driver;

import vramlab.units.Bytes;

/**
 * What pinning and unpinning cost the host thread: a fixed part plus a part per MiB (the
 * driver locks and maps every page).
 *
 * <p>ORDER OF MAGNITUDE ONLY, not a measurement: chapter 7 takes a {@code cudaHostAlloc} to cost
 * milliseconds, and it grows with size; real figures depend on the OS, page size, NUMA
 * placement, the driver and whether the pages were already touched. Use it to compare
 * strategies (pay once vs pay every step), never to predict a machine.
 */
public record HostCostModel(long allocBaseNanos, long allocNanosPerMiB,
                            long freeBaseNanos, long freeNanosPerMiB) {
    // tag::cost[]
    /** cudaHostAlloc ~1 ms + ~0.1 ms/MiB; cudaFreeHost ~0.5 ms + ~0.02 ms/MiB (order of magnitude). */
    public static final HostCostModel DEFAULT = new HostCostModel(1_000_000, 100_000, 500_000, 20_000);
    // end::cost[]

    /** Nanoseconds for {@code cudaHostAlloc} or {@code cudaHostRegister} of {@code bytes}. */
    public long pinNanos(long bytes) { return allocBaseNanos + perMiB(bytes, allocNanosPerMiB); }

    /** Nanoseconds for {@code cudaFreeHost} or {@code cudaHostUnregister} of {@code bytes}. */
    public long unpinNanos(long bytes) { return freeBaseNanos + perMiB(bytes, freeNanosPerMiB); }

    private static long perMiB(long bytes, long nanosPerMiB) {
        return bytes / Bytes.MiB * nanosPerMiB + bytes % Bytes.MiB * nanosPerMiB / Bytes.MiB;
    }
}
