package vramlab.trace;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * A text trace read on a second thread, a few batches of events ahead of the replay, so that
 * on a machine with two cores the tokenizing of one batch overlaps the replay of the one
 * before. What the replay sees is exactly what a {@link TraceReader} on its own thread gives:
 * the same events in the same order, and the trace's first error thrown from
 * {@link #advance()} only when the replay reaches that line, after every event before it
 * (so an error the replay itself finds earlier in the trace still comes first).
 *
 * <p>The reading thread also tracks each event's handle ({@link #track}) in the
 * {@link Handles} table the cursor was made with, so the hash lookups (at 100k live handles,
 * a cache miss each) overlap the replay too; that table belongs to the reading thread until
 * the cursor ends, and nothing else may use it before. The handle's own bytes travel with
 * the batch, for {@link #handle()}.
 *
 * <p>The reading thread is a daemon and ends at the trace's end or its first error;
 * {@link #close()} stops it early (a replay that failed). Memory stays bounded: at most
 * {@link #BATCHES} batches of {@link #BATCH} events wait in the queue, and one more is being
 * filled while the queue is full (so {@code BATCHES + 1} are read ahead of a replay that has not
 * asked yet, and {@code BATCHES + 1} batches are ever made, each reused).
 */
public final class ReadAhead implements TraceCursor, AutoCloseable {
    static final int BATCH = 4096;
    static final int BATCHES = 4;

    private static final TraceEvent.Op[] OPS = TraceEvent.Op.values();

    /** Events side by side in arrays, their handles' bytes one after another in {@code text}. */
    private static final class Batch {
        final byte[] ops;
        final long[] lines;
        final long[] sizes;
        final int[] from;
        final int[] to;
        final int[] ids;              // the handle's id from track, on the reading thread
        byte[] text;
        int n;
        int textLength;
        boolean last;                 // nothing follows this batch
        Throwable error;              // what reading the line after the last event threw

        Batch(int capacity) {
            ops = new byte[capacity];
            lines = new long[capacity];
            sizes = new long[capacity];
            from = new int[capacity];
            to = new int[capacity];
            ids = new int[capacity];
            text = new byte[8 * capacity];
        }

        boolean isFull() { return n == ops.length; }

        void add(TraceReader r, Handles handles) {
            int length = r.handleLength();
            if (textLength + length > text.length) text = Arrays.copyOf(text, Math.max(2 * text.length, textLength + length));
            ops[n] = (byte) r.op().ordinal();
            lines[n] = r.line();
            sizes[n] = r.size();
            from[n] = textLength;
            textLength += r.copyHandle(text, textLength);
            to[n] = textLength;
            ids[n] = r.track(handles);
            n++;
        }

        void clear() {
            n = 0;
            textLength = 0;
        }
    }

    private final BlockingQueue<Batch> ready = new ArrayBlockingQueue<>(BATCHES);
    private final BlockingQueue<Batch> spare = new ArrayBlockingQueue<>(BATCHES + 1);
    private final Thread reader;
    private final Handles handles;
    private Batch current = new Batch(0);     // empty, not last: the first advance takes a batch
    private int i = -1;

    /**
     * Starts reading {@code in} (UTF-8) on a second thread, which tracks the handles in
     * {@code handles} (no one else's until this cursor ends); {@code file} names it in errors.
     */
    public ReadAhead(InputStream in, String file, Handles handles) { this(in, file, handles, BATCH); }

    ReadAhead(InputStream in, String file, Handles handles, int batchSize) {
        this.handles = handles;
        for (int k = 0; k <= BATCHES; k++) spare.add(new Batch(batchSize));
        TraceReader trace = new TraceReader(in, file);
        reader = new Thread(() -> read(trace), "vramlab trace reader: " + file);
        reader.setDaemon(true);
        reader.start();
    }

    /** The reading thread: fills batches until the end or the first error, which ends the last batch. */
    private void read(TraceReader trace) {
        Batch b;
        try {
            b = spare.take();
        } catch (InterruptedException closed) {
            return;
        }
        try {
            while (trace.advance()) {
                b.add(trace, handles);
                if (b.isFull()) {
                    ready.put(b);
                    b = spare.take();
                }
            }
        } catch (InterruptedException closed) {
            return;
        } catch (Throwable t) {               // a syntax error, an I/O error: the replay's to throw
            b.error = t;
        }
        b.last = true;
        try {
            ready.put(b);
        } catch (InterruptedException closed) {
            // closed: nobody is waiting for it
        }
    }

    @Override
    public boolean advance() {
        if (++i < current.n) return true;
        while (!current.last) {
            if (current.ops.length > 0) {
                current.clear();
                spare.add(current);
            }
            current = next();
            i = 0;
            if (current.n > 0) return true;
        }
        i = current.n;
        Throwable t = current.error;
        if (t == null) return false;
        if (t instanceof RuntimeException e) throw e;
        if (t instanceof Error e) throw e;
        throw new IllegalStateException(t);
    }

    private Batch next() {
        try {
            return ready.take();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the trace", e);
        }
    }

    @Override
    public long line() { return current.lines[i]; }

    @Override
    public TraceEvent.Op op() { return OPS[current.ops[i]]; }

    @Override
    public long size() { return current.sizes[i]; }

    @Override
    public String handle() {
        return new String(current.text, current.from[i], current.to[i] - current.from[i], StandardCharsets.UTF_8);
    }

    @Override
    public int handleLength() { return current.to[i] - current.from[i]; }

    @Override
    public int copyHandle(byte[] out, int at) {
        int n = current.to[i] - current.from[i];
        System.arraycopy(current.text, current.from[i], out, at, n);
        return n;
    }

    /** The id the reading thread gave: {@code handles} must be the table this cursor was made with. */
    @Override
    public int track(Handles handles) {
        if (handles != this.handles) {
            throw new IllegalArgumentException("this read-ahead tracks the handles of the table it was made with, not another");
        }
        return current.ids[i];
    }

    /** Stops the reading thread (it may still be blocked reading its input, as a daemon). */
    @Override
    public void close() { reader.interrupt(); }

    /** Whether the reading thread is still running (for tests). */
    boolean reading() { return reader.isAlive(); }

    /** Whether the reading thread leaves the JVM free to exit (for tests). */
    boolean daemon() { return reader.isDaemon(); }
}
