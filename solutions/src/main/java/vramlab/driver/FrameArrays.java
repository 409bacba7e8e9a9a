package vramlab.driver;

/**
 * The arrays of frame addresses that {@link Gpu#takePages} hands out, kept when they come back
 * so that the next call of the same length reuses one instead of making a new array: a replay
 * makes and frees a segment per event, and each fresh array cost heap that a run which never
 * collects (the launcher's big eden) has the kernel zero page by page (issue 38).
 *
 * <p>At most {@link #PER_LENGTH} arrays are kept per length, lengths 1 to {@link #MAX_LENGTH}
 * only, so what sits here stays small whatever the run. An array given back must not be used
 * by its giver again: {@link #take} hands it to the next caller, with its old contents (every
 * caller overwrites all of it).
 */
final class FrameArrays {
    /** Longest array kept: 128 MiB of 2 MiB pages. Longer ones are made and dropped. */
    static final int MAX_LENGTH = 64;

    /** Arrays kept per length. */
    static final int PER_LENGTH = 64;

    private final long[][][] spare = new long[MAX_LENGTH + 1][][];   // by length, made on first give
    private final int[] count = new int[MAX_LENGTH + 1];

    /** An array of {@code length} longs: one given back before, or a new one. */
    long[] take(int length) {
        if (length <= 0 || length > MAX_LENGTH || count[length] == 0) return new long[length];
        long[][] kept = spare[length];
        long[] a = kept[--count[length]];
        kept[count[length]] = null;
        return a;
    }

    /** Keeps {@code a}, which its giver no longer uses, for a later {@link #take}; or drops it. */
    void give(long[] a) {
        int length = a.length;
        if (length == 0 || length > MAX_LENGTH || count[length] == PER_LENGTH) return;
        if (spare[length] == null) spare[length] = new long[PER_LENGTH][];
        spare[length][count[length]++] = a;
    }

    /** Arrays kept of {@code length} (for the tests). */
    int kept(int length) { return length <= 0 || length > MAX_LENGTH ? 0 : count[length]; }
}
