package vramlab.units;

import java.util.Locale;

/**
 * Byte sizes: constructors, alignment helpers, and the kit's one place for printing and
 * parsing sizes. Every byte count in the kit is a {@code long}.
 *
 * <p>Two printed styles exist because two sources print sizes: the toy policy's chapters print
 * whole mebibytes ({@code 4M}, {@code 20 MiB}), and PyTorch's {@code format_size} prints two
 * decimals ({@code 20.00 MiB}). Where those decimals would show a whole unit the size is not, the
 * kit's own text ({@code ./vramlab jshell}, quiz prompts, check messages, labs) says it exactly,
 * one way everywhere: {@link #formatSizeOrOffset}, {@code 2 MiB - 1 B}.
 */
public final class Bytes {
    public static final long KiB = 1L << 10;
    public static final long MiB = 1L << 20;
    public static final long GiB = 1L << 30;
    public static final long TiB = 1L << 40;

    private Bytes() {}

    public static long kib(long n) { return n * KiB; }
    public static long mib(long n) { return n * MiB; }
    public static long gib(long n) { return n * GiB; }

    /** The smallest multiple of {@code alignment} that is at least {@code n}. */
    public static long alignUp(long n, long alignment) {
        return (n + alignment - 1) / alignment * alignment;
    }

    public static boolean isAligned(long n, long alignment) { return n % alignment == 0; }

    public static boolean isPowerOfTwo(long n) { return n > 0 && (n & (n - 1)) == 0; }

    /** An address as the notes print it: {@code 0x7f0a00200000}. */
    public static String hex(long address) { return "0x" + Long.toHexString(address); }

    /** The toy's style: whole MiB with an {@code M} suffix, truncated ({@code 4M}). */
    public static String toyM(long bytes) { return bytes / MiB + "M"; }

    /**
     * The toy's message style: whole MiB, truncated ({@code 20 MiB}). The text of recently
     * printed values is kept ({@link #TOY_MIB}): a replay that OOMs tens of thousands of times
     * prints the same few sizes in every message, and made a builder and two strings for each.
     */
    public static String toyMiB(long bytes) {
        long mib = bytes / MiB;
        int slot = (int) (mib & (TOY_MIB.length - 1));
        MiBText cached = TOY_MIB[slot];
        if (cached != null && cached.mib == mib) return cached.text;
        MiBText made = new MiBText(mib, mib + " MiB");
        TOY_MIB[slot] = made;
        return made.text;
    }

    /**
     * {@link #toyMiB}'s cache: the text of whole mebibytes, a slot per value modulo its length.
     * Entries are immutable (final fields), so threads may share the array without a lock: one
     * reads either a whole entry or null, and a lost write only costs a rebuild.
     */
    private static final MiBText[] TOY_MIB = new MiBText[1024];

    private record MiBText(long mib, String text) {}

    /**
     * PyTorch's {@code format_size} (c10/cuda/CUDACachingAllocator.cpp @001074d, just after
     * {@code namespace Native} closes, near the file's end): up to 1024 bytes as bytes, then KiB up to 1 MiB, MiB up to 1 GiB,
     * else GiB, with two decimals. The C++ prints the double with {@code std::fixed} and
     * {@code precision(2)}, which rounds its exact binary value and a tie to even (as glibc's
     * printf does): 20 MiB + 128 KiB is 20.125 MiB exactly and prints {@code 20.12 MiB}, where
     * Java's {@code %.2f} would print 20.13.
     */
    public static String formatSize(long size) { return formatSize(size, new StringBuilder(16)).toString(); }

    /**
     * {@link #formatSize(long)} appended to {@code to}, which it returns: for a caller that
     * prints many sizes into one reused buffer (a replay's OOM lines) and makes no string each.
     */
    public static StringBuilder formatSize(long size, StringBuilder to) {
        if (size <= 1024) return to.append(size).append(" bytes");
        if (size <= MiB) return twoDecimals(size, 10, to).append(" KiB");
        if (size <= GiB) return twoDecimals(size, 20, to).append(" MiB");
        return twoDecimals(size, 30, to).append(" GiB");
    }

    /**
     * {@code std::fixed << setprecision(2)} of the double {@code size / 2^shift}: its exact
     * value, ties to even. Below 2^53 bytes that double is the exact quotient, so whole
     * hundredths and the remainder decide, in {@code long}s (a {@code BigDecimal} per size cost
     * a replay that prints an OOM line every dozen events a twentieth of its time); beyond,
     * the double's own value, as the C++ has it.
     */
    private static StringBuilder twoDecimals(long size, int shift, StringBuilder to) {
        return hundredths(roundedHundredths(size, shift), to);
    }

    /** {@link #twoDecimals}'s rounding: {@code size / 2^shift} in hundredths, as the C++ prints it. */
    private static long roundedHundredths(long size, int shift) {
        if (size >= 1L << 53) {
            return new java.math.BigDecimal(size / (double) (1L << shift))
                    .setScale(2, java.math.RoundingMode.HALF_EVEN).unscaledValue().longValueExact();
        }
        long scaled = size * 100;                       // < 2^60: no overflow
        long hundredths = scaled >>> shift;
        long rest = scaled & ((1L << shift) - 1);
        long half = 1L << (shift - 1);
        if (rest > half || rest == half && (hundredths & 1) == 1) hundredths++;
        return hundredths;
    }

