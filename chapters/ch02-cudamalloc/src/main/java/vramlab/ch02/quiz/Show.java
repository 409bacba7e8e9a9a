package vramlab.ch02.quiz;

import vramlab.units.Bytes;

/** Sizes in prompts: the exact bytes for the arithmetic, then a unit a reader takes in at a glance. */
final class Show {
    private Show() {}

    /** What follows an exact byte count: {@code (3 MiB + 1 B)}, {@code (4.89 MiB)}; empty up to 1 MiB. */
    static String about(long bytes) {
        if (bytes <= Bytes.MiB) return "";
        if (bytes % Bytes.MiB == 0) return " (" + bytes / Bytes.MiB + " MiB)";
        long mib = bytes / Bytes.MiB;
        if (bytes % Bytes.MiB < 1024) return " (" + mib + " MiB + " + bytes % Bytes.MiB + " B)";
        return " (" + Bytes.formatSize(bytes) + ")";
    }
}
