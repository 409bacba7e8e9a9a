package vramlab.gmmu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The pool's rule, first fit from the lowest address, against the rule written out as plainly
 * as it goes: a {@code boolean[]} of frames, tried start by start. The pool searches a map of
 * 2 MiB granules for whole-page requests and the frames for the rest; both must land where the
 * model does.
 */
@DisplayName("The physical pool against a plain first-fit model over frames")
class PhysicalPoolFirstFitTest {
    static final long F = PhysicalPool.FRAME;
    static final int G = PhysicalPool.GRANULE;
    static final boolean ALL_SEEDS = Boolean.getBoolean("vramlab.allSeeds");

    /** First fit over frames, start by start: the rule itself. */
    static final class Model {
        final boolean[] used;

        Model(int frames) { used = new boolean[frames]; }

        /** The lowest multiple of {@code step} where {@code n} frames are free, or -1. */
        int allocate(int n, int step) {
            for (int s = 0; s + n <= used.length; s += step) {
                if (free(s, n)) {
                    for (int f = s; f < s + n; f++) used[f] = true;
                    return s;
                }
            }
            return -1;
        }

        boolean free(int s, int n) {
            for (int f = s; f < s + n; f++) if (used[f]) return false;
            return true;
        }

        void release(int s, int n) { for (int f = s; f < s + n; f++) used[f] = false; }
    }

    /** A pool and its model, each frame in {@code usedFrames} its own one-frame chunk. */
    static PhysicalPool poolWith(int frames, boolean[] usedFrames, Model model) {
        PhysicalPool p = new PhysicalPool(0, frames * F);
        for (int f = 0; f < frames; f++) assertThat(p.allocate(F, F, "x")).isEqualTo(f * F);
        for (int f = 0; f < frames; f++) {
            if (!usedFrames[f]) p.release(f * F);
            model.used[f] = usedFrames[f];
        }
        p.checkInvariants();
        return p;
    }

    /** Asks pool and model for the same run, compares, and gives it back. */
    static void sameAnswer(PhysicalPool p, Model m, int n, int step, String state) {
        int expected = m.allocate(n, step);
        long got = p.allocate(n * F, step * F, "probe");
        assertThat(got).as("%d frames aligned to %d in %s", n, step, state)
                .isEqualTo(expected < 0 ? -1 : expected * F);
        p.checkInvariants();
        if (expected >= 0) {
            p.release(got);
            m.release(expected, n);
            p.checkInvariants();
        }
    }

    static String show(boolean[] used) {
        StringBuilder sb = new StringBuilder();
        for (boolean u : used) sb.append(u ? '#' : '.');
        return sb.toString();
    }

    @Nested
    @DisplayName("on every small state")
    class Exhaustive {
        @ParameterizedTest(name = "{0} frames")
        @ValueSource(ints = {1, 2, 3, 5, 8, 9})
        @DisplayName("every used/free pattern of a pool under a granule, every size and alignment")
        void everyFramePattern(int frames) {
            for (int bits = 0; bits < 1 << frames; bits++) {
                boolean[] used = new boolean[frames];
                for (int f = 0; f < frames; f++) used[f] = (bits >> f & 1) == 1;
                Model m = new Model(frames);
                PhysicalPool p = poolWith(frames, used, m);
                String state = show(used);
                for (int n = 1; n <= frames + 1; n++) {
                    for (int step = 1; step <= 2 * frames; step *= 2) sameAnswer(p, m, n, step, state);
                }
                sameAnswer(p, m, G, G, state);
            }
        }

        /** What a granule of the pattern holds: nothing, everything, or one used frame. */
        static final int[] ONE_FRAME_AT = {-1, 0, G / 2, G - 1};

        @ParameterizedTest(name = "{0} frames")
        @ValueSource(ints = {2 * G, 2 * G + 5, 3 * G})
        @DisplayName("every mix of empty, full and one-frame granules, asked for pages, odd runs")
        void everyGranulePattern(int frames) {
            int granules = (frames + G - 1) / G;
            int kinds = ONE_FRAME_AT.length + 1;                 // the last kind: a full granule
            int[] sizes = {1, G - 1, G, G + 1, 2 * G, 3 * G, frames, frames + 1};
            int[] steps = {1, 2, G, 2 * G, 4 * G};
            for (int code = 0; code < Math.pow(kinds, granules); code++) {
                boolean[] used = new boolean[frames];
                int c = code;
                for (int g = 0; g < granules; g++, c /= kinds) mark(used, g, c % kinds);
                Model m = new Model(frames);
                PhysicalPool p = poolWith(frames, used, m);
                String state = show(used);
                for (int n : sizes) {
                    for (int step : steps) sameAnswer(p, m, n, step, state);
                }
            }
        }

