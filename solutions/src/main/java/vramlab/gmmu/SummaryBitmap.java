package vramlab.gmmu;

import java.util.BitSet;

/**
 * One concept: a bitmap that finds the next set or clear bit in a few word reads, whatever the
 * distance, because it keeps summaries of itself. The {@link PhysicalPool} marks used frames and
 * busy granules in two of these.
 *
 * <p>It has the shape of the address tree that RM's physical memory allocator could keep its
 * frames in (NVIDIA/open-gpu-kernel-modules up to 545.29.06, src/nvidia/src/kernel/gpu/mem_mgr/
 * phys_mem_allocator/addrtree.c, deleted in 550.40.07; {@code pmaInitialize} in
 * phys_mem_allocator.c picked it under {@code PMA_INIT_ADDRTREE}, its default being the flat
 * region map of regmap.c, the only map from 550.40.07 on): levels of 64-bit nodes, each bit
 * summing up one child, so a search climbs to the first summary word that holds an answer and
 * comes down one word a level. Simplification: the kit's levels are 64 times finer each; the
 * address tree's track 2 TiB, 32 GiB, 512 MiB, 128 MiB, 2 MiB and 64 KiB ({@code pmaAddrtreeInit}'s
 * {@code levelSizes}). And the kit keeps two summaries per level, "some bit below is set" and
 * "every bit below is set", where the address tree keeps a state and a see-the-children mask per
 * allocation state.
 *
 * <pre>
 *   level 2            [ any | full ]                 one bit per level-1 word
 *   level 1     [ any | full ] [ any | full ] ...     one bit per bitmap word
 *   bitmap     [64 bits][64 bits][64 bits] ...
 * </pre>
 *
 * <p>Cost: {@link #nextSetBit} and {@link #nextClearBit} read at most two words a level,
 * {@code 2 * levels()}, with {@code levels() = ceil(log64(size))} (4 both for the 2 MiB
 * granules and for the 16 Mi frames of a 1 TiB card); {@code set} and {@code clear} of a range touch its words
 * and then one summary word a level. A plain bitmap reads every word between the start and the
 * answer, up to {@code size / 64}.
 *
 * <p>Invariants: bit {@code i} of {@code any[1]} is set exactly when word {@code i} of the bitmap
 * is not 0, of {@code full[1]} exactly when it is all ones; bit {@code i} of {@code any[l]} and
 * {@code full[l]} ({@code l > 1}) likewise for word {@code i} of {@code any[l - 1]} and
 * {@code full[l - 1]}; no bit at or past {@code size} is set.
 */
final class SummaryBitmap {
    private final int size;
    private final long[] words;
    // package-private so that tests can break the books on purpose, as a bug would
    final long[][] any;              // any[l]: bit i = word i one level down is not 0 (l >= 1)
    final long[][] full;             // full[l]: bit i = word i one level down is all ones
    /** Words read by searches so far: what the tests hold to 2 levels a search. */
    long steps;

    SummaryBitmap(int size) {
        if (size < 0) throw new IllegalArgumentException("SummaryBitmap: size " + size);
        this.size = size;
        this.words = new long[Math.max(1, wordsFor(size))];
        int levels = 1;
        for (int n = words.length; n > 1; n = wordsFor(n)) levels++;
        this.any = new long[levels][];
        this.full = new long[levels][];
        for (int l = 1, n = words.length; l < levels; l++) {
            n = wordsFor(n);
            any[l] = new long[n];
            full[l] = new long[n];
        }
    }

    int size() { return size; }

    /** Levels, the bitmap included: a search reads at most two words in each. */
    int levels() { return any.length; }

    /** Sets bits {@code [from, to)}. */
    void set(int from, int to) { change(from, to, true); }

    /** Clears bits {@code [from, to)}. */
    void clear(int from, int to) { change(from, to, false); }

    /** Whether bit {@code i} is set. */
    boolean get(int i) {
        if (i < 0 || i >= size) throw new IndexOutOfBoundsException("get(" + i + ") in a bitmap of " + size);
        return (words[i >>> 6] >>> i & 1) != 0;
    }

    /** The first set bit at or after {@code from}; -1 when none is. */
    int nextSetBit(int from) {
        if (from < 0) throw new IndexOutOfBoundsException("nextSetBit(" + from + ")");
        int i = next(from, true);
        return i < size ? i : -1;
    }

    /** The first clear bit at or after {@code from}; {@code size} when none is below it. */
    int nextClearBit(int from) {
        if (from < 0) throw new IndexOutOfBoundsException("nextClearBit(" + from + ")");
        return Math.min(next(from, false), Math.max(from, size));
    }

