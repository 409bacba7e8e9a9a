package vramlab.units;

/**
 * {@code java.util.Random}'s generator, written out: the same numbers for the same seed as the
 * JDK gives, on the JVM and in the browser. The kit's seeded scenarios use it because TeaVM's
 * class library (0.16.0, {@code TRandom}) ignores its seed argument and draws from
 * {@code Math.random()}, so a seeded scenario compiled to JavaScript would print different
 * numbers on every run.
 *
 * <p>The algorithm is the one {@code java.util.Random}'s Javadoc specifies: a 48-bit linear
 * congruential generator (multiplier {@code 0x5DEECE66D}, addend {@code 0xB}, Knuth vol. 2,
 * 3.2.1); {@code nextLong()} is two 32-bit draws; a bounded long is drawn as
 * {@code jdk.internal.util.random.RandomSupport.boundedNextLong} draws it (JDK 17), which is
 * what {@code Random.longs(n, origin, bound)} uses. {@code SeededRandomTest} checks every
 * method against {@code java.util.Random} itself.
 */
public final class SeededRandom {
    private static final long MULTIPLIER = 0x5DEECE66DL;
    private static final long ADDEND = 0xBL;
    private static final long MASK = (1L << 48) - 1;

    private long seed;

    public SeededRandom(long seed) { this.seed = (seed ^ MULTIPLIER) & MASK; }

    /** The next {@code bits} random bits, as {@code Random.next(bits)}. */
    private int next(int bits) {
        seed = (seed * MULTIPLIER + ADDEND) & MASK;
        return (int) (seed >>> (48 - bits));
    }

    public int nextInt() { return next(32); }

    /** Uniform in {@code [0, bound)}, as {@code Random.nextInt(bound)}. */
    public int nextInt(int bound) {
        if (bound <= 0) throw new IllegalArgumentException("bound must be positive: " + bound);
        int r = next(31);
        int m = bound - 1;
        if ((bound & m) == 0) return (int) ((bound * (long) r) >> 31);
        for (int u = r; u - (r = u % bound) + m < 0; u = next(31)) {
            // reject the values that would make the result non-uniform
        }
        return r;
    }

    public long nextLong() { return ((long) next(32) << 32) + next(32); }

    public boolean nextBoolean() { return next(1) != 0; }

    public double nextDouble() { return (((long) next(26) << 27) + next(27)) * 0x1.0p-53; }

    /** Uniform in {@code [origin, bound)}, as each element of {@code Random.longs(n, origin, bound)}. */
    public long nextLong(long origin, long bound) {
        if (origin >= bound) throw new IllegalArgumentException("origin must be below bound: " + origin + ", " + bound);
        long r = nextLong();
        long n = bound - origin, m = n - 1;
        if ((n & m) == 0L) return (r & m) + origin;
        if (n > 0L) {
            for (long u = r >>> 1; u + m - (r = u % n) < 0L; u = nextLong() >>> 1) {
                // reject, as above
            }
            return r + origin;
        }
        while (r < origin || r >= bound) r = nextLong();
        return r;
    }

    /** {@code n} draws of {@link #nextLong(long, long)}: {@code Random.longs(n, origin, bound).toArray()}. */
    public long[] longs(int n, long origin, long bound) {
        long[] out = new long[n];
        for (int i = 0; i < n; i++) out[i] = nextLong(origin, bound);
        return out;
    }
}
