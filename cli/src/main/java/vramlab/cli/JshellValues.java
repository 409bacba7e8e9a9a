package vramlab.cli;

import vramlab.units.Bytes;

/**
 * How {@code ./vramlab jshell} shows a {@code long} value, which in this kit is nearly always a
 * size or an address: the number as JShell prints it, then, from 1 TiB up (the simulators'
 * virtual addresses, {@code 0x7f0a...}, are far above any device's size) the address in hex,
 * and above 1 KiB the size in units, as PyTorch's {@code format_size} writes it, except near a
 * whole unit, exactly ({@code 2 MiB + 1 B}, {@code 2 MiB - 1 B}: {@link Bytes#formatSizeOrOffset},
 * the kit's one wording of it):
 * <pre>
 * va ==> 139680926400512 (0x7f0a00000000)
 * size ==> 20971520 (20.00 MiB)
 * gap ==> -2097153 (-(2 MiB + 1 B))
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
        if (v > Bytes.KiB) return value + " (" + Bytes.formatSizeOrOffset(v) + ")";
        if (-v > Bytes.KiB) return value + " (" + negative(Bytes.formatSizeOrOffset(-v)) + ")";
        return value;
    }

    /**
     * Minus {@code size} as written: {@code -2.00 MiB}, and an exact form in brackets,
     * {@code -(2 MiB + 1 B)}, which without them would read as {@code -2 MiB} plus a byte.
     */
    private static String negative(String size) {
        return size.contains(" + ") || size.contains(" - ") ? "-(" + size + ")" : "-" + size;
    }
}
