package vramlab.trace;

/**
 * A text trace read one event at a time with no object per line: {@link #advance()}, then the
 * event's parts, its handle tracked in a {@link Handles} table straight from the bytes read.
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

    /** The length of the current event's handle in bytes, UTF-8 as the trace has them (0 for {@code empty_cache}). */
    int handleLength();

    /**
     * Copies the current event's handle's bytes (UTF-8, as the trace has them; {@link #handle()}
     * decodes the same bytes) into {@code out} at {@code at}, which must have room for
     * {@link #handleLength()} of them; returns their count. A listener that prints a handle
     * copies it with no string made.
     */
    int copyHandle(byte[] out, int at);

    /**
     * The current event's handle's id in {@code handles}, the table of tracked handles, which
     * this call brings up to date. An {@code alloc}'s handle is tracked from then on (a handle
     * not tracked yet gets a new id); a {@code free}'s handle is tracked no longer (its id may go
     * to a later handle), and -1 says it was not tracked; {@code empty_cache} gives -1 and changes
     * nothing. A replay calls this once per event, and keeps whatever else it knows of a handle
     * (live, or its alloc ended in OOM) in its own arrays by id. {@link ReadAhead} does this
     * work on its reading thread, for the table it was made with.
     */
    int track(Handles handles);
}
