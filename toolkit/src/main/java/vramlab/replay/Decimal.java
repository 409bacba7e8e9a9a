package vramlab.replay;

/**
 * A {@code long} written in decimal straight into a byte buffer, the digits {@link Long#toString(long)}
 * spells, with no string made: the numbers of the summary's OOM lines and of {@code --csv}'s rows,
 * written by the million.
 */
final class Decimal {
    /** The most bytes {@link #write} writes: {@code -9223372036854775808}. */
    static final int MAX = 20;

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
        int digits = 1;
        for (long rest = n / 10; rest > 0; rest /= 10) digits++;
        for (int i = at + digits - 1; i >= at; i--, n /= 10) to[i] = (byte) ('0' + n % 10);
        return at + digits;
    }
}