    /**
     * The first bit at or after {@code from} that is {@code set}, or one at or past {@code size}.
     * Climbs while the word it reads holds no candidate at or after its position, then comes down
     * the first candidate's children, one word a level.
     */
    private int next(int from, boolean set) {
        int i = from;                    // a bit of level l: word i of level l - 1, or a bit
        int l = 0;
        while (true) {                   // climb
            int k = i >>> 6;
            if (k >= length(l)) return Integer.MAX_VALUE;
            long m = candidates(l, k, set) & -1L << (i & 63);
            steps++;
            if (m != 0) {
                i = (k << 6) + Long.numberOfTrailingZeros(m);
                break;
            }
            if (l == any.length - 1) return Integer.MAX_VALUE;
            i = k + 1;
            l++;
        }
        while (l > 0) {                  // come down
            l--;
            if (i >= length(l)) return Integer.MAX_VALUE;   // a child past the end: none
            steps++;
            i = (i << 6) + Long.numberOfTrailingZeros(candidates(l, i, set));
        }
        return i;
    }

    /** Word {@code k} of level {@code l}, as the bits that may lead to a {@code set} (or clear) bit. */
    private long candidates(int l, int k, boolean set) {
        if (l == 0) return set ? words[k] : ~words[k];
        return set ? any[l][k] : ~full[l][k];
    }

    private int length(int l) { return l == 0 ? words.length : any[l].length; }

    private void change(int from, int to, boolean set) {
        if (from < 0 || to > size || from > to) {
            throw new IndexOutOfBoundsException("[" + from + ", " + to + ") in a bitmap of " + size);
        }
        if (from == to) return;
        int lo = from >>> 6;
        int hi = (to - 1) >>> 6;
        for (int w = lo; w <= hi; w++) {
            long mask = -1L;
            if (w == lo) mask &= -1L << (from & 63);
            if (w == hi) mask &= -1L >>> (63 - ((to - 1) & 63));
            words[w] = set ? words[w] | mask : words[w] & ~mask;
        }
        for (int l = 1; l < any.length; l++) {        // words lo..hi of level l - 1 changed
            boolean changed = false;
            for (int w = lo; w <= hi; w++) {
                boolean someSet = l == 1 ? words[w] != 0 : any[l - 1][w] != 0;
                boolean allSet = l == 1 ? words[w] == -1L : full[l - 1][w] == -1L;
                long a = put(any[l][w >>> 6], w, someSet);
                long f = put(full[l][w >>> 6], w, allSet);
                changed |= a != any[l][w >>> 6] || f != full[l][w >>> 6];
                any[l][w >>> 6] = a;
                full[l][w >>> 6] = f;
            }
            if (!changed) return;                     // the levels above read the same words
            lo >>>= 6;
            hi >>>= 6;
        }
    }

    private static long put(long word, int bit, boolean on) {
        return on ? word | 1L << bit : word & ~(1L << bit);
    }

    /** The bitmap's words, for the tests that break the books on purpose, as a bug would. */
    long[] words() { return words; }

    /** The bits, as a {@link BitSet} (for checks and tests). */
    BitSet toBitSet() { return BitSet.valueOf(words); }

    int cardinality() {
        int n = 0;
        for (long w : words) n += Long.bitCount(w);
        return n;
    }

    void checkInvariants() {
        if ((size & 63) != 0 && words[words.length - 1] >>> (size & 63) != 0 || size == 0 && words[0] != 0) {
            throw new IllegalStateException("SummaryBitmap: a bit set past the size " + size);
        }
        for (int l = 1; l < any.length; l++) {
            int below = length(l - 1);
            for (int w = 0; w < 64 * any[l].length; w++) {
                boolean someSet = w < below && (l == 1 ? words[w] != 0 : any[l - 1][w] != 0);
                boolean allSet = w < below && (l == 1 ? words[w] == -1L : full[l - 1][w] == -1L);
                boolean saysSome = (any[l][w >>> 6] >>> w & 1) != 0;
                boolean saysAll = (full[l][w >>> 6] >>> w & 1) != 0;
                if (saysSome != someSet || saysAll != allSet) {
                    throw new IllegalStateException("SummaryBitmap: level " + l + " bit " + w + " says "
                            + (saysSome ? "some" : "no") + " set, " + (saysAll ? "all" : "not all")
                            + " set, but word " + w + " below is "
                            + (someSet ? allSet ? "all set" : "partly set" : "clear"));
                }
            }
        }
    }

    private static int wordsFor(int bits) { return (int) (((long) bits + 63) >>> 6); }

    @Override public String toString() {
        return "SummaryBitmap(" + cardinality() + " of " + size + " set, " + levels() + " levels)";
    }
}
