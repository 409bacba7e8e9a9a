package vramlab.replay;

import java.io.InputStream;
import java.util.Arrays;
import java.util.Iterator;

import vramlab.alloc.Block;
import vramlab.alloc.CachingAllocator;
import vramlab.alloc.CudaOutOfMemoryError;
import vramlab.driver.CudaException;
import vramlab.trace.Handles;
import vramlab.trace.ReadAhead;
import vramlab.trace.TraceCursor;
import vramlab.trace.TraceEvent;
import vramlab.trace.TraceException;
import vramlab.trace.TraceReader;

/**
 * Replays trace events through a caching allocator, one at a time, and tells a listener what
 * each did. Holds only the live handles (and the handles whose alloc ended in OOM until their
 * free arrives), so it streams traces of any length. Handles are interned to dense ids
 * ({@link Handles}) that index the live table; a text trace read through
 * {@link #replay(TraceCursor)} is looked up without a string per line, and one read through
 * {@link #readAhead} is looked up on the reading thread.
 */
public final class Replayer {
    /** What one event did: {@code ok}, {@code oom} or {@code skipped}. */
    public enum Result {
        OK, OOM, SKIPPED;

        public String word() { return name().toLowerCase(); }
    }

    /** Hears each event after it is applied, with the allocator's state at that moment. */
    public interface Listener {
        void event(long step, TraceEvent e, Result result, long bytes, CachingAllocator a);

        /**
         * The same, for a text trace read on the fast path ({@link #replay(TraceCursor)}): the
         * event's parts, with no event object. By default it makes the object and calls
         * {@link #event(long, TraceEvent, Result, long, CachingAllocator)}; a listener that
         * keeps up with millions of events overrides this too.
         */
        default void event(long step, TraceEvent.Op op, long line, String handle, long size, Result result,
                           long bytes, CachingAllocator a) {
            event(step, new TraceEvent(line, op, handle, size, 0), result, bytes, a);
        }

        /**
         * The same, with the cursor still at the event's line: its handle may be read
         * ({@link TraceCursor#handle()}, or its bytes by {@link TraceCursor#copyHandle}) during
         * this call only. The fast path calls this one. By default it reads the handle as a
         * string, when {@link #readsHandles} says the listener reads it, and calls the method
         * above; a listener that writes a row per event ({@code --csv}) copies the handle's
         * bytes instead and makes no string per event (issue 38).
         */
        default void event(long step, TraceEvent.Op op, long line, TraceCursor cursor, long size, Result result,
                           long bytes, CachingAllocator a) {
            event(step, op, line, readsHandles() ? cursor.handle() : null, size, result, bytes, a);
        }

        default void oom(long step, TraceEvent e, CudaOutOfMemoryError error) {}

        /**
         * The same, on the fast path: the failed alloc's line and size, and the cursor at its
         * line, whose handle ({@link TraceCursor#handle()}, or its bytes by
         * {@link TraceCursor#copyHandle}) may be read during this call only. By default it makes
         * the event object and calls {@link #oom(long, TraceEvent, CudaOutOfMemoryError)}; a
         * listener that prints tens of thousands of OOMs overrides this too.
         */
        default void oom(long step, long line, TraceCursor cursor, long size, CudaOutOfMemoryError error) {
            oom(step, new TraceEvent(line, TraceEvent.Op.ALLOC, cursor.handle(), size, 0), error);
        }

        /**
         * Whether the fast path's {@code event} reads its {@code handle}; one that does not is
         * passed null there, an OOM's event too, and the replay makes no string per event for
         * it (the fast path's {@code oom} still has the cursor at the handle).
         */
        default boolean readsHandles() { return true; }
    }

    /**
     * What {@link #held} holds for a handle whose alloc ended in OOM. A live handle's slot holds
     * its block and an untracked one's null: one array read per event tells the three apart
     * without touching the block (at 100k live handles a second array was a second cache miss).
     */
    private static final Object FAILED = new Object();
    /** What it holds for a live handle whose alloc was of 0 bytes (no block: a null pointer, as before). */
    private static final Object ZERO = new Object();

    private final CachingAllocator allocator;
    private final Listener listener;
    private final String file;
    private final boolean checkInvariants;
    /** The live handles, and those whose alloc ended in OOM until their free arrives, by id. */
    private final Handles handles = new Handles();
    private Object[] held = new Object[64];   // by id: the live block (ZERO for none), FAILED, or null
    private int liveCount;
    private long step;

    public Replayer(CachingAllocator allocator, Listener listener, String file, boolean checkInvariants) {
        this.allocator = allocator;
        this.listener = listener;
        this.file = file;
        this.checkInvariants = checkInvariants;
    }

    public void replay(Iterator<TraceEvent> events) {
        while (events.hasNext()) apply(events.next());
    }

    /**
     * A text trace on the fast path: handles are looked up straight from the reader's buffer,
     * and no object is made per event unless the listener asks for one.
     */
    public void replay(TraceReader reader) { replay((TraceCursor) reader); }   // the cursor, not the iterator

