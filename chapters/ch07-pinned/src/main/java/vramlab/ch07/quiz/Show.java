package vramlab.ch07.quiz;

import vramlab.units.Bytes;

/** Sizes and times in prompts: exact bytes for the arithmetic, and a unit read at a glance. */
final class Show {
    private Show() {}

    /** Whole milliseconds, as the prompt's timeline states them. */
    static String ms(long nanos) { return nanos / 1_000_000 + " ms"; }

    /** The next power of two: only to draw a variant's numbers, never to compute a key. */
    static long pow2Ceil(long n) {
        long p = Long.highestOneBit(n);
        return p == n ? n : p * 2;
    }
}
