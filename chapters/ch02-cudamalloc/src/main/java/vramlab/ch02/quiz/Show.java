package vramlab.ch02.quiz;

import vramlab.units.Bytes;

/** Sizes in prompts: the exact bytes for the arithmetic, then a unit a reader takes in at a glance. */
final class Show {
    private Show() {}

    /**
     * What follows an exact byte count: {@code (4 MiB)}, {@code (3 MiB + 1 B)}, {@code (2 MiB - 1 B)},
     * {@code (4.89 MiB)} ({@link Bytes#formatSizeOrOffset}); empty up to 1 MiB.
     */
    static String about(long bytes) {
        if (bytes <= Bytes.MiB) return "";
        if (bytes % Bytes.MiB == 0) return " (" + bytes / Bytes.MiB + " MiB)";
        return " (" + Bytes.formatSizeOrOffset(bytes) + ")";
    }
}
