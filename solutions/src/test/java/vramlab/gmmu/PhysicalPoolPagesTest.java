package vramlab.gmmu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link PhysicalPool#allocatePages} and {@link PhysicalPool#releasePages}, the calls a
 * cudaMalloc of several pages makes, against the calls they stand for: that many
 * {@code allocate(PAGE, PAGE)} and {@code release} in a row, on a twin pool in the same state.
 * Both pools must then hold the same chunks, the same used frames and busy granules.
 */
@DisplayName("The physical pool's page calls against one allocate or release per page")
class PhysicalPoolPagesTest {
    static final long F = PhysicalPool.FRAME;
    static final int G = PhysicalPool.GRANULE;
    static final long PAGE = PhysicalPool.PAGE;

    /** Two pools of {@code frames} frames, each with one-frame chunks at {@code usedFrames}. */
    private static PhysicalPool[] twins(int frames, boolean[] usedFrames) {
        PhysicalPool[] p = {new PhysicalPool(0, frames * F), new PhysicalPool(0, frames * F)};
        for (PhysicalPool pool : p) {
            for (int f = 0; f < frames; f++) if (usedFrames[f]) pool.allocate(F, F, "frame " + f);
        }
        return p;
    }

    /** The same chunks (address, size, owner), frames, granules and byte count. */
    private static void same(PhysicalPool batch, PhysicalPool single, String state) {
        batch.checkInvariants();
        single.checkInvariants();
        assertThat(batch.chunks()).as(state).isEqualTo(single.chunks());
        assertThat(batch.used.toBitSet()).as(state).isEqualTo(single.used.toBitSet());
        assertThat(batch.busyGranules.toBitSet()).as(state).isEqualTo(single.busyGranules.toBitSet());
        assertThat(batch.usedBytes()).as(state).isEqualTo(single.usedBytes());
    }

    /** allocatePages(k) on one, k allocate(PAGE, PAGE) on the other, stopping at the first -1. */
    private static long[] takeBoth(PhysicalPool batch, PhysicalPool single, int k, Object owner, String state) {
        long[] got = new long[k];
        int n = batch.allocatePages(got, owner);
        List<Long> expected = new ArrayList<>();
        for (int i = 0; i < k; i++) {
            long a = single.allocate(PAGE, PAGE, owner);
            if (a < 0) break;
            expected.add(a);
        }
        assertThat(n).as("pages taken, %s", state).isEqualTo(expected.size());
        long[] taken = Arrays.copyOf(got, n);
        assertThat(taken).as(state).containsExactly(expected.stream().mapToLong(Long::longValue).toArray());
        same(batch, single, state);
        return taken;
    }

    private static void giveBoth(PhysicalPool batch, PhysicalPool single, long[] pages, String state) {
        batch.releasePages(pages);
        for (long a : pages) single.release(a);
        same(batch, single, state);
    }

