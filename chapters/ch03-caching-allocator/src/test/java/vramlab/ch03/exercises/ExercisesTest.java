package vramlab.ch03.exercises;

import static org.assertj.core.api.Assertions.assertThat;
import static vramlab.units.Bytes.mib;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import vramlab.ch03.CachingAllocatorChapter;
import vramlab.kit.Exercise;
import vramlab.units.Bytes;

/**
 * Each exercise's answer, for several seeds, against a model written here from the rules alone
 * (plain arithmetic and lists, no allocator), so a wrong answer in the kit cannot pass.
 */
class ExercisesTest {

    @Nested
    @DisplayName("RoundAndPool")
    class RoundAndPoolTest {
        /** The toy: 512 B steps to 1 MiB, then 2 MiB steps; segments 2 MiB or max(20 MiB, block). */
        long[] toy(long n) {
            long block = n <= mib(1) ? up(n, 512) : up(n, mib(2));
            long segment = block <= mib(1) ? mib(2) : Math.max(mib(20), block);
            return new long[] {block, block <= mib(1) ? 0 : 1, segment};
        }

        /** PyTorch: 512 B steps everywhere; 2 MiB small segments, 20 MiB below 10 MiB, else 2 MiB steps. */
        long[] pytorch(long n) {
            long block = up(Math.max(n, 512), 512);
            long segment = block <= mib(1) ? mib(2) : block < mib(10) ? mib(20) : up(block, mib(2));
            return new long[] {block, block <= mib(1) ? 0 : 1, segment};
        }

        @ParameterizedTest(name = "seed {0}")
        @ValueSource(longs = {1, 2, 3, 7, 42, 1234})
        @DisplayName("block, pool and segment under both policies match the rules computed by hand")
        void matchesTheRules(long seed) {
            for (long n : RoundAndPool.sizes(seed)) {
                for (var c : List.of(new Object[] {new vramlab.alloc.ToyPolicy(), toy(n)},
                        new Object[] {new vramlab.alloc.PyTorchPolicy(), pytorch(n)})) {
                    RoundAndPool.Cost got = RoundAndPool.cost((vramlab.alloc.Policy) c[0], n);
                    long[] want = (long[]) c[1];
                    assertThat(got.block()).as("block of %d", n).isEqualTo(want[0]);
                    assertThat(got.pool()).as("pool of %d", n).isEqualTo(want[1] == 0 ? "small" : "large");
                    assertThat(got.segment()).as("segment of %d", n).isEqualTo(want[2]);
                }
            }
            String answer = new RoundAndPool().answer(seed);
            for (long n : RoundAndPool.sizes(seed)) {
                assertThat(answer).contains(pytorch(n)[0] + " / ").contains(toy(n)[0] + " / ");
            }
        }

        @ParameterizedTest(name = "seed {0}")
        @ValueSource(longs = {1, 5, 9})
        @DisplayName("the five sizes cover the small pool, the 1 MiB edge, 1-10 MiB and beyond")
        void coversTheLadder(long seed) {
            long[] s = RoundAndPool.sizes(seed);
            assertThat(s[0]).isLessThan(mib(1));
            assertThat(s[1]).isBetween(mib(1) - 1024, mib(1) + 1024);
            assertThat(s[2]).isBetween(mib(1) + 1, mib(5));
            assertThat(s[3]).isBetween(mib(4), mib(10));
            assertThat(s[4]).isGreaterThanOrEqualTo(mib(10));
        }
    }

    @Nested
    @DisplayName("BestFitAndSplit")
    class BestFitAndSplitTest {
        record Hole(long offset, long size) {}

        @ParameterizedTest(name = "seed {0}")
        @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8, 11, 99})
        @DisplayName("each request gets the hole a list-based best fit picks, split only above 1 MiB of remainder")
        void matchesAListModel(long seed) {
            List<Hole> holes = new ArrayList<>();
            long at = 0;
            for (long h : BestFitAndSplit.holes(seed)) {
                holes.add(new Hole(at, h));
                at += h + BestFitAndSplit.FENCE;
            }
            List<BestFitAndSplit.Served> want = new ArrayList<>();
            for (long q : BestFitAndSplit.requests(seed)) {
                long rounded = up(q, 512);
                Hole best = holes.stream().filter(h -> h.size() >= rounded)
                        .min(Comparator.comparingLong(Hole::size).thenComparingLong(Hole::offset)).orElse(null);
                if (best == null) {                       // a fresh 20 MiB segment, split
                    want.add(new BestFitAndSplit.Served(rounded, 1, 0, rounded, true));
                    continue;
                }
                holes.remove(best);
                boolean split = best.size() - rounded > mib(1);
                if (split) holes.add(new Hole(best.offset() + rounded, best.size() - rounded));
                want.add(new BestFitAndSplit.Served(rounded, 0, best.offset(), split ? rounded : best.size(), split));
            }
            assertThat(BestFitAndSplit.served(seed)).isEqualTo(want);
            String answer = new BestFitAndSplit().answer(seed);
            for (var s : want) assertThat(answer).contains("rounds to " + s.rounded() + " B");
        }

        @ParameterizedTest(name = "seed {0}")
        @ValueSource(longs = {1, 2, 3})
        @DisplayName("the prompt gives the layout and the requests, not the answer")
        void promptHidesTheAnswer(long seed) {
            String prompt = new BestFitAndSplit().prompt(seed);
            assertThat(prompt).contains("[2 MiB live]").doesNotContain("rounds to").doesNotContain("split:");
        }
    }

    @Nested
    @DisplayName("WhatEmptyCacheReleases")
    class WhatEmptyCacheReleasesTest {
        @ParameterizedTest(name = "seed {0}")
        @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10})
        @DisplayName("releases exactly the segments whose every block was freed")
        void releasesWhollyFreeSegments(long seed) {
            long before = 0;
            long released = 0;
            for (var row : WhatEmptyCacheReleases.rows(seed)) {
                long segment = row.sizes().stream().mapToLong(Long::longValue).sum();
                assertThat(segment).isIn(mib(2), mib(20));
                before += segment;
                if (row.freed().stream().allMatch(f -> f)) released += segment;
            }
            assertThat(WhatEmptyCacheReleases.run(seed)).containsExactly(before, released, before - released);
            assertThat(new WhatEmptyCacheReleases().answer(seed))
                    .contains("emptyCache() releases: " + Bytes.readable(released));
        }
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3})
    @DisplayName("every exercise of the chapter is registered, prompts without the answer, and answers the same twice")
    void registered(long seed) {
        List<Exercise> all = new CachingAllocatorChapter().exercises();
        assertThat(all).hasSizeGreaterThanOrEqualTo(4);
        for (Exercise e : all) {
            assertThat(e.prompt(seed)).isNotBlank().isEqualTo(e.prompt(seed));
            assertThat(e.answer(seed)).isNotBlank().isEqualTo(e.answer(seed));
            assertThat(e.prompt(seed)).doesNotContain(e.answer(seed));
        }
    }

    static long up(long n, long step) { return (n + step - 1) / step * step; }
}
