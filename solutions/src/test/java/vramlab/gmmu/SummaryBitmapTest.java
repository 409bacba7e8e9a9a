package vramlab.gmmu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.BitSet;
import java.util.SplittableRandom;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The summary bitmap against {@link BitSet}, the plain bitmap the pool searched before: the same
 * next set bit and next clear bit from every start, exhaustively on small and on multi-level
 * bitmaps and on seeded random histories of set and clear; and each search's cost, counted in
 * words read, within two words a level.
 */
@DisplayName("The pool's summary bitmap")
class SummaryBitmapTest {
    /** Both searches from every start in {@code froms}, against the plain bitmap. */
    static void sameAnswers(SummaryBitmap b, BitSet plain, int[] froms, String state) {
        for (int from : froms) {
            long before = b.steps;
            assertThat(b.nextSetBit(from)).as("nextSetBit(%d) in %s", from, state)
                    .isEqualTo(plain.nextSetBit(from));
            assertThat(b.steps - before).as("words read by nextSetBit(%d)", from)
                    .isLessThanOrEqualTo(2L * b.levels());
            before = b.steps;
            int clear = plain.nextClearBit(from);
            assertThat(b.nextClearBit(from)).as("nextClearBit(%d) in %s", from, state)
                    .isEqualTo(from < b.size() ? Math.min(clear, b.size()) : from);
            assertThat(b.steps - before).as("words read by nextClearBit(%d)", from)
                    .isLessThanOrEqualTo(2L * b.levels());
            if (from < b.size()) assertThat(b.get(from)).as("get(%d) in %s", from, state).isEqualTo(plain.get(from));
        }
    }

    static int[] everyStart(int size) {
        int[] froms = new int[size + 2];
        for (int i = 0; i < froms.length; i++) froms[i] = i;
        return froms;
    }

    @Nested
    @DisplayName("on every small state")
    class Exhaustive {
        @ParameterizedTest(name = "{0} bits")
        @ValueSource(ints = {0, 1, 2, 5, 8, 11})
        @DisplayName("every pattern of a bitmap under one word, searched from every start")
        void everyPattern(int size) {
            for (int bits = 0; bits < 1 << size; bits++) {
                SummaryBitmap b = new SummaryBitmap(size);
                BitSet plain = new BitSet();
                for (int i = 0; i < size; i++) {
                    if ((bits >> i & 1) == 1) {
                        b.set(i, i + 1);
                        plain.set(i);
                    }
                }
                b.checkInvariants();
                assertThat(b.toBitSet()).isEqualTo(plain);
                sameAnswers(b, plain, everyStart(size), plain.toString());
            }
        }

        /** What one 64-word block of a multi-level bitmap holds. */
        static final int KINDS = 6;

        static void fill(SummaryBitmap b, BitSet plain, int block, int kind) {
            int lo = block * 64 * 64;
            int hi = Math.min(lo + 64 * 64, b.size());
            if (lo >= hi) return;
            switch (kind) {
                case 0 -> { }                                                // empty
                case 1 -> range(b, plain, lo, hi);                           // full
                case 2 -> { range(b, plain, lo, hi); b.clear(hi - 1, hi); plain.clear(hi - 1); } // full, last free
                case 3 -> {                                                  // full, one free inside
                    int at = Math.min(lo + 64 * 37 + 5, hi - 1);
                    range(b, plain, lo, hi);
                    b.clear(at, at + 1);
                    plain.clear(at);
                }
                case 4 -> { int at = lo + 64 * 21 + 63; if (at < hi) range(b, plain, at, at + 1); } // one set
                default -> { for (int w = lo; w < hi; w += 128) range(b, plain, w, Math.min(hi, w + 64)); } // every other word
            }
        }

        static void range(SummaryBitmap b, BitSet plain, int from, int to) {
            b.set(from, to);
            plain.set(from, to);
        }

        @ParameterizedTest(name = "{0} bits")
        @ValueSource(ints = {64 * 64 * 2 + 7, 64 * 64 * 3, 64 * 64 * 64 + 64 * 64 + 1})
        @DisplayName("every mix of empty, full and sparse 64-word blocks, searched from each block's edges")
        void everyBlockMix(int size) {
            int blocks = (size + 64 * 64 - 1) / (64 * 64);
            int shown = Math.min(blocks, 3);                 // the first blocks vary, the rest: the last kind
            for (int code = 0; code < Math.pow(KINDS, shown); code++) {
                SummaryBitmap b = new SummaryBitmap(size);
                BitSet plain = new BitSet();
                int c = code;
                StringBuilder state = new StringBuilder();
                for (int k = 0; k < blocks; k++) {
                    int kind = k < shown ? c % KINDS : (code + k) % KINDS;
                    if (k < shown) c /= KINDS;
                    fill(b, plain, k, kind);
                    state.append(kind);
                }
                b.checkInvariants();
                assertThat(b.toBitSet()).isEqualTo(plain);
                int[] froms = new int[6 * blocks + 2];
                for (int k = 0; k < blocks; k++) {
                    int lo = k * 64 * 64;
                    int[] near = {lo, lo + 1, lo + 63, lo + 64, lo + 64 * 37 + 5, lo + 64 * 64 - 1};
                    for (int j = 0; j < near.length; j++) froms[6 * k + j] = Math.min(near[j], size - 1);
                }
                froms[6 * blocks] = size - 1;
                froms[6 * blocks + 1] = size;
                sameAnswers(b, plain, froms, "blocks " + state);
            }
        }
    }

