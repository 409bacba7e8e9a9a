package vramlab.cli;

import vramlab.units.Bytes;

/**
 * How {@code ./vramlab jshell} shows a {@code long} value, which in this kit is nearly always a
 * size or an address: the number as JShell prints it, then, from 1 TiB up (the simulators'
 * virtual addresses, {@code 0x7f0a...}, are far above any device's size) the address in hex,
 * and above 1 KiB the size in units, as PyTorch's {@code format_size} writes it (a few bytes past
 * a whole unit exactly, {@code 2 MiB + 1 B}, see {@link #units}):
 * <pre>
 * va ==> 139680926400512 (0x7f0a00000000)
 * size ==> 20971520 (20.00 MiB)
 * n ==> 3
 * </pre>
 * A guess from the value alone (a count of 2048 reads as 2.00 KiB too); the number itself is
 * always shown unchanged, and only {@code long} and {@code Long} values are annotated.
 */
final class JshellValues {
    private JshellValues() {}

    /** {@code value} as JShell printed it for a snippet of type {@code typeName}, with its hex or units. */
    static String show(String typeName, String value) {
        if (value == null || !(typeName.equals("long") || typeName.equals("Long") || typeName.equals("java.lang.Long"))) {
            return value;
        }
        long v;
        try {
            v = Long.parseLong(value.strip());
        } catch (NumberFormatException e) {
            return value;
        }
        if (Math.abs(v) >= Bytes.TiB || v == Long.MIN_VALUE) return value + " (" + Bytes.hex(v) + ")";
        if (v > Bytes.KiB) return value + " (" + units(v) + ")";
        if (-v > Bytes.KiB) return value + " (-" + Bytes.formatSize(-v) + ")";
        return value;
    }

    /**
     * A size above 1 KiB in units, PyTorch's two decimals, except where they show a whole number
     * of units the size is not: then exactly, {@code 2 MiB + 1 B} (as {@code check} writes the
     * size), {@code 2 MiB - 1 B}, {@code 1 MiB - 1 B}. A student's off-by-one rounding, 2097153,
     * showed as {@code 2.00 MiB}, the right answer's own figure.
     */
    static String units(long size) {
        String two = Bytes.formatSize(size);
        long unit = size >= Bytes.GiB ? Bytes.GiB : size >= Bytes.MiB ? Bytes.MiB : Bytes.KiB;
        long rest = size % unit;
        if (rest == 0 || !two.contains(".00 ")) return two;
        String name = two.substring(two.indexOf(' ') + 1);
        if (rest < unit / 2) return size / unit + " " + name + " + " + rest + " B";
        long whole = size / unit + 1;
        if (whole == 1024 && unit != Bytes.GiB) return "1 " + (unit == Bytes.KiB ? "MiB" : "GiB") + " - " + (unit - rest) + " B";
        return whole + " " + name + " - " + (unit - rest) + " B";
    }
}
