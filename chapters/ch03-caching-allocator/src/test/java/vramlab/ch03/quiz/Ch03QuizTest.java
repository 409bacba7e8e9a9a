package vramlab.ch03.quiz;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import vramlab.quiz.Graded;
import vramlab.quiz.Quiz;

/**
 * Chapter 3's quiz, graded: each test marks one question on this run's answer sheet (the
 * reference sheet in the kit's build, labs/answers/ch03.txt under -Plab) against the key the
 * reference simulator computes for the student's variant.
 */
class Ch03QuizTest {
    @Test @Graded(step = "q3.1", points = 4) @Timeout(10)
    @DisplayName("q3.1: the block size and pool of four requests under the toy policy")
    void predictTheBlock() { Quiz.check(PredictTheBlock.Toy.class); }

    @Test @Graded(step = "q3.2", points = 4) @Timeout(10)
    @DisplayName("q3.2: the counters and the map after a split and a merge (the toy policy)")
    void splitAndMerge() { Quiz.check(SplitAndMerge.class); }

    @Test @Graded(step = "q3.3", points = 3) @Timeout(10)
    @DisplayName("q3.3: requested, allocated and reserved after an alternating fill (the toy policy)")
    void roundingTax() { Quiz.check(RoundingTax.class); }

    @Test @Graded(step = "q3.4", points = 3) @Timeout(10)
    @DisplayName("q3.4: a small request does not use a large hole")
    void poolsNeverMix() { Quiz.check(PoolsNeverMix.class); }

    @Test @Graded(step = "q3.5", points = 3) @Timeout(10)
    @DisplayName("q3.5: which promise forbids compaction, and what works instead")
    void noCompaction() { Quiz.check(NoCompaction.class); }

    @Test @Graded(step = "q3.6", points = 4) @Timeout(10)
    @DisplayName("q3.6: the block size and pool of q3.1's requests under PyTorch's real policy")
    void predictTheBlockPyTorch() { Quiz.check(PredictTheBlock.PyTorch.class); }

    @Test @Graded(step = "q3.7", points = 3) @Timeout(10)
    @DisplayName("q3.7: q3.3's fill under PyTorch's real policy")
    void roundingTaxPyTorch() { Quiz.check(RoundingTax.PyTorch.class); }

    @Test @Graded(step = "q3.8", points = 4) @Timeout(10)
    @DisplayName("q3.8: q3.2's split and merge under PyTorch's real policy")
    void splitAndMergePyTorch() { Quiz.check(SplitAndMerge.PyTorch.class); }
}
