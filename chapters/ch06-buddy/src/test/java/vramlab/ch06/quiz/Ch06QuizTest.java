package vramlab.ch06.quiz;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import vramlab.quiz.Graded;
import vramlab.quiz.Quiz;

/**
 * Chapter 6's quiz, graded: each test marks one question on this run's answer sheet (the
 * reference sheet in the kit's build, labs/answers/ch06.txt under -Plab) against the key the
 * reference simulator computes for the student's variant.
 */
class Ch06QuizTest {
    @Test @Graded(step = "q6.1", points = 4) @Timeout(10)
    @DisplayName("q6.1: free bytes, the largest block before and after compaction, nr_free of a checkerboard")
    void checkerboard() { Quiz.check(Checkerboard.class); }

    @Test @Graded(step = "q6.2", points = 3) @Timeout(10)
    @DisplayName("q6.2: the buddy, the merged block and its buddy, one XOR away")
    void oneXorAway() { Quiz.check(OneXorAway.class); }

    @Test @Graded(step = "q6.3", points = 3) @Timeout(10)
    @DisplayName("q6.3: the blocks a sequence holds after its prompt and after decoding")
    void tokensToBlocks() { Quiz.check(TokensToBlocks.class); }

    @Test @Graded(step = "q6.4", points = 3) @Timeout(10)
    @DisplayName("q6.4: the block of one request, the bytes handed out for every size, and the waste")
    void roundingTax() { Quiz.check(RoundingTax.class); }

    @Test @Graded(step = "q6.5", points = 3) @Timeout(10)
    @DisplayName("q6.5: the null block's cost and an all-or-nothing admission")
    void nullBlock() { Quiz.check(NullBlock.class); }

    @Test @Graded(step = "q6.6", points = 4) @Timeout(10)
    @DisplayName("q6.6: which free blocks a new request takes, and why enough free bytes suffice")
    void anyFreeBlock() { Quiz.check(AnyFreeBlock.class); }

    @Test @Graded(step = "q6.7", points = 4) @Timeout(10)
    @DisplayName("q6.7: KV bytes per token and per block, and the blocks a budget buys")
    void kvBytesPerToken() { Quiz.check(KvBytesPerToken.class); }
}
