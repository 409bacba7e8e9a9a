package vramlab.ch08.quiz;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import vramlab.quiz.Graded;
import vramlab.quiz.Quiz;

/**
 * Chapter 8's quiz, graded: each test marks one question on this run's answer sheet (the
 * reference sheet in the kit's build, labs/answers/ch08.txt under -Plab) against the key the
 * reference simulator computes for the student's variant.
 */
class Ch08QuizTest {
    @Test @Graded(step = "q8.1", points = 3) @Timeout(10)
    @DisplayName("q8.1: a request's size class, a block's size, and the cudaMalloc calls of slabs and large segments")
    void slabsAndClasses() { Quiz.check(SlabsAndClasses.class); }

    @Test @Graded(step = "q8.2", points = 2) @Timeout(10)
    @DisplayName("q8.2: an entry's points on a workload, and its index once it runs out of memory on another")
    void pointsOfAnEntry() { Quiz.check(PointsOfAnEntry.class); }
}