    /**
     * A size in units that never reads as a round figure it is not: PyTorch's two decimals
     * ({@link #formatSize}, {@code format_size} in c10/cuda/CUDACachingAllocator.cpp @001074d)
     * wherever they are exact or show a fraction ({@code 20.00 MiB}, {@code 292.97 KiB},
     * {@code 20.13 MiB}, {@code 1024 bytes}); but near a whole unit, the whole unit and the
     * bytes off it, exactly:
     * <ul>
     * <li>where the two decimals would read as a whole number of units the size is not (2097151
     *     and 2097153 are both {@code 2.00 MiB} there): {@code 2 MiB - 1 B}, {@code 2 MiB + 1 B},
     *     {@code 1 GiB + 512 B}; at the GiB scale a size a MiB or more from that whole GiB is put
     *     beside its nearest whole MiB instead ({@code 1029 MiB + 1 B}, and {@code 1029 MiB}
     *     where format_size writes {@code 1.00 GiB});</li>
     * <li>above 1 MiB, a size less than 1 KiB from a whole MiB ({@code 1536 MiB + 1 B}, where
     *     format_size writes {@code 1.50 GiB}, 1536 MiB's own figure).</li>
     * </ul>
     * The whole is named in the largest unit it is a whole number of: {@code 1 MiB - 1 B} where
     * format_size writes {@code 1024.00 KiB}, {@code 1 TiB + 1 B}. A student's off-by-one
     * ({@code 2097153}) thus never shows as the right answer's own figure. {@code ./vramlab
     * jshell} shows a long this way, and {@link #readable} writes a size near a whole unit so.
     *
     * <p>Not the rule of torch/cuda/memory.py's {@code _format_size} (memory_summary's own, read
     * @00b65a0): that one floors to whole units, picking the unit at 768 of them, for a table.
     */
    public static String formatSizeOrOffset(long size) {
        String near = nearWholeUnit(size);
        return near != null ? near : formatSize(size);
    }

    /** {@link #formatSizeOrOffset}'s exact form ({@code 2 MiB - 1 B}), or null where it prints format_size's own. */
    private static String nearWholeUnit(long size) {
        if (size <= 1024) return null;                                // format_size writes bytes
        int shift = size <= MiB ? 10 : size <= GiB ? 20 : 30;        // format_size's unit
        long hundredths = roundedHundredths(size, shift);
        boolean readsWhole = hundredths % 100 == 0;
        long whole = hundredths / 100;
        long off = size - (whole << shift);    // past Long.MAX_VALUE the product wraps, and the difference is still exact
        if (readsWhole && off == 0) return null;                      // exactly what it shows
        if (readsWhole && Math.abs(off) < MiB) return named(whole, shift) + offset(off);
        if (size <= MiB) return null;
        long mib = size / MiB + (size % MiB >= MiB / 2 ? 1 : 0);       // the nearest whole MiB
        off = size - (mib << 20);
        if (readsWhole || off != 0 && Math.abs(off) < KiB) return named(mib, 20) + offset(off);
        return null;
    }

    /** {@code count} units of {@code 2^shift} bytes in the largest unit that keeps it whole: {@code 1 MiB}, not {@code 1024 KiB}. */
    private static String named(long count, int shift) {
        String[] names = {"KiB", "MiB", "GiB", "TiB"};
        int unit = shift / 10 - 1;
        while (unit < names.length - 1 && count % 1024 == 0) {
            count /= 1024;
            unit++;
        }
        return count + " " + names[unit];
    }

    private static String offset(long off) {
        return off == 0 ? "" : off > 0 ? " + " + off + " B" : " - " + -off + " B";
    }

    /**
     * A count of hundredths, 0 or more, with two decimals ({@code 307} as {@code 3.07}), appended
     * to {@code to}: the digits {@link #formatSize} prints once it has rounded, for a caller that
     * rounds by a rule of its own.
     */
    public static StringBuilder hundredths(long hundredths, StringBuilder to) {
        long cents = hundredths % 100;
        return to.append(hundredths / 100).append(cents < 10 ? ".0" : ".").append(cents);
    }

    /**
     * {@code bytes} (0 or more) in TiB with two decimals, rounded down ({@code 3.11 TiB}): for a
     * limit that {@code --device} should take as printed, where {@link #formatSize}'s rounding to
     * the nearest could print a card just past it (and it stops at GiB). Exact for every long:
     * the whole TiB and the rest are scaled apart, so nothing overflows.
     */
    public static String formatTiBDown(long bytes) {
        long hundredths = bytes / TiB * 100 + bytes % TiB * 100 / TiB;
        return hundredths(hundredths, new StringBuilder(24)).append(" TiB").toString();
    }

