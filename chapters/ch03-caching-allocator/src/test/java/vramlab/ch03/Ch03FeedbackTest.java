package vramlab.ch03;

import static org.assertj.core.api.Assertions.assertThat;
import static vramlab.units.Bytes.MiB;
import static vramlab.units.Bytes.alignUp;
import static vramlab.units.Bytes.mib;

import java.util.Comparator;
import java.util.List;
import java.util.TreeSet;
import java.util.function.LongUnaryOperator;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import vramlab.alloc.Block;
import vramlab.alloc.HandBuilt;
import vramlab.alloc.PoolKind;
import vramlab.quiz.KitPaths;
import vramlab.quiz.feedback.FeedbackContract;

/**
 * Each wrong answer chapter 3's feedback knows, fed to it: where a step is a function, by a
 * wrong body run over the graded test's own cases (its first failing case is what a student
 * sees); otherwise by the state that wrong body leaves, worked out by hand.
 */
@DisplayName("chapter 3's feedback recognises the common wrong answers")
class Ch03FeedbackTest {
    static final FeedbackContract CONTRACT = new FeedbackContract();

    @AfterAll
    static void everyMistakeIsFed() { CONTRACT.everyMistakeExercised(Ch03Feedback.all()); }

    @Test
    @DisplayName("every step has a recognised wrong answer, and rereads the section its marker names")
    void everyStep() {
        FeedbackContract.everyStepHasFeedback(KitPaths.root(), 3, Ch03Feedback.all());
        FeedbackContract.sectionsAreTheMarkers(KitPaths.root(), 3, Ch03Feedback.all());
    }

    @Nested
    @DisplayName("3.1 rounding, from wrong bodies of roundSize")
    class Rounding {
        /** Runs a wrong body over the graded cases and feeds the first case it gets wrong. */
        String wrong(LongUnaryOperator body, String looksLike) {
            for (long[] c : CachingAllocatorStepsTest.ROUND_CASES) {
                long got = body.applyAsLong(c[0]);
                if (got != c[1]) return CONTRACT.recognises(Ch03Feedback.ROUND, c[0], c[1], got, looksLike);
            }
            throw new AssertionError("the wrong body passed every case");
        }

        @Test
        @DisplayName("rounding down, no rounding, the 1 MiB boundary, and the wrong step on either side")
        void wrongBodies() {
            assertThat(wrong(n -> n <= MiB ? n / 512 * 512 : n / mib(2) * mib(2), "rounding down"))
                    .startsWith("the call: expected 512 B but was 0 B");
            wrong(n -> n, "no rounding at all");
            wrong(n -> n < MiB ? alignUp(n, 512) : alignUp(n, mib(2)), "the pool boundary off by one (1 MiB counted as large)");
            wrong(n -> alignUp(n, mib(2)), "2 MiB steps below 1 MiB");
            wrong(n -> alignUp(n, 512), "512 B steps above 1 MiB");
        }
    }

    @Nested
    @DisplayName("3.3 the split rule, from wrong bodies of shouldSplit")
    class Splitting {
        interface SplitBody { boolean splits(PoolKind pool, long block, long rounded); }

        void wrong(SplitBody body, String looksLike) {
            for (Object[] c : CachingAllocatorStepsTest.SPLIT_CASES) {
                var asked = new Ch03Feedback.Split((PoolKind) c[0], (long) c[1], (long) c[2]);
                boolean got = body.splits(asked.pool(), asked.block(), asked.rounded());
                if (got != (boolean) c[3]) {
                    CONTRACT.recognises(Ch03Feedback.SPLIT, asked, (boolean) c[3], got, looksLike);
                    return;
                }
            }
            throw new AssertionError("the wrong body passed every case");
        }

        static long min(PoolKind p) { return p == PoolKind.SMALL ? 512 : mib(2); }

        @Test
        @DisplayName("> for >=, the other pool's minimum, any remainder, and never")
        void wrongBodies() {
            wrong((p, b, r) -> b - r > min(p), "a remainder of exactly the minimum refused (> where >= belongs)");
            wrong((p, b, r) -> b - r >= min(p == PoolKind.SMALL ? PoolKind.LARGE : PoolKind.SMALL),
                    "the other pool's minimum");
            wrong((p, b, r) -> b - r > 0, "splitting into an illegal remainder");
            wrong((p, b, r) -> false, "never splitting");
        }

        @Test
        @DisplayName("a segment handed out whole")
        void notSplitOnTheSim() {
            CONTRACT.recognises(Ch03Feedback.SPLIT_MAP, "", "seg0[0..4)M 4M LIVE seg0[4..20)M 16M FREE",
                    "seg0[0..20)M 20M LIVE", "the block not split (the whole segment handed out)");
        }
    }

    @Nested
    @DisplayName("3.2 finding a block, from wrong bodies of findFreeBlock on the graded test's free set")
    class Finding {
        interface FindBody { Block find(TreeSet<Block> pool, int stream, long rounded); }

        final List<Block> s0 = HandBuilt.segment(0, 1L << 40, 2, 6, 2, 4, 6);
        final List<Block> s1 = HandBuilt.segment(1, 2L << 40, 2, 4, 14);
        final TreeSet<Block> pool = HandBuilt.pool(List.of(s0.get(1), s0.get(3), s1.get(1)));