    @ParameterizedTest(name = "{0} frames")
    @ValueSource(ints = {G, 3 * G, 3 * G + 5, 4 * G})
    @DisplayName("every mix of empty, full and one-frame granules, every count of pages, given back in every rotation")
    void everyGranulePattern(int frames) {
        int granules = (frames + G - 1) / G;
        int[] oneFrameAt = {-1, 0, G - 1, -2};                   // -2: the whole granule used
        for (int code = 0; code < Math.pow(oneFrameAt.length, granules); code++) {
            boolean[] used = new boolean[frames];
            int c = code;
            for (int g = 0; g < granules; g++, c /= oneFrameAt.length) {
                int at = oneFrameAt[c % oneFrameAt.length];
                for (int f = g * G; f < Math.min((g + 1) * G, frames); f++) used[f] |= at == -2 || f == g * G + at;
            }
            for (int k = 1; k <= granules + 1; k++) {
                PhysicalPool[] p = twins(frames, used);
                String state = "pattern " + code + " of " + frames + " frames, " + k + " pages";
                long[] pages = takeBoth(p[0], p[1], k, "segment", state);
                for (int r = 0; r < pages.length; r++) {                 // give back from page r on, wrapping
                    PhysicalPool[] q = twins(frames, used);
                    long[] again = takeBoth(q[0], q[1], k, "segment", state);
                    long[] order = new long[again.length];
                    for (int i = 0; i < again.length; i++) order[i] = again[(r + i) % again.length];
                    giveBoth(q[0], q[1], order, state + ", given back from " + r);
                }
                giveBoth(p[0], p[1], pages, state + ", given back");
            }
        }
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4})
    @DisplayName("seeded segments of 1-12 pages beside 64 KiB contexts, given back in any order, mixed with single releases")
    void seeded(long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        int frames = 40 * G + rnd.nextInt(G);
        PhysicalPool batch = new PhysicalPool(0, frames * F);
        PhysicalPool single = new PhysicalPool(0, frames * F);
        List<long[]> segments = new ArrayList<>();
        List<Long> contexts = new ArrayList<>();
        for (int step = 0; step < 1500; step++) {
            String state = "seed " + seed + " step " + step;
            int op = rnd.nextInt(10);
            if (op < 5) {
                segments.add(takeBoth(batch, single, 1 + rnd.nextInt(12), "segment " + step, state));
            } else if (op < 6) {
                long n = (1 + rnd.nextInt(40)) * F;
                long a = batch.allocate(n, F, "context " + step);
                assertThat(single.allocate(n, F, "context " + step)).as(state).isEqualTo(a);
                if (a >= 0) contexts.add(a);
            } else if (op < 7 && !contexts.isEmpty()) {
                long a = contexts.remove(rnd.nextInt(contexts.size()));
                batch.release(a);
                single.release(a);
            } else if (!segments.isEmpty()) {
                long[] pages = segments.remove(rnd.nextInt(segments.size())).clone();
                if (rnd.nextBoolean()) {                          // any order, not only ascending
                    List<Long> shuffled = new ArrayList<>();
                    for (long a : pages) shuffled.add(a);
                    Collections.shuffle(shuffled, new java.util.Random(rnd.nextLong()));
                    for (int i = 0; i < pages.length; i++) pages[i] = shuffled.get(i);
                }
                giveBoth(batch, single, pages, state);
            }
            same(batch, single, state);
        }
    }

    @Test
    @DisplayName("releasePages gives back a chunk that starts a granule but covers more than it as release does, in any order")
    void longerChunksAmongPages() {
        for (int order = 0; order < 24; order++) {
            PhysicalPool batch = new PhysicalPool(0, 16 * G * F);
            PhysicalPool single = new PhysicalPool(0, 16 * G * F);
            long[] before = takeBoth(batch, single, 2, "pages", "two pages");
            long two = batch.allocate(2 * PAGE, PAGE, "two granules");       // granules 2-3, one slot
            long odd = batch.allocate(G * F + 8 * F, PAGE, "a granule and 8 frames");
            assertThat(single.allocate(2 * PAGE, PAGE, "two granules")).isEqualTo(two);
            assertThat(single.allocate(G * F + 8 * F, PAGE, "a granule and 8 frames")).isEqualTo(odd);
            long[] after = takeBoth(batch, single, 2, "pages", "two more pages");
            List<Long> all = new ArrayList<>(List.of(before[1], two, odd, after[0]));
            long[] mix = new long[4];
            for (int k = 0, code = order; k < 4; k++, code /= 4 - k + 1) {
                mix[k] = all.remove(code % all.size());
            }
            giveBoth(batch, single, mix, "order " + order + ": " + Arrays.toString(mix));
            giveBoth(batch, single, new long[] {after[1], before[0]}, "the rest");
            assertThat(batch.chunks()).isEmpty();
        }
    }

    @Test
    @DisplayName("releasePages refuses an address no chunk starts at, after giving back the pages before it")
    void refusesAStrayAddress() {
        PhysicalPool batch = new PhysicalPool(0, 8 * G * F);
        PhysicalPool single = new PhysicalPool(0, 8 * G * F);
        long[] pages = takeBoth(batch, single, 3, "segment", "three pages");
        long[] bad = {pages[0], pages[1], pages[1] + F, pages[2]};
        assertThatThrownBy(() -> batch.releasePages(bad)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("no chunk starts there");
        single.release(pages[0]);
        single.release(pages[1]);
        assertThatThrownBy(() -> single.release(pages[1] + F)).isInstanceOf(IllegalStateException.class);
        same(batch, single, "after the refusal");
        assertThatThrownBy(() -> batch.releasePages(new long[] {pages[2], pages[2]}))
                .hasMessageContaining("no chunk starts there");
    }
}