    /**
     * A size as a quiz prompt or a lab states it, exact and easy to take in: {@code 30 GiB},
     * {@code 4 MiB}, {@code 64 KiB}; near a whole unit as {@link #formatSizeOrOffset} writes it,
     * {@code 3 MiB + 1 B}, {@code 2 MiB - 1 B}; else above 1 MiB the bytes and format_size's
     * figure, {@code 5123456 B (4.89 MiB)}, and up to 1 MiB the bytes, {@code 100 B}.
     */
    public static String readable(long bytes) {
        if (bytes >= TiB && bytes % TiB == 0) return bytes / TiB + " TiB";
        if (bytes >= GiB && bytes % GiB == 0) return bytes / GiB + " GiB";
        if (bytes >= MiB && bytes % MiB == 0) return bytes / MiB + " MiB";
        String near = nearWholeUnit(bytes);
        if (near != null) return near;
        if (bytes > MiB) return bytes + " B (" + formatSize(bytes) + ")";
        if (bytes >= KiB && bytes % KiB == 0) return bytes / KiB + " KiB";
        return bytes + " B";
    }

    /**
     * Parses a size as users write it in traces and options: a whole number of bytes
     * ({@code 4096}), or a number with a unit ({@code 512B 4KiB 3MiB 1.5GiB 80GiB 2TiB}).
     * {@code KB/MB/GB} and {@code K/M/G} are read as binary units too, as PyTorch does.
     * Fractions are rounded to the nearest byte.
     *
     * @throws IllegalArgumentException naming the text and what was expected
     */
    public static long parse(String text) {
        String t = text.trim();
        int i = numberEnd(t);
        String number = t.substring(0, i);
        long scale = unitScale(t.substring(i));
        if (number.isEmpty() || scale < 0 || number.chars().filter(c -> c == '.').count() > 1) {
            throw new IllegalArgumentException("bad size '" + text
                    + "': expected bytes or a number with a unit (512B, 4KiB, 3MiB, 1.5GiB)");
        }
        if (!number.contains(".")) {
            long n = Long.parseLong(number);
            if (n > Long.MAX_VALUE / scale) throw new IllegalArgumentException("size too large: " + text);
            return n * scale;
        }
        java.math.BigDecimal exact = new java.math.BigDecimal(number)
                .multiply(java.math.BigDecimal.valueOf(scale));
        return exact.setScale(0, java.math.RoundingMode.HALF_UP).longValueExact();
    }

    /**
     * Whether {@code text} is a fraction of a byte: a number with a fraction and no unit, or in
     * bytes ({@code 1.5}, {@code 2.5B}, {@code .5bytes}), which {@link #parse} would round to a
     * whole byte where a unit was most likely forgotten. {@code 5.} and {@code 2.0} are whole; a
     * fraction of a larger unit ({@code 1.5GiB}) is not this, and {@code parse} rounds it to the
     * nearest byte.
     */
    public static boolean isFractionOfAByte(String text) {
        String t = text.trim();
        int i = numberEnd(t);
        String number = t.substring(0, i);
        if (!number.contains(".") || unitScale(t.substring(i)) != 1) return false;
        try {
            return new java.math.BigDecimal(number).stripTrailingZeros().scale() > 0;
        } catch (NumberFormatException e) {
            return false;                                             // 1..5: parse refuses it
        }
    }

    /** Where a size's number ends: after its leading digits and dots ({@link #parse}'s split). */
    private static int numberEnd(String t) {
        int i = 0;
        while (i < t.length() && (Character.isDigit(t.charAt(i)) || t.charAt(i) == '.')) i++;
        return i;
    }

    /** The bytes in one of {@code unit} (what follows the number, any case), 1 for none; -1 when it is no unit. */
    private static long unitScale(String unit) {
        return switch (unit.trim().toLowerCase(Locale.ROOT)) {
            case "", "b", "bytes" -> 1;
            case "k", "kb", "kib" -> KiB;
            case "m", "mb", "mib" -> MiB;
            case "g", "gb", "gib" -> GiB;
            case "t", "tb", "tib" -> TiB;
            default -> -1;
        };
    }

    /**
     * A size where a unit is required, {@link #parse}'s rules otherwise: an option or a form
     * field that names a card or a limit ({@code replay --device 80GiB}, the playground's card).
     * A trace's sizes may be bare bytes ({@code alloc a 4096}); these may not: {@code 24} there
     * is a unit forgotten, not 24 bytes ({@code 24B} says that, if meant). Whether there is a
     * unit is {@link #parse}'s own split: anything after the leading digits and dots.
     *
     * @return the bytes, more than 0; or -1 when {@code text} is a bare number, not a size, 0,
     *         or too large for a long (each caller says so in its own words)
     */
    public static long parseWithUnit(String text) {
        if (text.trim().chars().allMatch(c -> Character.isDigit(c) || c == '.')) return -1;
        try {
            long n = parse(text);
            return n > 0 ? n : -1;
        } catch (IllegalArgumentException | ArithmeticException e) {
            return -1;
        }
    }
}
