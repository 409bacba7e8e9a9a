package vramlab.driver;

import java.util.ArrayList;
import java.util.List;

/**
 * A CUDA stream: an in-order queue of GPU work. Work enqueued at host time {@code t} starts at
 * {@code max(t, tail)} and the stream's tail moves to its end. Streams run concurrently with
 * each other and with the host.
 *
 * <p>While capturing ({@link #beginCapture()}), work is recorded into a {@link CudaGraph}
 * instead of running, as {@code cudaStreamBeginCapture} does.
 *
 * <p>Invariant: {@code tail} never decreases.
 */
public final class Stream {
    private final int id;
    private final String name;
    private final Clock clock;
    private final CopyEngine engine;
    private long tail;
    private List<CudaGraph.Node> capture;   // non-null while capturing

    public Stream(int id, String name, Clock clock, CopyEngine engine) {
        this.id = id;
        this.name = name;
        this.clock = clock;
        this.engine = engine;
    }

    /** The integer id an allocator keys on (PyTorch's stream id; 0 is the default stream). */
    public int id() { return id; }
    public String name() { return name; }
    public Clock clock() { return clock; }
    public CopyEngine engine() { return engine; }

    /** When the last enqueued work finishes (or finished). */
    public long tail() { return tail; }

    public boolean capturing() { return capture != null; }

    /** {@code cudaMemcpyAsync} of all of {@code src} into {@code dst}; returns its end time. */
    public long memcpyAsync(Buffer dst, Buffer src) { return memcpyAsync(dst, src, src.size()); }

    /** {@code cudaMemcpyAsync} of {@code bytes} from {@code src} into {@code dst}. */
    public long memcpyAsync(Buffer dst, Buffer src, long bytes) {
        if (bytes <= 0 || bytes > src.size() || bytes > dst.size()) {
            throw new IllegalArgumentException("memcpyAsync on " + name + ": " + bytes
                    + " bytes do not fit in source " + src.size() + " / destination " + dst.size());
        }
        CudaGraph.Node node = new CudaGraph.Node("copy " + bytes + " B", dst, src, bytes, 0);
        if (capture != null) { capture.add(node); return tail; }
        return run(node);
    }

    /** A kernel that keeps the stream busy for {@code nanos}. */
    public long kernel(String label, long nanos) {
        CudaGraph.Node node = new CudaGraph.Node(label, null, null, 0, nanos);
        if (capture != null) { capture.add(node); return tail; }
        return run(node);
    }

    /**
     * Runs one node. Toy simplification: a copy reads its source and writes its destination at
     * the moment it completes; a real DMA reads while in flight, so anything the host writes
     * before completion may (here: will) be what arrives.
     */
    long run(CudaGraph.Node node) {
        long start = Math.max(clock.now(), tail);
        long duration = node.isCopy() ? engine.durationNanos(node.bytes()) : node.nanos();
        tail = start + duration;
        clock.record(new Clock.Span(name, node.label(), start, tail));
        if (node.isCopy()) {
            Buffer dst = node.dst(), src = node.src();
            clock.schedule(tail, () -> dst.store(src.contents()));
        } else {
            clock.schedule(tail, () -> { });
        }
        return tail;
    }

    /** {@code cudaStreamQuery}: has all enqueued work finished? */
    public boolean query() { return clock.now() >= tail; }

    /** {@code cudaStreamSynchronize}: the host waits for this stream's work. */
    public void synchronize() { clock.advanceTo(tail); }

    /** {@code cudaEventRecord} on this stream, with a fresh event. */
    public CudaEvent recordEvent() { return new CudaEvent(clock).record(this); }

    /** {@code cudaStreamWaitEvent}: later work on this stream starts after {@code e}. */
    public void waitEvent(CudaEvent e) {
        if (e.recorded()) tail = Math.max(tail, e.completesAt());
    }

    public void beginCapture() {
        if (capture != null) throw new IllegalStateException(name + ": already capturing");
        capture = new ArrayList<>();
    }

    public CudaGraph endCapture() {
        if (capture == null) throw new IllegalStateException(name + ": endCapture without beginCapture");
        CudaGraph g = new CudaGraph(capture);
        capture = null;
        return g;
    }

    @Override public String toString() { return name; }
}
