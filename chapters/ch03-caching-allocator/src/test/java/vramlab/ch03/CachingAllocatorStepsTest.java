package vramlab.ch03;

import static org.assertj.core.api.Assertions.assertThat;
import static vramlab.units.Bytes.mib;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.ToLongFunction;
import java.util.stream.Stream;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import vramlab.alloc.Block;
import vramlab.alloc.OomReport;
import vramlab.alloc.Policy;
import vramlab.alloc.PoolKind;
import vramlab.alloc.PyTorchPolicy;
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

    /**
     * Step 3.2's tests make their holes by splitting alone (no free, so no merge: step 3.4) and
     * split by {@link #TOY_BEFORE_SPLIT}'s rule (not step 3.3's), so they pass as soon as steps
     * 3.1 and 3.2 are written.
     */
    @Nested
    @DisplayName("step 3.2: finding a block")
    class Finding {
        @Graded(step = "3.2", points = 3)
        @org.junit.jupiter.api.Test
        @DisplayName("an exact-size hole is reused, and among equal holes the lowest address wins")
        void exactFitLowestFirst() {
            Sim sim = new Sim(mib(60), TOY_BEFORE_SPLIT);
            sim.alloc(mib(12));                   // seg0 [12 L][8 F]
            sim.alloc(mib(14));                   // seg1 [14 L][6 F]
            sim.alloc(mib(14));                   // seg2 [14 L][6 F]
            Block again = sim.alloc(mib(5) + 1);  // 6 MiB: seg1's hole, not seg2's, nor seg0's lower 8 MiB
            Ch03Feedback.FIND_MAP.check("alloc(5 MiB + 1 B) beside two 6 MiB holes and a lower 8 MiB one", "",
                    again.toString(), "seg1[14..20)M 6M LIVE", sim::map);
        }

        @Graded(step = "3.2", points = 3)
        @org.junit.jupiter.api.Test
        @DisplayName("without an exact size, the smallest free block that fits is taken")
        void bestFit() {
            Sim sim = new Sim(mib(60), TOY_BEFORE_SPLIT);
            Block keep0 = sim.alloc(mib(18));     // seg0 [18 L][2 F]
            Block keep1 = sim.alloc(mib(12));     // seg1 [12 L][8 F]
            Block keep2 = sim.alloc(mib(14));     // seg2 [14 L][6 F]
            Block got = sim.alloc(mib(3) + 1);    // 4 MiB: the 6 MiB hole, not the 2 MiB (too small) nor the 8 MiB
            Ch03Feedback.FIND_MAP.check("alloc(3 MiB + 1 B) with holes of 2 MiB, 8 MiB and 6 MiB", "", got.toString(),
                    "seg2[14..18)M 4M LIVE", sim::map);
            assertThat(List.of(keep0, keep1, keep2)).allMatch(Block::isAllocated);
        }

        @Graded(step = "3.2", points = 2)
        @org.junit.jupiter.api.Test
        @DisplayName("pools never mix: a small request starts a small segment beside a large hole")
        void poolsNeverMix() {
            Sim sim = new Sim(mib(40), TOY_BEFORE_SPLIT);
            sim.alloc(mib(4));                    // seg0 [4 L][16 F]
            sim.alloc(mib(4));                    // seg0 [4 L][4 L][12 F]: the hole is reused, 12 MiB left
            Block small = sim.alloc(900 * 1024);
            assertThat(small.pool()).as("the pool of alloc(900 KiB); %s", sim).isEqualTo(PoolKind.SMALL);
            Ch03Feedback.FIND_MAP.check("alloc(900 KiB) beside a 12 MiB large-pool hole", "",
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
        void releasesWholeFreeSegmentsOnly() { releasesWholeFreeSegmentsOnly(Sim::emptyCache); }

        /**
         * The test on {@code emptyCache}: the allocator's own, or (in the kit's tests of this
         * test) a wrong body. A segment is whole when its free block has no neighbour on EITHER
         * side, so the live block stands after a free one as well as before it.
         */
        static void releasesWholeFreeSegmentsOnly(ToLongFunction<Sim> emptyCache) {
            Sim sim = new Sim(mib(40));
            Block a = sim.alloc(mib(12));            // segment 0
            Block b = sim.alloc(mib(12));            // segment 1 (12 + 12 > 20)
            sim.free(a);
            var state = new Ch03Feedback.Empty(mib(8), mib(20));     // segment 1: 12 MiB live, 8 MiB free
            Ch03Feedback.EMPTY_CACHE.check("emptyCache() with segment 0 all free, segment 1 holding a live block",
                    state, emptyCache.applyAsLong(sim), mib(20), sim::map);
            assertThat(sim.reserved()).as("reserved after emptyCache(); %s", sim).isEqualTo(mib(20));
            assertThat(sim.gpu().free()).as("the driver's free bytes after emptyCache(); %s", sim).isEqualTo(mib(20));
            Ch03Feedback.EMPTY_AGAIN.check("a second emptyCache()", state, emptyCache.applyAsLong(sim), 0L, sim::map);
            sim.alloc(mib(8));                       // fills segment 1's hole: [12 b][8 live]
            sim.free(sim.alloc(mib(20)));            // segment 2, all free: emptyCache reaches step 3.5 only
                                                     // when a block was cached whole (WholeSegmentRelease.run)
            sim.free(b);                             // segment 1: [12 free][8 live], a free block with no prev
            Ch03Feedback.EMPTY_CACHE.check("emptyCache() with segment 2 all free, segment 1's first block free and its"
                    + " last live", new Ch03Feedback.Empty(mib(12), mib(20)), emptyCache.applyAsLong(sim), mib(20), sim::map);
            assertThat(sim.reserved()).as("reserved after emptyCache(); %s", sim).isEqualTo(mib(20));
        }
    }

    /**
     * The toy policy with PyTorch's own split rule ({@link PyTorchPolicy#shouldSplit}, not a lab
     * step) in place of step 3.3's. On the toy's sizes the two split exactly the same blocks (a
     * small remainder of 512 B or more; a large remainder is whole 2 MiB, so more than 1 MiB is
     * 2 MiB or more: {@code ToySplitRulesAgreeTest} compares them), so step 3.2's tests need no later step.
     */
    static final Policy TOY_BEFORE_SPLIT = new Policy() {
        private final ToyPolicy toy = new ToyPolicy();
        private final PyTorchPolicy pytorch = new PyTorchPolicy();

        @Override public String name() { return toy.name(); }
        @Override public long roundSize(long requested) { return toy.roundSize(requested); }
        @Override public PoolKind poolFor(long rounded) { return toy.poolFor(rounded); }
        @Override public long segmentSize(long rounded) { return toy.segmentSize(rounded); }
        @Override public boolean shouldSplit(PoolKind pool, long block, long rounded) {
            return pytorch.shouldSplit(pool, block, rounded);
        }
        @Override public String oomMessage(OomReport report) { return toy.oomMessage(report); }
        @Override public String toString() { return toy + ", with PyTorch's split rule"; }
    };

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
}
