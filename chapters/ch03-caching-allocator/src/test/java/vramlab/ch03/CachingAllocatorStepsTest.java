package vramlab.ch03;

import static org.assertj.core.api.Assertions.assertThat;
import static vramlab.units.Bytes.mib;

import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import vramlab.alloc.Block;
import vramlab.alloc.PoolKind;
import vramlab.alloc.Sim;
import vramlab.alloc.ToyPolicy;
import vramlab.quiz.Graded;

/**
 * The graded steps of chapter 3, on the toy policy. Each failure message carries the segment
 * map, so a student sees the state their code produced.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class CachingAllocatorStepsTest {
    private final ToyPolicy toy = new ToyPolicy();

    @Nested
    @DisplayName("step 3.1: rounding")
    class Rounding {
        @Graded(step = "3.1", points = 2)
        @ParameterizedTest(name = "{0} B rounds to {1} B")
        @CsvSource(textBlock = """
                1,        512
                100,      512
                512,      512
                513,      1024
                300000,   300032
                1048576,  1048576
                1048577,  2097152
                1572864,  2097152
                2516582,  4194304
                3145729,  4194304
                5242881,  6291456
                8388608,  8388608
                """)
        @DisplayName("512 B steps up to 1 MiB, 2 MiB steps above")
        void roundsLikeTheToy(long request, long block) {
            assertThat(toy.roundSize(request)).as("roundSize(%d)", request).isEqualTo(block);
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
            assertThat(again.toString()).as("%s", sim).isEqualTo("seg0[0..4)M 4M LIVE");
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
            assertThat(got.toString()).as("%s", sim).isEqualTo("seg0[8..12)M 4M LIVE");
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
            assertThat(small.pool()).as("%s", sim).isEqualTo(PoolKind.SMALL);
            assertThat(small.segment().id()).as("%s", sim).isEqualTo(1);
            assertThat(sim.reserved()).isEqualTo(mib(22));
        }
    }

    @Nested
    @DisplayName("step 3.3: the split rule")
    class Splitting {
        @Graded(step = "3.3", points = 2)
        @ParameterizedTest(name = "{0} pool: a {1} B block serving {2} B splits: {3}")
        @CsvSource(textBlock = """
                SMALL, 2097152,  2096640, true
                SMALL, 2097152,  2096641, false
                SMALL, 1048576,  1048576, false
                LARGE, 20971520, 18874368, true
                LARGE, 20971520, 18874369, false
                LARGE, 6291456,  4194304,  true
                LARGE, 5242880,  4194304,  false
                """)
        @DisplayName("a block splits only into a legal remainder: >= 512 B small, >= 2 MiB large")
        void splitRule(PoolKind pool, long block, long rounded, boolean splits) {
            assertThat(toy.shouldSplit(pool, block, rounded)).isEqualTo(splits);
        }

        @Graded(step = "3.3", points = 2)
        @org.junit.jupiter.api.Test
        @DisplayName("a first 4 MiB alloc leaves a 16 MiB free remainder in its 20 MiB segment")
        void firstAllocSplits() {
            Sim sim = new Sim(mib(40));
            Block a = sim.alloc(mib(4));
            assertThat(a.segment().toString()).as("%s", sim).isEqualTo("seg0[0..4)M 4M LIVE seg0[4..20)M 16M FREE");
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
            assertThat(b.segment().toString()).as("%s", sim)
                    .isEqualTo("seg0[0..4)M 4M FREE seg0[4..8)M 4M LIVE seg0[8..20)M 12M FREE");
            sim.free(b);                 // all three merge
            assertThat(b.segment().toString()).as("%s", sim).isEqualTo("seg0[0..20)M 20M FREE");
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
            assertThat(sim.emptyCache()).as("%s", sim).isEqualTo(mib(20));
            assertThat(sim.reserved()).isEqualTo(mib(20));
            assertThat(sim.gpu().free()).isEqualTo(mib(20));
            assertThat(sim.emptyCache()).as("a second call finds nothing").isZero();
        }
    }

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
