package vramlab.ch01.quiz;

import vramlab.units.Bytes;

/** Numbers in prompts: exact bytes for the arithmetic, a unit a reader takes in at a glance. */
final class Show {
    private Show() {}

    /** The size in brackets after a raw byte count, or nothing where it would only repeat it. */
    static String aside(long bytes) {
        String s = Bytes.readable(bytes);
        if (!s.startsWith(bytes + " B")) return " (" + s + ")";
        return bytes > Bytes.KiB ? " (" + Bytes.formatSize(bytes) + ")" : "";
    }

    static String hex(long va) { return "0x" + Long.toHexString(va); }
}
