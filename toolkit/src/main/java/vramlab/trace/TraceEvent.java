package vramlab.trace;

/**
 * One event of a trace: {@code alloc handle size}, {@code free handle} or {@code empty_cache}.
 *
 * @param line   where it came from (a line of a text trace, an index into a snapshot's trace)
 * @param op     what happens
 * @param handle the caller's name for the allocation; empty for {@code empty_cache}
 * @param size   bytes asked for by {@code alloc}; 0 otherwise
 * @param stream the CUDA stream the event is on (0 in text traces)
 */
public record TraceEvent(long line, Op op, String handle, long size, int stream) {
    public enum Op {
        ALLOC("alloc"), FREE("free"), EMPTY_CACHE("empty_cache");

        private final String word;

        Op(String word) { this.word = word; }

        /** The op as the trace and the CSV write it. */
        public String word() { return word; }
    }

    public static TraceEvent alloc(long line, String handle, long size) {
        return new TraceEvent(line, Op.ALLOC, handle, size, 0);
    }

    public static TraceEvent free(long line, String handle) {
        return new TraceEvent(line, Op.FREE, handle, 0, 0);
    }

    public static TraceEvent emptyCache(long line) {
        return new TraceEvent(line, Op.EMPTY_CACHE, "", 0, 0);
    }
}
