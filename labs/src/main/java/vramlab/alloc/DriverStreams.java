package vramlab.alloc;

import java.util.HashMap;
import java.util.Map;

import vramlab.driver.CudaEvent;
import vramlab.driver.Stream;

/**
 * Connects the caching allocator's {@code record_stream} events to the driver's streams. Each
 * event the allocator records when a block used on another stream is freed becomes a
 * {@link CudaEvent} recorded on that {@link Stream} ({@code cudaEventRecord} in
 * {@code insert_events}, c10/cuda/CUDACachingAllocator.cpp 2024 main, lines 2993-3010), and
 * "has it completed?" is that event's query ({@code cudaEventQuery} in {@code process_events},
 * lines 3031-3071). So a block comes back to its pool only when the simulated clock has run
 * the other stream past the work queued before the free.
 *
 * <p>Streams are known by their id; 0 is the default stream. Use one {@code Clock} per process
 * for every stream, as the pinned host allocator does.
 */
public final class DriverStreams implements CachingAllocator.EventQuery {
    private final Map<Integer, Stream> streams = new HashMap<>();
    private final Map<Long, CudaEvent> events = new HashMap<>();

    public DriverStreams(Stream... streams) {
        for (Stream s : streams) add(s);
    }

    /** Builds the bridge and sets it as {@code allocator}'s event query. */
    public static DriverStreams connect(CachingAllocator allocator, Stream... streams) {
        DriverStreams d = new DriverStreams(streams);
        allocator.setEventQuery(d);
        return d;
    }

    public DriverStreams add(Stream s) {
        if (streams.putIfAbsent(s.id(), s) != null) {
            throw new IllegalArgumentException("DriverStreams: stream id " + s.id() + " is already " + streams.get(s.id()));
        }
        return this;
    }

    /** Events recorded and not yet seen complete. */
    public int pending() { return events.size(); }

    @Override
    public void recorded(int stream, long seq) {
        Stream s = streams.get(stream);
        if (s == null) {
            throw new IllegalStateException("record_stream named stream " + stream + ", which no driver Stream has");
        }
        events.put(seq, s.recordEvent());
    }

    @Override
    public boolean isComplete(int stream, long seq) {
        CudaEvent e = events.get(seq);
        if (e == null) throw new IllegalStateException("event " + seq + " on stream " + stream + " was never recorded");
        if (!e.query()) return false;
        events.remove(seq);
        return true;
    }
}