    @Nested
    @DisplayName("on seeded random histories")
    class Random_ {
        @ParameterizedTest(name = "seed {0}")
        @ValueSource(longs = {1, 2, 3, 4})
        @DisplayName("ranges set and cleared at random: the same answers as a plain bitmap, summaries intact")
        void randomRanges(long seed) {
            SplittableRandom r = new SplittableRandom(seed);
            int size = seed % 2 == 0 ? 1 + r.nextInt(64 * 64 * 3) : 64 * 64 * 64 + r.nextInt(64 * 64 * 4);
            SummaryBitmap b = new SummaryBitmap(size);
            BitSet plain = new BitSet();
            for (int op = 0; op < 2000; op++) {
                int from = r.nextInt(size);
                int len = r.nextInt(4) == 0 ? r.nextInt(size - from + 1) : r.nextInt(Math.min(200, size - from) + 1);
                if (r.nextInt(5) < 3) {
                    b.set(from, from + len);
                    plain.set(from, from + len);
                } else {
                    b.clear(from, from + len);
                    plain.clear(from, from + len);
                }
                if (op % 50 == 0) {
                    b.checkInvariants();
                    assertThat(b.toBitSet()).isEqualTo(plain);
                }
                int[] froms = {r.nextInt(size), r.nextInt(size), from, from + len, size};
                sameAnswers(b, plain, froms, "seed " + seed + " op " + op);
            }
            b.checkInvariants();
        }
    }

    @Test
    @DisplayName("refuses a range outside the bitmap, and a negative start")
    void outOfRange() {
        SummaryBitmap b = new SummaryBitmap(100);
        assertThatThrownBy(() -> b.set(90, 101)).isInstanceOf(IndexOutOfBoundsException.class)
                .hasMessage("[90, 101) in a bitmap of 100");
        assertThatThrownBy(() -> b.clear(-1, 3)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> b.clear(5, 3)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> b.nextSetBit(-1)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> b.nextClearBit(-1)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> b.get(-1)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> b.get(100)).isInstanceOf(IndexOutOfBoundsException.class);
    }

    @Test
    @DisplayName("reads one word when the answer is in the start's word, and 2 levels - 1 when it climbs to the top and back")
    void wordsRead() {
        SummaryBitmap b = new SummaryBitmap(64 * 64 * 64);                   // 3 levels
        b.set(64 * 64 * 64 - 1, 64 * 64 * 64);
        long before = b.steps;
        assertThat(b.nextSetBit(0)).isEqualTo(64 * 64 * 64 - 1);
        assertThat(b.steps - before).as("words read: up 3 levels, down 2").isEqualTo(5);
        before = b.steps;
        assertThat(b.nextClearBit(0)).isZero();
        assertThat(b.steps - before).as("words read: the first").isEqualTo(1);
        assertThat(b).hasToString("SummaryBitmap(1 of 262144 set, 3 levels)");
    }

    @Test
    @DisplayName("has ceil(log64(size)) levels: 4 for the granules and for the frames of a 1 TiB card")
    void levels() {
        assertThat(new SummaryBitmap(64).levels()).isEqualTo(1);
        assertThat(new SummaryBitmap(65).levels()).isEqualTo(2);
        assertThat(new SummaryBitmap(64 * 64).levels()).isEqualTo(2);
        assertThat(new SummaryBitmap(64 * 64 + 1).levels()).isEqualTo(3);
        assertThat(new SummaryBitmap(1 << 19).levels()).isEqualTo(4);   // 1 TiB / 2 MiB
        assertThat(new SummaryBitmap(1 << 24).levels()).isEqualTo(4);   // 1 TiB / 64 KiB
        assertThat(new SummaryBitmap((1 << 24) + 1).levels()).isEqualTo(5);
    }

    @Nested
    @DisplayName("checkInvariants")
    class Invariants {
        @Test
        @DisplayName("catches a summary that says a word is full when it has a clear bit")
        void staleFullBit() {
            SummaryBitmap b = new SummaryBitmap(64 * 64 * 2);
            b.set(0, 64);
            b.checkInvariants();
            b.clear(3, 4);
            b.checkInvariants();
            b.set(3, 4);
            b.words()[0] &= ~(1L << 3);                    // a bit cleared behind the summaries' back
            assertThatThrownBy(b::checkInvariants).isInstanceOf(IllegalStateException.class)
                    .hasMessage("SummaryBitmap: level 1 bit 0 says some set, all set, but word 0 below is partly set");
        }

        @Test
        @DisplayName("catches a summary bit wrong far from the start, on each level")
        void staleFarAway() {
            SummaryBitmap b = new SummaryBitmap(64 * 64 * 3);               // 192 words, 3 levels
            b.set(130 * 64 + 7, 130 * 64 + 9);
            b.checkInvariants();
            b.full[1][2] |= 1L << 2;                                         // word 130 "all set"
            assertThatThrownBy(b::checkInvariants)
                    .hasMessage("SummaryBitmap: level 1 bit 130 says some set, all set, but word 130 below is partly set");
            b.full[1][2] &= ~(1L << 2);
            b.checkInvariants();
            b.any[2][0] &= ~(1L << 2);                                       // level-1 word 2 "clear"
            assertThatThrownBy(b::checkInvariants)
                    .hasMessage("SummaryBitmap: level 2 bit 2 says no set, not all set, but word 2 below is partly set");
        }

        @Test
        @DisplayName("catches a bit set past the size")
        void pastTheSize() {
            SummaryBitmap b = new SummaryBitmap(70);
            b.words()[1] |= 1L << 6;
            assertThatThrownBy(b::checkInvariants).hasMessage("SummaryBitmap: a bit set past the size 70");
        }
    }
}
