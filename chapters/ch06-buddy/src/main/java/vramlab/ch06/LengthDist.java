package vramlab.ch06;

import java.util.Random;

/** A distribution of token counts (prompt or output lengths), sampled with the workload's seed. */
public interface LengthDist {
    long sample(Random rnd);

    String describe();

    /** Always {@code n}. */
    static LengthDist fixed(long n) {
        positive(n, n);
        return new LengthDist() {
            public long sample(Random rnd) { return n; }
            public String describe() { return "fixed " + n; }
        };
    }

    /** Uniform on the integers {@code lo..hi}. */
    static LengthDist uniform(long lo, long hi) {
        positive(lo, hi);
        return new LengthDist() {
            public long sample(Random rnd) { return lo + (long) (rnd.nextDouble() * (hi - lo + 1)); }
            public String describe() { return "uniform " + lo + ".." + hi; }
        };
    }

    /** Log-uniform on {@code lo..hi}: as many short as long requests per doubling. */
    static LengthDist logUniform(long lo, long hi) {
        positive(lo, hi);
        return new LengthDist() {
            public long sample(Random rnd) {
                double x = Math.exp(Math.log(lo) + rnd.nextDouble() * (Math.log(hi + 1.0) - Math.log(lo)));
                return Math.min(hi, Math.max(lo, (long) x));
            }
            public String describe() { return "log-uniform " + lo + ".." + hi; }
        };
    }

    private static void positive(long lo, long hi) {
        if (lo <= 0 || hi < lo) throw new IllegalArgumentException("lengths need 0 < lo <= hi, got " + lo + ".." + hi);
    }
}
