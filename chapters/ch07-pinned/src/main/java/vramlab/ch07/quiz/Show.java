package vramlab.ch07.quiz;

import vramlab.units.Bytes;

/** Sizes and times in prompts: exact bytes for the arithmetic, and a unit read at a glance. */
final class Show {
    private Show() {}

    /** {@code 4 MiB}, {@code 3 MiB + 1 B}, {@code 5123456 B (4.89 MiB)}; small sizes in bytes. */
    static String size(long bytes) {
        if (bytes >= Bytes.MiB && bytes % Bytes.MiB == 0) return bytes / Bytes.MiB + " MiB";
        if (bytes > Bytes.MiB && bytes % Bytes.MiB < 1024) {
            return bytes / Bytes.MiB + " MiB + " + bytes % Bytes.MiB + " B";
        }
        if (bytes > Bytes.MiB) return bytes + " B (" + Bytes.formatSize(bytes) + ")";
        return bytes + " B";
    }

    /** Whole milliseconds, as the prompt's timeline states them. */
    static String ms(long nanos) { return nanos / 1_000_000 + " ms"; }

    /** The next power of two: only to draw a variant's numbers, never to compute a key. */
    static long pow2Ceil(long n) {
        long p = Long.highestOneBit(n);
        return p == n ? n : p * 2;
    }
}
