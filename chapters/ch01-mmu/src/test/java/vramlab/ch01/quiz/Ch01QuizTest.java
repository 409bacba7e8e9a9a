package vramlab.ch01.quiz;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import vramlab.quiz.Graded;
import vramlab.quiz.Quiz;

/**
 * Chapter 1's quiz, graded: each test marks one question on this run's answer sheet (the
 * reference sheet in the kit's build, labs/answers/ch01.txt under -Plab) against the key the
 * reference simulator computes for the student's variant.
 */
class Ch01QuizTest {
    @Test @Graded(step = "q1.1", points = 3) @Timeout(10)
    @DisplayName("q1.1: the index each level of the walk reads for one address")
    void walkIndices() { Quiz.check(WalkIndices.class); }

    @Test @Graded(step = "q1.2", points = 3) @Timeout(10)
    @DisplayName("q1.2: what one entry of a level spans, and what one of its tables costs")
    void levelSpan() { Quiz.check(LevelSpan.class); }

    @Test @Graded(step = "q1.3", points = 5) @Timeout(10)
    @DisplayName("q1.3: a reservation takes no memory and no table; a map takes frames and tables; VA ends at 128 TiB")
    void reserveIsFree() { Quiz.check(ReserveIsFree.class); }

    @Test @Graded(step = "q1.4", points = 3) @Timeout(10)
    @DisplayName("q1.4: nvidia-smi charges a process its mappings plus its context")
    void smiNumber() { Quiz.check(SmiNumber.class); }

    @Test @Graded(step = "q1.5", points = 3) @Timeout(10)
    @DisplayName("q1.5: small pages cost a table per 2 MiB and many more TLB entries")
    void smallPagesCost() { Quiz.check(SmallPagesCost.class); }

    @Test @Graded(step = "q1.6", points = 3) @Timeout(10)
    @DisplayName("q1.6: a peer PTE carries the peer aperture, a slot, and the owner's frame")
    void peerAperture() { Quiz.check(PeerAperture.class); }
}
