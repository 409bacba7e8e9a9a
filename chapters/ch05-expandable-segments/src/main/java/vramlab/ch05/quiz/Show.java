package vramlab.ch05.quiz;

import vramlab.units.Bytes;

/** Sizes in prompts: exact bytes for the arithmetic, and a unit a reader takes in at a glance. */
final class Show {
    private Show() {}

    /** {@code 25 MiB}, {@code 3 MiB + 1 B}, {@code 5123456 B (4.89 MiB)}; small sizes in bytes. */
    static String size(long bytes) {
        if (bytes >= Bytes.MiB && bytes % Bytes.MiB == 0) return bytes / Bytes.MiB + " MiB";
        if (bytes > Bytes.MiB && bytes % Bytes.MiB < 1024) {
            return bytes / Bytes.MiB + " MiB + " + bytes % Bytes.MiB + " B";
        }
        if (bytes > Bytes.MiB) return bytes + " B (" + Bytes.formatSize(bytes) + ")";
        return bytes + " B";
    }
}
