package vramlab.ch01.quiz;

import vramlab.units.Bytes;

/** Numbers in prompts: exact bytes for the arithmetic, a unit a reader takes in at a glance. */
final class Show {
    private Show() {}

    /** {@code 30 GiB}, {@code 64 KiB}, {@code 3 MiB + 1 B}, or {@code 5123456 B (4.89 MiB)}. */
    static String size(long bytes) {
        if (bytes >= Bytes.TiB && bytes % Bytes.TiB == 0) return bytes / Bytes.TiB + " TiB";
        if (bytes >= Bytes.GiB && bytes % Bytes.GiB == 0) return bytes / Bytes.GiB + " GiB";
        if (bytes >= Bytes.MiB && bytes % Bytes.MiB == 0) return bytes / Bytes.MiB + " MiB";
        if (bytes > Bytes.MiB && bytes % Bytes.MiB < 1024) {
            return bytes / Bytes.MiB + " MiB + " + bytes % Bytes.MiB + " B";
        }
        if (bytes > Bytes.MiB) return bytes + " B (" + Bytes.formatSize(bytes) + ")";
        if (bytes >= Bytes.KiB && bytes % Bytes.KiB == 0) return bytes / Bytes.KiB + " KiB";
        return bytes + " B";
    }

    /** The size in brackets after a raw byte count, or nothing where it would only repeat it. */
    static String aside(long bytes) {
        String s = size(bytes);
        if (!s.startsWith(bytes + " B")) return " (" + s + ")";
        return bytes > Bytes.KiB ? " (" + Bytes.formatSize(bytes) + ")" : "";
    }

    static String hex(long va) { return "0x" + Long.toHexString(va); }
}
