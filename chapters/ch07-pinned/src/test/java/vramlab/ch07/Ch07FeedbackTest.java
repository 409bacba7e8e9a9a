package vramlab.ch07;

import static vramlab.units.Bytes.MiB;

import java.util.function.LongUnaryOperator;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import vramlab.pinned.CachingHostAllocator.Fate;
import vramlab.quiz.KitPaths;
import vramlab.quiz.feedback.FeedbackContract;

/**
 * Each wrong answer chapter 7's feedback knows, fed to it: rounding by wrong bodies of
 * {@code roundSize} run over the graded cases; fates, reuse and emptying by what a wrong body
 * leaves, worked out by hand.
 */
@DisplayName("chapter 7's feedback recognises the common wrong answers")
class Ch07FeedbackTest {
    static final FeedbackContract CONTRACT = new FeedbackContract();

    @AfterAll
    static void everyMistakeIsFed() { CONTRACT.everyMistakeExercised(Ch07Feedback.all()); }

    @Test
    @DisplayName("every step has a recognised wrong answer, and rereads the section its marker names")
    void everyStep() {
        FeedbackContract.everyStepHasFeedback(KitPaths.root(), 7, Ch07Feedback.all());
        FeedbackContract.sectionsAreTheMarkers(KitPaths.root(), 7, Ch07Feedback.all());
    }

    static void round(LongUnaryOperator body, String looksLike) {
        for (long[] c : PinnedStepsTest.ROUND_CASES) {
            long got = body.applyAsLong(c[0]);
            if (got != c[1]) {
                CONTRACT.recognises(Ch07Feedback.ROUND_SIZE, c[0], c[1], got, looksLike);
                return;
            }
        }
        throw new AssertionError("the wrong body passed every case");
    }

    @Test
    @DisplayName("7.1: rounding down, no rounding, powers of two doubled")
    void rounding() {
        round(Long::highestOneBit, "rounding down to a power of two");
        round(n -> n, "no rounding");
        round(n -> Long.highestOneBit(n) * 2, "an exact power of two doubled");
    }

    @Test
    @DisplayName("7.2 to 7.4: a captured or oversize block cached, reuse too early or never, emptying too much")
    void states() {
        CONTRACT.recognises(Ch07Feedback.FATE, "captured", Fate.PARK, Fate.CACHE, "a captured block recycled");
        CONTRACT.recognises(Ch07Feedback.FATE, "captured, no copy used", Fate.CACHE, Fate.PARK,
                "an unused captured block parked");
        CONTRACT.recognises(Ch07Feedback.FATE, "ordinary, used by a copy", Fate.CACHE, Fate.PARK,
                "an ordinary block parked");
        CONTRACT.recognises(Ch07Feedback.OWNED, "oversize", 0L, 64 * MiB, "an oversize block cached");
        CONTRACT.recognises(Ch07Feedback.OWNED, "at the limit", 32 * MiB, 0L, "a block of exactly the limit released");
        CONTRACT.recognises(Ch07Feedback.RELEASES, "oversize", 1L, 0L, "an oversize block cached");
        CONTRACT.recognises(Ch07Feedback.HANDED_OUT, "parked", false, true, "a captured block recycled");
        CONTRACT.recognises(Ch07Feedback.HANDED_OUT, "cached", true, false, "an ordinary block parked");
        CONTRACT.recognises(Ch07Feedback.EMPTIED, "owned", MiB, 0L, "a block still in use freed");
        CONTRACT.recognises(Ch07Feedback.REUSE, "in flight", false, true, "reused before its copy finished");
        CONTRACT.recognises(Ch07Feedback.REUSE, "retired", true, false, "never made available after its events retired");
        CONTRACT.recognises(Ch07Feedback.EMPTIED, "freed", 258 * MiB, 259 * MiB, "a block still in use freed");
        CONTRACT.recognises(Ch07Feedback.EMPTIED, "calls", 2L, 4L, "the free lists kept (blocks freed twice)");
    }
}
