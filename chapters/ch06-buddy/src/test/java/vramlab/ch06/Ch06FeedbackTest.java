package vramlab.ch06;

import java.util.List;
import java.util.function.LongToIntFunction;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import vramlab.quiz.KitPaths;
import vramlab.quiz.feedback.FeedbackContract;

/**
 * Each wrong answer chapter 6's feedback knows, fed to it: the order, the buddy and the block
 * count by wrong bodies run over the graded cases; the maps, buddyinfo and queues by what a
 * wrong split, merge or free leaves, worked out by hand.
 */
@DisplayName("chapter 6's feedback recognises the common wrong answers")
class Ch06FeedbackTest {
    static final FeedbackContract CONTRACT = new FeedbackContract();

    @AfterAll
    static void everyMistakeIsFed() { CONTRACT.everyMistakeExercised(Ch06Feedback.all()); }

    @Test
    @DisplayName("every step has a recognised wrong answer, and rereads the section its marker names")
    void everyStep() {
        FeedbackContract.everyStepHasFeedback(KitPaths.root(), 6, Ch06Feedback.all());
        FeedbackContract.sectionsAreTheMarkers(KitPaths.root(), 6, Ch06Feedback.all());
    }

    static void order(LongToIntFunction body, String looksLike) {
        for (long[] c : GradedStepsTest.ORDER_CASES) {
            int got = body.applyAsInt(c[0]);
            if (got != c[1]) {
                CONTRACT.recognises(Ch06Feedback.ORDER_FOR, c[0], (int) c[1], got, looksLike);
                return;
            }
        }
        throw new AssertionError("the wrong body passed every case");
    }

    interface BuddyBody { long buddyOf(long offset, int order); }

    static void buddy(BuddyBody body, String looksLike) {
        for (long[] c : GradedStepsTest.BUDDY_CASES) {
            long got = body.buddyOf(c[0], (int) c[1]);
            if (got != c[2]) {
                CONTRACT.recognises(Ch06Feedback.BUDDY_OF, new Ch06Feedback.Buddy(c[0], (int) c[1]), c[2], got, looksLike);
                return;
            }
        }
        throw new AssertionError("the wrong body passed every case");
    }

    static void blocks(LongToIntFunction body, String looksLike) {
        for (long[] c : GradedStepsTest.BLOCKS_CASES) {
            int got = body.applyAsInt(c[0]);
            if (got != c[1]) {
                CONTRACT.recognises(Ch06Feedback.BLOCKS_NEEDED, c[0], (int) c[1], got, looksLike);
                return;
            }
        }
        throw new AssertionError("the wrong body passed every case");
    }

    @Test
    @DisplayName("6.1, 6.2, 6.6: wrong bodies of orderFor, buddyOf and blocksNeeded")
    void functions() {
        order(s -> 64 - Long.numberOfLeadingZeros(s - 1), "below the minimum block");
        order(s -> Math.max(20, 63 - Long.numberOfLeadingZeros(s)), "rounding down (floor of log2)");
        order(s -> Math.max(20, 64 - Long.numberOfLeadingZeros(s)), "an exact power of two doubled");
        buddy((o, k) -> o + (1L << k), "the block's size added (the buddy is not always above)");
        buddy((o, k) -> o - (1L << k), "the block's size subtracted");
        buddy((o, k) -> o ^ (1L << (k + 1)), "the bit of the wrong order");
        blocks(n -> (int) (n / 16), "rounding down (n / 16)");
        blocks(n -> (int) Math.max(1, (n + 15) / 16), "zero tokens given a block");
        blocks(n -> (int) ((n + 16) / 16), "a block too many for a multiple of 16");
    }

    @Test
    @DisplayName("6.3, 6.4, 6.5: the upper half kept, no split, a live buddy merged, merging stopped or missing, buddyinfo")
    void maps() {
        String split = "[A 1][F 1][F 2][F 4][F 8]";
        CONTRACT.recognises(Ch06Feedback.SPLIT_MAP, "", split, "[F 8][F 4][F 2][F 1][A 1]", "the upper half kept");
        CONTRACT.recognises(Ch06Feedback.SPLIT_MAP, "", split, "[A 16]", "the block not split");
        CONTRACT.recognises(Ch06Feedback.MERGE_MAP, "x", "[F 1][A 1][A 2][F 4][F 8]", "[F 2][A 2][F 4][F 8]",
                "merged with a buddy that is still live");
        CONTRACT.recognises(Ch06Feedback.MERGE_MAP, "z", "[F 16]", "[F 4][F 4][F 8]", "stopped after one merge");
        CONTRACT.recognises(Ch06Feedback.MERGE_MAP, "y", "[F 2][A 2][F 4][F 8]", "[F 1][F 1][A 2][F 4][F 8]",
                "not merged at all");
        String info = "Node 0, zone   Normal      0      0      1      1      0 \n";
        CONTRACT.recognises(Ch06Feedback.BUDDYINFO, "", info, "Node 0, zone   Normal      0      1      1      0      0 \n",
                "the orders printed largest first");
        CONTRACT.recognises(Ch06Feedback.BUDDYINFO, "", info, info.strip() + " ", "the line without its newline");
        CONTRACT.recognises(Ch06Feedback.BUDDYINFO, "", info, "Node 0 zone Normal 0 0 1 1 0\n",
                "the numbers right, the layout not");
    }

    @Test
    @DisplayName("6.7, 6.8: a partial admission, new tokens counted alone, allocation order, the front, freed twice")
    void kv() {
        CONTRACT.recognises(Ch06Feedback.TABLES, "refused", List.of(), List.of(3),
                "blocks taken before refusing (not all or nothing)");
        CONTRACT.recognises(Ch06Feedback.ADMITTED, "too big", false, true, "a request admitted without enough free blocks");
        CONTRACT.recognises(Ch06Feedback.ADMITTED, "fits", true, false, "a request refused though its blocks are free");
        CONTRACT.recognises(Ch06Feedback.TABLES, "grown", List.of(1, 2), List.of(1, 2, 3), "the new tokens counted alone");
        CONTRACT.recognises(Ch06Feedback.FREE_QUEUE, "3", List.of(3, 2, 1, 4, 5), List.of(1, 2, 3, 4, 5),
                "freed in allocation order");
        CONTRACT.recognises(Ch06Feedback.DOUBLE_FREE, "", "IllegalArgumentException", "returned normally",
                "a request freed twice");
    }
}