        @Test
        @DisplayName("the same on pools of four granules, one of them partial (-Pall-seeds only)")
        void fourGranules() {
            assumeTrue(ALL_SEEDS, "runs under -Pall-seeds");
            everyGranulePattern(3 * G + 5);
            everyGranulePattern(4 * G);
        }

        private void mark(boolean[] used, int granule, int kind) {
            int lo = granule * G;
            int hi = Math.min(lo + G, used.length);
            if (kind == ONE_FRAME_AT.length) {
                for (int f = lo; f < hi; f++) used[f] = true;
            } else if (ONE_FRAME_AT[kind] >= 0 && lo + ONE_FRAME_AT[kind] < hi) {
                used[lo + ONE_FRAME_AT[kind]] = true;
            }
        }
    }

    @Nested
    @DisplayName("on seeded random traffic")
    class Random_ {
        @ParameterizedTest(name = "seed {0}")
        @ValueSource(longs = {1, 2, 3})
        @DisplayName("64 KiB-aligned runs and 2 MiB pages, mixed, land where the model says, and "
                + "chunks() and chunkAt agree with a TreeMap (seeds 1-3, 1-60 under -Pall-seeds)")
        void mixedTraffic(long seed) {
            long last = ALL_SEEDS && seed == 3 ? 60 : seed;
            for (long s = seed; s <= last; s++) run(new Random(s), s);
        }

        private void run(Random rnd, long seed) {
            int frames = 8 * G + rnd.nextInt(2 * G);   // 16-20 MiB, often not whole pages
            PhysicalPool p = new PhysicalPool(0, frames * F);
            Model m = new Model(frames);
            List<int[]> live = new ArrayList<>();                // {start frame, frames}
            TreeMap<Long, Long> ends = new TreeMap<>();          // live chunks: address -> end
            for (int i = 0; i < 1000; i++) {
                if (!live.isEmpty() && rnd.nextInt(10) < 4) {
                    int[] c = live.remove(rnd.nextInt(live.size()));
                    p.release(c[0] * F);
                    m.release(c[0], c[1]);
                    ends.remove(c[0] * F);
                } else {
                    boolean page = rnd.nextBoolean();
                    int n = page ? G * (1 + rnd.nextInt(3)) : 1 + rnd.nextInt(2 * G);
                    int step = page ? G << rnd.nextInt(2) : 1 << rnd.nextInt(7);
                    int expected = m.allocate(n, step);
                    long got = p.allocate(n * F, step * F, i);
                    assertThat(got).as("seed %d step %d: %d frames aligned to %d", seed, i, n, step)
                            .isEqualTo(expected < 0 ? -1 : expected * F);
                    if (expected >= 0) {
                        live.add(new int[] {expected, n});
                        ends.put(expected * F, (expected + n) * F);
                    }
                }
                p.checkInvariants();
                assertThat(p.chunks()).extracting(PhysicalPool.Chunk::address)
                        .containsExactlyElementsOf(ends.keySet());
                long probe = rnd.nextInt(frames) * F + rnd.nextInt(3) - 1;
                long far = 1L << 47;                             // past any int frame number
                for (long at : new long[] {-1, 0, probe, frames * F - 1, frames * F, far}) {
                    sameHolder(p, ends, at);
                }
            }
        }

        /** chunkAt, against a floor lookup in a TreeMap of the live chunks. */
        private void sameHolder(PhysicalPool p, TreeMap<Long, Long> ends, long probe) {
            var floor = ends.floorEntry(probe);
            Long holder = floor != null && probe < floor.getValue() ? floor.getKey() : null;
            PhysicalPool.Chunk c = p.chunkAt(probe);
            assertThat(c == null ? null : c.address()).as("chunkAt(%d)", probe).isEqualTo(holder);
        }
    }