    /**
     * The same, from any cursor: a {@link TraceReader}, or a {@link ReadAhead} from
     * {@link #readAhead}. The cursor tracks the handles in this replay's table
     * ({@link TraceCursor#track}); a handle's name comes from the cursor's line, since a
     * read-ahead's table may already be some events further on.
     */
    public void replay(TraceCursor reader) {
        while (reader.advance()) {
            step++;
            long line = reader.line();
            switch (reader.op()) {
                case ALLOC -> {
                    int id = reader.track(handles);
                    if (isLive(id)) throw stillLive(reader.handle(), line);
                    alloc(id, null, reader, line, reader.size(), 0);
                }
                case FREE -> free(reader.track(handles), null, reader, line, false);
                case EMPTY_CACHE -> emptyCache(null, reader, line);
            }
            if (checkInvariants) allocator.checkInvariants();
        }
    }

    /**
     * A cursor that reads {@code in} (UTF-8; {@code file} names it in errors) a few batches
     * ahead on a second thread and tracks this replay's handles there: give it to
     * {@link #replay(TraceCursor)}, and use this replayer for nothing else until that returns
     * (close the cursor after; on an error the reading thread stops there).
     */
    public ReadAhead readAhead(InputStream in, String file) { return new ReadAhead(in, file, handles); }

    public void apply(TraceEvent e) {
        step++;
        switch (e.op()) {
            case ALLOC -> {
                int id = handles.find(e.handle());
                if (isLive(id)) throw stillLive(e.handle(), e.line());
                alloc(id < 0 ? handles.add(e.handle()) : id, e, null, e.line(), e.size(), e.stream());
            }
            case FREE -> free(handles.find(e.handle()), e, null, e.line(), true);
            case EMPTY_CACHE -> emptyCache(e, null, e.line());
        }
        if (checkInvariants) allocator.checkInvariants();
    }

    /** Whether the handle with this id (-1: not tracked) holds a live block. */
    private boolean isLive(int id) {
        if (id < 0 || id >= held.length) return false;
        Object h = held[id];
        return h != null && h != FAILED;                     // compares references: the block is not read
    }

    /** A tracked handle may be allocated again only if its last alloc ended in OOM. */
    private TraceException stillLive(String handle, long line) {
        return new TraceException(file, line, "alloc of handle '" + handle + "', which is still live");
    }

    /** The event's handle: from its event object, else from the cursor's current line. */
    private static String name(TraceEvent e, TraceCursor cursor) { return e != null ? e.handle() : cursor.handle(); }

    /** {@code e} is the event on the iterator path, else null and {@code cursor} is at its line. */
    private void alloc(int id, TraceEvent e, TraceCursor cursor, long line, long size, int stream) {
        if (id >= held.length) held = Arrays.copyOf(held, Math.max(id + 1, held.length * 2));
        held[id] = null;
        try {
            Block b = allocator.alloc(size, stream);
            held[id] = b != null ? b : ZERO;
            liveCount++;
            tell(e, cursor, TraceEvent.Op.ALLOC, line, size, Result.OK, size);
        } catch (CudaOutOfMemoryError oom) {
            held[id] = FAILED;
            if (e != null) {
                listener.oom(step, e, oom);
            } else {
                listener.oom(step, line, cursor, size, oom);   // no event object, no string (issue 38)
            }
            tell(e, cursor, TraceEvent.Op.ALLOC, line, size, Result.OOM, size);
        } catch (CudaException driver) {
            throw AddressSpaceLimit.explain(driver, allocator, file, line, "");
        }
    }

    /** As for alloc; {@code forget}: the handle leaves the table here (the cursor's track did it already). */
    private void free(int id, TraceEvent e, TraceCursor cursor, long line, boolean forget) {
        Object h = id < 0 ? null : held[id];
        if (id >= 0) untrack(id, forget);
        if (h != null && h != FAILED && h != ZERO) {
            Block b = (Block) h;
            long bytes = b.requested();
            allocator.free(b);
            tell(e, cursor, TraceEvent.Op.FREE, line, 0, Result.OK, bytes);
        } else if (h == FAILED) {
            tell(e, cursor, TraceEvent.Op.FREE, line, 0, Result.SKIPPED, 0);   // its alloc died in OOM
        } else {
            throw new TraceException(file, line, "free of unknown handle '" + name(e, cursor)
                    + "' (never allocated, or already freed)");
        }
    }

    private void untrack(int id, boolean forget) {
        Object h = held[id];
        if (h != null && h != FAILED) liveCount--;
        held[id] = null;
        if (forget) handles.remove(id);
    }

    private void emptyCache(TraceEvent e, TraceCursor cursor, long line) {
        tell(e, cursor, TraceEvent.Op.EMPTY_CACHE, line, 0, Result.OK, allocator.emptyCache());
    }

    /** The listener hears of the event: as its object on the iterator path, else with the cursor at its line. */
    private void tell(TraceEvent e, TraceCursor cursor, TraceEvent.Op op, long line, long size, Result result,
                      long bytes) {
        if (e != null) {
            listener.event(step, e, result, bytes, allocator);
        } else {
            listener.event(step, op, line, cursor, size, result, bytes, allocator);
        }
    }

    public long steps() { return step; }
    public int liveHandles() { return liveCount; }
}
