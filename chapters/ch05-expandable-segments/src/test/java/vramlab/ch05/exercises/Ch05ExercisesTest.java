package vramlab.ch05.exercises;

import static org.assertj.core.api.Assertions.assertThat;
import static vramlab.units.Bytes.mib;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.stream.LongStream;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import vramlab.ch05.ExpandableSegmentsChapter;
import vramlab.units.Bytes;

/**
 * Each exercise's answer, replayed on the reference allocator, agrees with a model written here
 * from the rules the notes state (512 B rounding, pages of 2 MiB and 20 MiB, blocks packed from
 * offset 0, PyTorch's default split and segment rules), seed by seed.
 */
@DisplayName("chapter 5's exercises")
class Ch05ExercisesTest {
    static final long SMALL_PAGE = mib(2), LARGE_PAGE = mib(20);

    static LongStream seeds() { return LongStream.rangeClosed(1, 40); }

    static long round(long size) { return Math.max(512, Bytes.alignUp(size, 512)); }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    @DisplayName("the chapter lists its three exercises, each with a prompt and an answer")
    void registered(long seed) {
        var all = new ExpandableSegmentsChapter().exercises();
        assertThat(all).hasSize(3);
        for (var e : all) {
            assertThat(e.prompt(seed)).isNotBlank().doesNotContainIgnoringCase("seed");
            assertThat(e.answer(seed)).isNotBlank();
        }
    }

    @Nested
    @DisplayName("1. predict the pages: each pool packs its blocks and maps whole pages behind them")
    class Pages {
        @ParameterizedTest(name = "seed {0}")
        @MethodSource("vramlab.ch05.exercises.Ch05ExercisesTest#seeds")
        @DisplayName("pages per pool, reserved and the blocks that cross a page boundary match the model")
        void matchesModel(long seed) {
            long small = 0, large = 0;
            List<String> crossing = new ArrayList<>();
            List<Long> sizes = PredictThePages.sizes(seed);
            for (int i = 0; i < sizes.size(); i++) {
                long r = round(sizes.get(i));
                boolean isSmall = r <= mib(1);
                long off = isSmall ? small : large, page = isSmall ? SMALL_PAGE : LARGE_PAGE;
                if (off / page != (off + r - 1) / page) crossing.add("t" + i);
                if (isSmall) small += r; else large += r;
            }
            long smallPages = Bytes.alignUp(small, SMALL_PAGE) / SMALL_PAGE;
            long largePages = Bytes.alignUp(large, LARGE_PAGE) / LARGE_PAGE;
            PredictThePages.Pages p = PredictThePages.run(seed);
            assertThat(p.smallPages()).isEqualTo(smallPages);
            assertThat(p.largePages()).isEqualTo(largePages);
            assertThat(p.reserved()).isEqualTo(smallPages * SMALL_PAGE + largePages * LARGE_PAGE);
            assertThat(p.crossing()).isEqualTo(crossing);
            assertThat(new PredictThePages().answer(seed)).contains("reserved: " + Bytes.readable(p.reserved()));
        }
    }

    @Nested
    @DisplayName("2. defaults or expandable: best fit over fixed segments, or one range of pages")
    class TwoPolicies {
        /** PyTorch's defaults for large requests that are never freed: best fit, new segment, split. */
        long[] defaults(List<Long> sizes) {
            TreeMap<String, long[]> free = new TreeMap<>();   // key orders by (size, segment, offset)
            long reserved = 0;
            int segments = 0;
            for (long s : sizes) {
                long r = round(s);
                String best = null;
                for (var e : free.entrySet()) {
                    if (e.getValue()[0] >= r) { best = e.getKey(); break; }
                }
                long blockSize;
                int seg;
                long offset;
                if (best == null) {
                    blockSize = r < mib(10) ? mib(20) : Bytes.alignUp(r, mib(2));
                    seg = segments++;
                    offset = 0;
                    reserved += blockSize;
                } else {
                    long[] b = free.remove(best);
                    blockSize = b[0];
                    seg = (int) b[1];
                    offset = b[2];
                }
                if (blockSize - r > mib(1)) {
                    long[] rest = {blockSize - r, seg, offset + r};
                    free.put(String.format("%020d/%05d/%020d", rest[0], rest[1], rest[2]), rest);
                }
            }
            return new long[] {reserved, segments};
        }

        @ParameterizedTest(name = "seed {0}")
        @MethodSource("vramlab.ch05.exercises.Ch05ExercisesTest#seeds")
        @DisplayName("both policies' reserved bytes and segment counts match the models")
        void matchesModel(long seed) {
            List<Long> sizes = DefaultsOrExpandable.sizes(seed);
            long[] d = defaults(sizes);
            DefaultsOrExpandable.Outcome real = DefaultsOrExpandable.run(seed, false);
            assertThat(real.reserved()).isEqualTo(d[0]);
            assertThat(real.segments()).isEqualTo((int) d[1]);
            long total = sizes.stream().mapToLong(Ch05ExercisesTest::round).sum();
            DefaultsOrExpandable.Outcome exp = DefaultsOrExpandable.run(seed, true);
            assertThat(exp.reserved()).isEqualTo(Bytes.alignUp(total, LARGE_PAGE));
            assertThat(exp.segments()).isEqualTo(1);
            assertThat(new DefaultsOrExpandable().answer(seed))
                    .contains("defaults:   reserved " + Bytes.readable(d[0]))
                    .contains("expandable: reserved " + Bytes.readable(exp.reserved()));
        }
    }

    @Nested
    @DisplayName("3. empty_cache unmaps exactly the pages that lie wholly inside free runs")
    class EmptyCache {
        @ParameterizedTest(name = "seed {0}")
        @MethodSource("vramlab.ch05.exercises.Ch05ExercisesTest#seeds")
        @DisplayName("what it gives back and what stays reserved match the model")
        void matchesModel(long seed) {
            WhatEmptyCacheGivesBack.Run run = WhatEmptyCacheGivesBack.run(seed);
            int n = run.sizes().size();
            long[] start = new long[n + 1];
            for (int i = 0; i < n; i++) start[i + 1] = start[i] + round(run.sizes().get(i));
            long mapped = Bytes.alignUp(start[n], LARGE_PAGE);
            boolean[] freePage = new boolean[(int) (mapped / LARGE_PAGE)];
            java.util.Arrays.fill(freePage, true);
            for (int i = 0; i < n; i++) {
                if (run.freed().contains(i)) continue;
                for (long p = start[i] / LARGE_PAGE; p <= (start[i + 1] - 1) / LARGE_PAGE; p++) freePage[(int) p] = false;
            }
            long back = 0;
            for (boolean f : freePage) if (f) back += LARGE_PAGE;
            WhatEmptyCacheGivesBack.Outcome o = WhatEmptyCacheGivesBack.outcome(seed);
            assertThat(o.reservedBefore()).isEqualTo(mapped);
            assertThat(o.givenBack()).isEqualTo(back);
            assertThat(o.reservedAfter()).isEqualTo(mapped - back);
            assertThat(new WhatEmptyCacheGivesBack().answer(seed)).contains("gives back " + Bytes.readable(back));
        }
    }
}
