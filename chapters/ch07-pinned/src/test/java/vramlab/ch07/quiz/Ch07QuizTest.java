package vramlab.ch07.quiz;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import vramlab.quiz.Graded;
import vramlab.quiz.Quiz;

/**
 * Chapter 7's quiz, graded: each test marks one question on this run's answer sheet (the
 * reference sheet in the kit's build, labs/answers/ch07.txt under -Plab) against the key the
 * reference simulator computes for the student's variant.
 */
class Ch07QuizTest {
    @Test @Graded(step = "q7.1", points = 2) @Timeout(10)
    @DisplayName("q7.1: what pin_memory=True and cudaHostRegister pin for a buffer in gigabytes")
    void roundingCost() { Quiz.check(RoundingCost.class); }

    @Test @Graded(step = "q7.2", points = 2) @Timeout(10)
    @DisplayName("q7.2: which requests reuse a freed block, and what three kept requests own")
    void exactSizeReuse() { Quiz.check(ExactSizeReuse.class); }

    @Test @Graded(step = "q7.3", points = 3) @Timeout(10)
    @DisplayName("q7.3: owned and checked out after del, and what each empty call gives back")
    void ownedNotCheckedOut() { Quiz.check(OwnedNotCheckedOut.class); }

    @Test @Graded(step = "q7.4", points = 3) @Timeout(10)
    @DisplayName("q7.4: the reserve segment stays pinned, and its bump pointer never moves back")
    void reserveNeverShrinks() { Quiz.check(ReserveNeverShrinks.class); }

    @Test @Graded(step = "q7.5", points = 3) @Timeout(10)
    @DisplayName("q7.5: a captured staging buffer and an ordinary batch after empty_host_cache")
    void graphKeepsItsBlock() { Quiz.check(GraphKeepsItsBlock.class); }

    @Test @Graded(step = "q7.6", points = 3) @Timeout(10)
    @DisplayName("q7.6: a block freed with its copy queued is reused only once the event retires")
    void queuedCopyHoldsTheBlock() { Quiz.check(QueuedCopyHoldsTheBlock.class); }
}
