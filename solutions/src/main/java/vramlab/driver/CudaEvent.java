package vramlab.driver;

/**
 * A CUDA event: a marker recorded into a stream. It completes when the stream's work up to
 * the marker has finished.
 *
 * <p>As in CUDA ({@code cudaEventQuery}), an event never recorded counts as complete.
 * Invariant: once {@link #query()} returns true it stays true (time never goes back).
 */
public final class CudaEvent {
    private final Clock clock;
    private Stream stream;
    private long completesAt;   // absolute time; meaningful only once recorded

    public CudaEvent(Clock clock) { this.clock = clock; }

    /** {@code cudaEventRecord}: completes after everything enqueued on {@code s} so far. */
    public CudaEvent record(Stream s) {
        this.stream = s;
        this.completesAt = s.tail();
        return this;
    }

    public boolean recorded() { return stream != null; }
    public Stream stream() { return stream; }
    public long completesAt() { return completesAt; }

    /** {@code cudaEventQuery}: has the stream reached this event? Never blocks. */
    public boolean query() { return stream == null || clock.now() >= completesAt; }

    /** {@code cudaEventSynchronize}: the host waits until the event completes. */
    public void synchronize() {
        if (stream != null) clock.advanceTo(completesAt);
    }

    @Override public String toString() {
        return stream == null ? "event(unrecorded)"
                : "event(" + stream.name() + " @" + Clock.ms(completesAt) + (query() ? " done)" : ")");
    }
}
