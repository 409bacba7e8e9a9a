package vramlab.ch06.quiz;

import vramlab.units.Bytes;

/** Sizes in prompts: exact bytes for the arithmetic, and the unit they are a whole number of. */
final class Show {
    private Show() {}

    /** {@code 1 B}, {@code 4096 B (4 KiB)}, {@code 2097152 B (2 MiB)}, {@code 5000 B}. */
    static String size(long bytes) {
        String[] names = {"GiB", "MiB", "KiB"};
        long[] units = {Bytes.GiB, Bytes.MiB, Bytes.KiB};
        for (int i = 0; i < units.length; i++) {
            if (bytes >= units[i] && bytes % units[i] == 0) return bytes + " B (" + bytes / units[i] + " " + names[i] + ")";
        }
        return bytes + " B";
    }
}