    @Nested
    @DisplayName("checkInvariants")
    class Invariants {
        @Test
        @DisplayName("catches a granule marked free while one of its frames is used")
        void granuleClearedUnderAChunk() {
            PhysicalPool p = new PhysicalPool(0, 4 * G * F);
            p.allocate(F, F, "ctx");
            p.allocate(G * F, G * F, "page");
            p.checkInvariants();
            p.busyGranules.clear(1, 2);
            assertThatThrownBy(p::checkInvariants).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("granules busy 1 vs frames' 2");
        }

        @Test
        @DisplayName("catches a granule marked busy while all its frames are free")
        void granuleBusyWithNothingInIt() {
            PhysicalPool p = new PhysicalPool(0, 4 * G * F);
            long ctx = p.allocate(F, F, "ctx");
            p.release(ctx);
            p.checkInvariants();
            p.busyGranules.set(3, 4);
            assertThatThrownBy(p::checkInvariants)
                    .hasMessageContaining("granules busy 1 vs frames' 0");
        }

        @Test
        @DisplayName("catches a granule hint above a free granule, a frame hint above a free frame")
        void hintsAboveAFreeOne() {
            PhysicalPool p = new PhysicalPool(0, 4 * G * F);
            p.allocate(G * F, G * F, "page");
            p.lowestFreeGranule = 2;
            assertThatThrownBy(p::checkInvariants)
                    .hasMessageContaining("first free granule 1 vs hint 2");
            p.lowestFreeGranule = 1;
            p.checkInvariants();
            p.lowestFree = G + 1;
            assertThatThrownBy(p::checkInvariants)
                    .hasMessageContaining("first free frame 32 vs hint 33");
        }

        @Test
        @DisplayName("catches a summary of either map that disagrees with the map's bits")
        void staleSummary() {
            PhysicalPool p = new PhysicalPool(0, 128 * G * F);          // 4096 frames, 128 granules: 2 levels each
            p.allocate(2 * G * F, G * F, "two pages");                    // frames 0-63: word 0 full
            p.checkInvariants();
            p.busyGranules.any[1][0] = 0;
            assertThatThrownBy(p::checkInvariants).hasMessageContaining("SummaryBitmap: level 1 bit 0 says no set");
            p.busyGranules.any[1][0] = 1;
            p.checkInvariants();
            p.used.full[1][0] = 0;
            assertThatThrownBy(p::checkInvariants).hasMessageContaining("SummaryBitmap: level 1 bit 0 says some set, not all set, but word 0 below is all set");
        }

        @Test
        @DisplayName("catches a start marked where no chunk starts, or missing where one does")
        void staleStart() {
            PhysicalPool p = new PhysicalPool(0, 4 * G * F);
            p.allocate(2 * F, F, "a");
            p.starts.set(1);
            assertThatThrownBy(p::checkInvariants)
                    .hasMessageContaining("1 chunks (0 in granule slots, 1 in the table) but 2 marked starts");
            p.starts.clear(0, 2);
            assertThatThrownBy(p::checkInvariants)
                    .hasMessageContaining("1 chunks (0 in granule slots, 1 in the table) but 0 marked starts");
        }

        @Test
        @DisplayName("keeps a chunk that covers its granule in the granule's slot, others in the table, and counts both")
        void slotsAndTable() {
            PhysicalPool p = new PhysicalPool(0, 4 * G * F);
            long page = p.allocate(G * F, G * F, "page");             // a whole granule: its slot
            long small = p.allocate(2 * F, F, "small");              // two frames: the table
            p.checkInvariants();
            assertThat(p.chunks.size()).isEqualTo(1);
            assertThat(p.chunkAt(page).owner()).isEqualTo("page");
            assertThat(p.chunkAt(small + F).owner()).isEqualTo("small");
            assertThat(p.chunks()).extracting(PhysicalPool.Chunk::owner).containsExactly("page", "small");
            p.chunks.put(PhysicalPool.key(3 * G), new PhysicalPool.Chunk(3 * G * F, F, "stray"));   // in the table, no start marked
            assertThatThrownBy(p::checkInvariants)
                    .hasMessageContaining("3 chunks (1 in granule slots, 2 in the table) but 2 marked starts");
            p.chunks.remove(PhysicalPool.key(3 * G));
            p.release(page);
            p.release(small);
            p.checkInvariants();
            assertThat(p.chunks()).isEmpty();
        }
    }
}
