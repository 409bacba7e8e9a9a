package vramlab.trace;

/**
 * A text trace read one event at a time with no object per line: {@link #advance()}, then the
 * event's parts, its handle looked up in a {@link Handles} table straight from the bytes read.
 * {@link TraceReader} reads on the caller's thread; {@link ReadAhead} reads on a second one.
 */
public interface TraceCursor {
    /** Moves to the next event; false at the end of the trace. Throws the trace's first error when it reaches its line. */
    boolean advance();

    /** The current event's line. */
    long line();

    /** The current event's op. */
    TraceEvent.Op op();

    /** The bytes the current {@code alloc} asks for; 0 for the other ops. */
    long size();

    /** The current event's handle as a string ("" for {@code empty_cache}). */
    String handle();

    /** The current event's handle's id in {@code handles}, or -1 when it is not tracked there. */
    int findHandle(Handles handles);

    /** Tracks the current event's handle in {@code handles} (it must not be there yet). */
    int addHandle(Handles handles);
}
