package vramlab.replay;

/**
 * A {@code long} written in decimal straight into a byte buffer, the digits {@link Long#toString(long)}
 * spells, with no string made: the numbers of the summary's OOM lines and of {@code --csv}'s rows,
 * written by the million.
 *
 * <p>The digits are worked out in {@code int} arithmetic, nine at a time: the launcher's JIT (C1,
 * {@code -XX:TieredStopAtLevel=1}) divides an {@code int} with the CPU's {@code idiv} but a
 * {@code long} through a call into the JVM's runtime ({@code SharedRuntime::ldiv} and
 * {@code lrem}; HotSpot's {@code cpu/x86/c1_LIRGenerator_x86.cpp},
 * {@code LIRGenerator::do_ArithmeticOp_Long}, JDK 17). A digit
 * by digit loop on the {@code long} made 39 such calls for a 13-digit byte count, a sixth of a
 * {@code --csv} replay's samples in {@code perf} (issue 38); now a number up to
 * {@link Integer#MAX_VALUE} makes none, and a larger one one per nine digits.
 */
final class Decimal {
    /** The most bytes {@link #write} writes: {@code -9223372036854775808}. */
    static final int MAX = 20;

    private static final int BILLION = 1_000_000_000;
    private static final byte[] MIN = Long.toString(Long.MIN_VALUE).getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    private Decimal() {}

    /** Writes {@code n} at {@code to[at]}, which must have room for {@link #MAX} bytes; returns the index past it. */
    static int write(long n, byte[] to, int at) {
        if (n == Long.MIN_VALUE) {                       // the one long whose negation is itself
            System.arraycopy(MIN, 0, to, at, MIN.length);
            return at + MIN.length;
        }
        if (n < 0) {
            to[at++] = '-';
            n = -n;
        }
        return digits(n, to, at);
    }

    /** A non-negative {@code n}: its leading digits, then its last nine, zero-padded, when it is past an int. */
    private static int digits(long n, byte[] to, int at) {
        if (n <= Integer.MAX_VALUE) return digits((int) n, to, at);
        long high = n / BILLION;
        int end = digits(high, to, at);
        return nine((int) (n - high * BILLION), to, end);
    }

    /** A non-negative {@code n} with no leading zeros. */
    private static int digits(int n, byte[] to, int at) {
        int count = 1;
        for (int p = 10; count < 10 && n >= p; p *= 10) count++;    // 10^9 is the last power an int holds
        return spell(n, to, at, count);
    }

    /** {@code n}, below a billion, as exactly nine digits. */
    private static int nine(int n, byte[] to, int at) { return spell(n, to, at, 9); }

    /** The last {@code count} digits of {@code n}, the leading one first. */
    private static int spell(int n, byte[] to, int at, int count) {
        for (int i = at + count - 1; i >= at; i--) {
            int q = n / 10;
            to[i] = (byte) ('0' + (n - 10 * q));
            n = q;
        }
        return at + count;
    }
}
