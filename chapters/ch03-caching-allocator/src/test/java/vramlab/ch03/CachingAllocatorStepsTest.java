package vramlab.ch03;

import static org.assertj.core.api.Assertions.assertThat;
import static vramlab.units.Bytes.mib;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import vramlab.alloc.Block;
import vramlab.alloc.PoolKind;
import vramlab.alloc.Sim;
import vramlab.alloc.ToyPolicy;
import vramlab.quiz.Graded;
import vramlab.quiz.feedback.StepOrder;

/**
 * The graded steps of chapter 3, on the toy policy. Each failure message carries the segment
 * map, so a student sees the state their code produced.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
@ExtendWith(StepOrder.class)
class CachingAllocatorStepsTest {
    private final ToyPolicy toy = new ToyPolicy();

    @Nested
    @DisplayName("step 3.1: rounding")
    class Rounding {
        @Graded(step = "3.1", points = 2)
        @ParameterizedTest(name = "{0} B rounds to {1} B")
        @MethodSource("vramlab.ch03.CachingAllocatorStepsTest#roundCases")
        @DisplayName("512 B steps up to 1 MiB, 2 MiB steps above")
        void roundsLikeTheToy(long request, long block) {
            Ch03Feedback.ROUND.check("roundSize(" + vramlab.units.Bytes.readable(request) + ")", request, toy.roundSize(request), block);
        }
    }

    @Nested
    @DisplayName("step 3.2: finding a block")
    class Finding {
        @Graded(step = "3.2", points = 3)
        @org.junit.jupiter.api.Test
        @DisplayName("an exact-size hole is reused, and among equal holes the lowest address wins")
        void exactFitLowestFirst() {
            Sim sim = new Sim(mib(40));
            List<Block> four = fillAlternating(sim);                // [4 L][6 L][4 L][6 L] x2
            four.forEach(sim::free);                                 // [4 F][6 L][4 F][6 L] x2
            Block again = sim.alloc(mib(3) + 1);
            Ch03Feedback.FIND_MAP.check("alloc(3 MiB + 1 B) beside four 4 MiB holes", "", again.toString(),
                    "seg0[0..4)M 4M LIVE", sim::map);
        }

        @Graded(step = "3.2", points = 3)
        @org.junit.jupiter.api.Test
        @DisplayName("without an exact size, the smallest free block that fits is taken")
        void bestFit() {
            Sim sim = new Sim(mib(40));
            Block a = sim.alloc(mib(6));          // seg0 [0..6)
            Block keep1 = sim.alloc(mib(2));      // seg0 [6..8)
            Block b = sim.alloc(mib(4));          // seg0 [8..12)
            Block keep2 = sim.alloc(mib(8));      // seg0 [12..20)
            sim.free(a);                          // holes of 6 MiB and 4 MiB
            sim.free(b);
            Block got = sim.alloc(mib(3) + 1);    // 4 MiB: the 4 MiB hole, not the 6 MiB one
            Ch03Feedback.FIND_MAP.check("alloc(3 MiB + 1 B) with holes of 6 MiB and 4 MiB", "", got.toString(),
                    "seg0[8..12)M 4M LIVE", sim::map);
            assertThat(List.of(keep1, keep2)).allMatch(Block::isAllocated);
        }

        @Graded(step = "3.2", points = 2)
        @org.junit.jupiter.api.Test
        @DisplayName("pools never mix: a small request starts a small segment beside large holes")
        void poolsNeverMix() {
            Sim sim = new Sim(mib(40));
            Block big = sim.alloc(mib(10));
            sim.alloc(mib(4));
            sim.free(big);                        // a 10 MiB large-pool hole
            Block small = sim.alloc(900 * 1024);
            assertThat(small.pool()).as("the pool of alloc(900 KiB); %s", sim).isEqualTo(PoolKind.SMALL);
            Ch03Feedback.FIND_MAP.check("alloc(900 KiB) beside a 10 MiB large-pool hole", "",
                    "seg" + small.segment().id() + " " + small.segment().pool(), "seg1 SMALL", sim::map);
            assertThat(sim.reserved()).isEqualTo(mib(22));
        }
    }

    @Nested
    @DisplayName("step 3.3: the split rule")
    class Splitting {
        @Graded(step = "3.3", points = 2)
        @ParameterizedTest(name = "{0} pool: a {1} B block serving {2} B splits: {3}")
        @MethodSource("vramlab.ch03.CachingAllocatorStepsTest#splitCases")
        @DisplayName("a block splits only into a legal remainder: >= 512 B small, >= 2 MiB large")
        void splitRule(PoolKind pool, long block, long rounded, boolean splits) {
            var asked = new Ch03Feedback.Split(pool, block, rounded);
            Ch03Feedback.SPLIT.check(asked.toString(), asked, toy.shouldSplit(pool, block, rounded), splits);
        }

        @Graded(step = "3.3", points = 2)
        @org.junit.jupiter.api.Test
        @DisplayName("a first 4 MiB alloc leaves a 16 MiB free remainder in its 20 MiB segment")
        void firstAllocSplits() {
            Sim sim = new Sim(mib(40));
            Block a = sim.alloc(mib(4));
            Ch03Feedback.SPLIT_MAP.check("alloc(4 MiB) on an empty card, then segment 0", "", a.segment().toString(),
                    "seg0[0..4)M 4M LIVE seg0[4..20)M 16M FREE", sim::map);
        }
    }

    @Nested
    @DisplayName("step 3.4: merging on free")
    class Merging {
        @Graded(step = "3.4", points = 3)
        @org.junit.jupiter.api.Test
        @DisplayName("a freed block merges with free neighbours on both sides, never across live ones")
        void mergesBothSides() {
            Sim sim = new Sim(mib(40));
            Block a = sim.alloc(mib(4));
            Block b = sim.alloc(mib(4));
            Block c = sim.alloc(mib(4));
            sim.free(a);
            sim.free(c);                 // [4 F][4 L][12 F]: c merged with the tail
            Ch03Feedback.MERGE_MAP.check("free(a), free(c) of [a 4M][b 4M][c 4M][8M free]", "", b.segment().toString(),
                    "seg0[0..4)M 4M FREE seg0[4..8)M 4M LIVE seg0[8..20)M 12M FREE", sim::map);
            sim.free(b);                 // all three merge
            Ch03Feedback.MERGE_MAP.check("then free(b), the live block between them", "", b.segment().toString(),
                    "seg0[0..20)M 20M FREE", sim::map);
        }
    }

    @Nested
    @DisplayName("step 3.5: empty_cache")
    class EmptyCache {
        @Graded(step = "3.5", points = 2)
        @org.junit.jupiter.api.Test
        @DisplayName("empty_cache releases entirely free segments only, and returns the bytes released")
        void releasesWholeFreeSegmentsOnly() {
            Sim sim = new Sim(mib(40));
            Block a = sim.alloc(mib(12));            // segment 0
            sim.alloc(mib(12));                      // segment 1 (12 + 12 > 20)
            sim.free(a);
            var state = new Ch03Feedback.Empty(mib(8), mib(20));     // segment 1: 12 MiB live, 8 MiB free
            Ch03Feedback.EMPTY_CACHE.check("emptyCache() with segment 0 all free, segment 1 holding a live block",
                    state, sim.emptyCache(), mib(20), sim::map);
            assertThat(sim.reserved()).as("reserved after emptyCache(); %s", sim).isEqualTo(mib(20));
            assertThat(sim.gpu().free()).as("the driver's free bytes after emptyCache(); %s", sim).isEqualTo(mib(20));
            Ch03Feedback.EMPTY_AGAIN.check("a second emptyCache()", state, sim.emptyCache(), 0L, sim::map);
        }
    }

    /** Step 3.1's cases, in order: request, block. */
    static final long[][] ROUND_CASES = {
        {1, 512}, {100, 512}, {512, 512}, {513, 1024}, {300_000, 300_032}, {1_048_576, 1_048_576},
        {1_048_577, 2_097_152}, {1_572_864, 2_097_152}, {2_516_582, 4_194_304}, {3_145_729, 4_194_304},
        {5_242_881, 6_291_456}, {8_388_608, 8_388_608}};

    static Stream<Arguments> roundCases() { return Stream.of(ROUND_CASES).map(c -> Arguments.of(c[0], c[1])); }

    /**
     * Step 3.3's cases, in order: a remainder every rule splits off first, then each pool's
     * smallest legal remainder, one byte under it, and one legal in the other pool only.
     */
    static final Object[][] SPLIT_CASES = {
        {PoolKind.LARGE, 20_971_520L, 2_097_152L, true},
        {PoolKind.SMALL, 1_048_576L, 524_288L, true},
        {PoolKind.SMALL, 2_097_152L, 2_096_640L, true},
        {PoolKind.SMALL, 2_097_152L, 2_096_641L, false},
        {PoolKind.SMALL, 1_048_576L, 1_048_576L, false},
        {PoolKind.LARGE, 20_971_520L, 18_874_368L, true},
        {PoolKind.LARGE, 20_971_520L, 18_874_369L, false},
        {PoolKind.LARGE, 6_291_456L, 4_194_304L, true},
        {PoolKind.LARGE, 5_242_880L, 4_194_304L, false}};

    static Stream<Arguments> splitCases() { return Stream.of(SPLIT_CASES).map(Arguments::of); }

    /** Alternating 4 MiB and 6 MiB blocks over two segments; returns the 4 MiB ones. */
    static List<Block> fillAlternating(Sim sim) {
        var four = new java.util.ArrayList<Block>();
        for (int i = 0; i < 4; i++) {
            four.add(sim.alloc(mib(3) + 1));
            sim.alloc(mib(5) + 1);
        }
        return four;
    }
}
