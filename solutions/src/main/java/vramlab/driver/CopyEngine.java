package vramlab.driver;

/**
 * How long a copy takes: a fixed launch latency plus bytes over a bandwidth.
 *
 * <p>The default is PCIe 4.0 x16 from pinned memory, about 25 GB/s in practice (order of
 * magnitude; real figures depend on the platform). Toy simplification: every stream copies at
 * the full bandwidth; real GPUs have one or two copy engines per direction that streams share.
 */
public record CopyEngine(long bytesPerSecond, long latencyNanos) {
    /** PCIe 4.0 x16, pinned host memory: ~25 GB/s, ~10 us per copy (order of magnitude). */
    public static final CopyEngine PCIE4 = new CopyEngine(25_000_000_000L, 10_000);

    public CopyEngine {
        if (bytesPerSecond <= 0) throw new IllegalArgumentException("CopyEngine: bandwidth " + bytesPerSecond);
        if (latencyNanos < 0) throw new IllegalArgumentException("CopyEngine: latency " + latencyNanos);
    }

    // tag::copy-time[]
    /** Nanoseconds a copy of {@code bytes} occupies its stream. */
    public long durationNanos(long bytes) {
        // double keeps 100 GB copies from overflowing; Java's double arithmetic is deterministic.
        return latencyNanos + (long) Math.ceil(bytes * 1e9 / bytesPerSecond);
    }
    // end::copy-time[]
}