        void wrong(FindBody body, int stream, long rounded, Block right, String looksLike) {
            var asked = new Ch03Feedback.Find(List.copyOf(pool), stream, rounded);
            CONTRACT.recognises(Ch03Feedback.FIND, asked, right, body.find(pool, stream, rounded), looksLike);
        }

        @Test
        @DisplayName("first fit, too small, another stream's, the higher address, exact sizes only")
        void wrongBodies() {
            wrong((p, st, r) -> p.stream().filter(b -> b.stream() == st && b.size() >= r)
                    .min(Comparator.comparingLong(Block::address)).orElse(null), 0, mib(3), s0.get(3),
                    "first fit, not best fit");
            wrong((p, st, r) -> p.stream().filter(b -> b.size() <= r).max(Comparator.comparingLong(Block::size))
                    .orElse(null), 0, mib(5), s0.get(1), "a block too small for the request");
            wrong((p, st, r) -> p.stream().filter(b -> b.size() >= r).findFirst().orElse(null), 1, mib(1), null,
                    "another stream's block");
            wrong((p, st, r) -> p.stream().filter(b -> b.stream() == st && b.size() >= r).min(Comparator
                    .comparingLong(Block::size).thenComparing(Comparator.comparingLong(Block::address).reversed()))
                    .orElse(null), 0, mib(3), s0.get(3),
                    "the higher address among equal sizes");
            wrong((p, st, r) -> p.stream().filter(b -> b.size() == r).findFirst().orElse(null), 0, mib(3), s0.get(3),
                    "no block found although one fits");
        }

        @Test
        @DisplayName("on the simulator: a new segment, first fit, and a small request in a large block")
        void onTheSim() {
            CONTRACT.recognises(Ch03Feedback.FIND_MAP, "", "seg0[8..12)M 4M LIVE", "seg1[0..4)M 4M LIVE",
                    "a new segment although a cached block fits");
            CONTRACT.recognises(Ch03Feedback.FIND_MAP, "", "seg0[8..12)M 4M LIVE", "seg0[0..4)M 4M LIVE",
                    "first fit, not best fit");
            CONTRACT.recognises(Ch03Feedback.FIND_MAP, "", "seg1 SMALL", "seg0 LARGE",
                    "a small request served from the large pool");
        }
    }

    @Nested
    @DisplayName("3.4 merging, from the blocks a wrong merge leaves ([2 L][6 F][2 ->F][4 F][6 L])")
    class Merging {
        final Ch03Feedback.Merge freeing = new Ch03Feedback.Merge("seg0 8M+2M", mib(20));

        @Test
        @DisplayName("one side, no merge, across a live block, across segments, neighbours left free")
        void wrongMerges() {
            CONTRACT.recognises(Ch03Feedback.MERGE, freeing, "seg0 2M+12M", "seg0 2M+8M", "merged with one side only");
            CONTRACT.recognises(Ch03Feedback.MERGE, freeing, "seg0 2M+12M", "seg0 8M+2M", "not merged at all");
            CONTRACT.recognises(Ch03Feedback.MERGE, freeing, "seg0 2M+12M", "seg0 0M+20M", "merged across a live block");
            CONTRACT.recognises(Ch03Feedback.MERGE, new Ch03Feedback.Merge("seg0 2M+18M", mib(20)), "seg0 2M+18M",
                    "seg0 2M+22M", "merged across segments");
            CONTRACT.recognises(Ch03Feedback.MERGED_AWAY, freeing, 0, 2, "absorbed neighbours left in the free set");
        }

        @Test
        @DisplayName("on the simulator: two free blocks side by side, and a merge across the live block")
        void onTheSim() {
            String right = "seg0[0..4)M 4M FREE seg0[4..8)M 4M LIVE seg0[8..20)M 12M FREE";
            CONTRACT.recognises(Ch03Feedback.MERGE_MAP, "", right,
                    "seg0[0..4)M 4M FREE seg0[4..8)M 4M LIVE seg0[8..12)M 4M FREE seg0[12..20)M 8M FREE",
                    "two free blocks left side by side (a free did not merge)");
            CONTRACT.recognises(Ch03Feedback.MERGE_MAP, "", right, "seg0[0..20)M 20M FREE", "merged across a live block");
        }
    }

    @Nested
    @DisplayName("3.5 empty_cache, from what a wrong body releases (segment 0 free, segment 1 12 MiB live)")
    class EmptyCache {
        final Ch03Feedback.Empty state = new Ch03Feedback.Empty(mib(8), mib(20));

        @Test
        @DisplayName("a live segment, free blocks of a live segment, nothing, and the same segment twice")
        void wrongReleases() {
            CONTRACT.recognises(Ch03Feedback.EMPTY_CACHE, state, mib(20), mib(40), "a segment with a live block released");
            CONTRACT.recognises(Ch03Feedback.EMPTY_CACHE, state, mib(20), mib(28),
                    "free blocks released from a live segment");
            CONTRACT.recognises(Ch03Feedback.EMPTY_CACHE, state, mib(20), 0L, "nothing released");
            CONTRACT.recognises(Ch03Feedback.EMPTY_AGAIN, state, 0L, mib(20), "a segment released twice");
        }
    }
}
