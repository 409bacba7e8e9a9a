package vramlab.ch02.quiz;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import vramlab.quiz.Graded;
import vramlab.quiz.Quiz;

/**
 * Chapter 2's quiz, graded: each test marks one question on this run's answer sheet (the
 * reference sheet in the kit's build, labs/answers/ch02.txt under -Plab) against the key the
 * reference simulator computes for the student's variant.
 */
class Ch02QuizTest {
    @Test @Graded(step = "q2.1", points = 4) @Timeout(10)
    @DisplayName("q2.1: what one cudaMalloc maps, in pages and in wasted bytes")
    void roundingTax() { Quiz.check(RoundingTax.class); }

    @Test @Graded(step = "q2.2", points = 3) @Timeout(10)
    @DisplayName("q2.2: tiny requests share one page, thousands of them")
    void tinyRequests() { Quiz.check(TinyRequests.class); }

    @Test @Graded(step = "q2.3", points = 3) @Timeout(10)
    @DisplayName("q2.3: per-tensor driver calls, the ones that synchronize, and their modelled time")
    void perTensorCalls() { Quiz.check(PerTensorCalls.class); }

    @Test @Graded(step = "q2.4", points = 3) @Timeout(10)
    @DisplayName("q2.4: through a caching allocator, later steps make no driver call")
    void cachedSteps() { Quiz.check(CachedSteps.class); }

    @Test @Graded(step = "q2.5", points = 4) @Timeout(10)
    @DisplayName("q2.5: cuMemMap grants no access until cuMemSetAccess")
    void mapThenAccess() { Quiz.check(MapThenAccess.class); }

    @Test @Graded(step = "q2.6", points = 4) @Timeout(10)
    @DisplayName("q2.6: a mapping is unmapped whole, and a released handle lives until then")
    void wholeUnmap() { Quiz.check(WholeUnmap.class); }
}
