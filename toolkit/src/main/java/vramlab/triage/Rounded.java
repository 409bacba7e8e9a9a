package vramlab.triage;

import static vramlab.units.Bytes.GiB;
import static vramlab.units.Bytes.KiB;
import static vramlab.units.Bytes.MiB;
import static vramlab.units.Bytes.formatSize;

import vramlab.units.Bytes;

/**
 * A byte count as precise as the message that gave it: a figure PyTorch printed, or a sum or
 * difference of such, with how far the truth may lie from it. PyTorch prints every size in an
 * OOM message through {@code format_size} (c10/cuda/CUDACachingAllocator.cpp, and
 * THCCachingAllocator.cpp before it): up to 1024 bytes as bytes, then KiB up to 1 MiB, MiB up
 * to 1 GiB, else GiB, always with two decimals. So a figure read back lies within half a
 * hundredth of its unit of the truth (0.005 GiB, about 5 MiB, for a GiB figure), and the unit
 * follows from the figure itself (at a boundary, "1024.00 MiB" and "1.00 GiB" read back alike,
 * the larger unit is taken: never less error than there may be). A difference of two GiB
 * figures, "19.82 GiB reserved" minus "19.37 GiB allocated", is 0.45 GiB give or take 0.01 GiB.
 * A snapshot's figures are exact.
 *
 * @param value bytes, as computed from the printed figures
 * @param error the most the truth may lie above or below {@code value}, in bytes (0: exact)
 */
record Rounded(long value, long error) {
    /** A byte count known exactly (a snapshot's, or one not printed at all). */
    static Rounded exact(long bytes) { return new Rounded(bytes, 0); }

    /** A figure read back from {@code format_size}'s two decimals. */
    static Rounded printed(long bytes) { return new Rounded(bytes, halfHundredth(bytes)); }

    /** {@link #printed} unless the family's figures are exact (a snapshot). */
    static Rounded of(long bytes, Family family) {
        return family == Family.SNAPSHOT ? exact(bytes) : printed(bytes);
    }

    /** Half a hundredth of the unit {@code format_size} prints this many bytes in (ceiling). */
    static long halfHundredth(long bytes) {
        long unit = bytes >= GiB ? GiB : bytes >= MiB ? MiB : bytes >= KiB ? KiB : 0;
        return (unit + 199) / 200;
    }

    Rounded plus(Rounded o) { return new Rounded(value + o.value, error + o.error); }

    Rounded minus(Rounded o) { return new Rounded(value - o.value, error + o.error); }

    Rounded minus(long exactBytes) { return new Rounded(value - exactBytes, error); }

    /** The least the truth can be. */
    long low() { return value - error; }

    /** The most the truth can be. */
    long high() { return value + error; }

    /**
     * Whether the truth is at least {@code limit}: {@code TRUE} or {@code FALSE} where every
     * value the rounding allows agrees, {@code null} where the rounding alone could decide it.
     */
    Boolean atLeast(long limit) {
        if (low() >= limit) return Boolean.TRUE;
        if (high() < limit) return Boolean.FALSE;
        return null;
    }

    /**
     * {@code TRUE} where either test surely holds, {@code FALSE} where both surely fail, else
     * {@code null} (the rounding could decide it).
     */
    static Boolean either(Boolean a, Boolean b) {
        if (a == Boolean.TRUE || b == Boolean.TRUE) return Boolean.TRUE;
        return a == Boolean.FALSE && b == Boolean.FALSE ? Boolean.FALSE : null;
    }

    /**
     * Whether this is at least {@code percent}% of {@code whole} (itself rounded): as
     * {@link #atLeast}, the share taken at both ends of what the two roundings allow.
     */
    Boolean atLeastPercent(int percent, Rounded whole) {
        if (low() * 100 >= (long) percent * whole.high()) return Boolean.TRUE;
        if (high() * 100 < (long) percent * Math.max(0, whole.low())) return Boolean.FALSE;
        return null;
    }

    /**
     * The value as a reader should take it: exact or a figure as printed, it is
     * {@code formatSize}'s; computed from several printed figures, it is
     * printed in the coarsest unit its figures were printed in, with the error beside it, so
     * that "19.82 GiB - 19.37 GiB" reads "0.45 GiB ± 0.01 GiB", not "460.80 MiB".
     */
    String text() {
        if (value >= 0 && error <= halfHundredth(value)) return formatSize(value);   // as printed
        long unit = error * 200 > GiB ? GiB : error * 200 > MiB ? MiB : KiB;
        String name = unit == GiB ? " GiB" : unit == MiB ? " MiB" : " KiB";
        StringBuilder sb = new StringBuilder(24);
        if (value < 0) sb.append('-');
        Bytes.hundredths(Math.round(Math.abs(value) * 100.0 / unit), sb).append(name).append(" ± ");
        // the error in whole hundredths, rounded up (a hair's tolerance for the bytes' own rounding)
        long errorHundredths = Math.max(1, (long) Math.ceil(error * 100.0 / unit - 0.01));
        return Bytes.hundredths(errorHundredths, sb).append(name).toString();
    }

    /**
     * The share of {@code whole} as a percentage with one decimal; where the roundings leave a
     * range wider than that, the range, with two decimals (near a line, "2.93% to 3.03%" says
     * what "2.9% to 3.0%" hides).
     */
    String percentOf(Rounded whole) {
        String mid = percent(value, whole.value);
        if (error == 0 && whole.error == 0) return mid;
        long lo = hundredthsOfPercent(Math.max(0, low()), whole.high());
        long hi = hundredthsOfPercent(high(), Math.max(1, whole.low()));
        if (Math.round(lo / 10.0) == Math.round(hi / 10.0)) return mid;
        return Bytes.hundredths(lo, new StringBuilder()).append("% to ")
                .append(Bytes.hundredths(hi, new StringBuilder())).append('%').toString();
    }

    private static long hundredthsOfPercent(long part, long whole) { return Math.round(part * 10000.0 / whole); }

    /** {@code part} as a share of {@code whole} (> 0), one decimal. */
    static String percent(long part, long whole) {
        long tenths = Math.round(part * 1000.0 / whole);
        return (tenths / 10) + "." + (tenths % 10) + "%";
    }
}
