package vramlab.ch05.quiz;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import vramlab.quiz.Graded;
import vramlab.quiz.Quiz;

/**
 * Chapter 5's quiz, graded: each test marks one question on this run's answer sheet (the
 * reference sheet in the kit's build, labs/answers/ch05.txt under -Plab) against the key the
 * reference simulator, PyTorch's policy with expandable_segments:True, computes for the
 * student's variant.
 */
class Ch05QuizTest {
    @Test @Graded(step = "q5.1", points = 3) @Timeout(10)
    @DisplayName("q5.1: a first small and large tensor reserve a page of each pool's size")
    void twoPools() { Quiz.check(TwoPools.class); }

    @Test @Graded(step = "q5.2", points = 4) @Timeout(10)
    @DisplayName("q5.2: one large tensor's block and reservation, with and without expandable segments")
    void blockSizeTwoWays() { Quiz.check(BlockSizeTwoWays.class); }

    @Test @Graded(step = "q5.3", points = 4) @Timeout(10)
    @DisplayName("q5.3: memory_stats() counts mapped pages as reserved bytes, not as segments")
    void mappingsAreNotSegments() { Quiz.check(MappingsAreNotSegments.class); }

    @Test @Graded(step = "q5.4", points = 4) @Timeout(10)
    @DisplayName("q5.4: freeing keeps the pages; empty_cache unmaps the wholly free ones")
    void whenPagesGoBack() { Quiz.check(WhenPagesGoBack.class); }

    @Test @Graded(step = "q5.5", points = 4) @Timeout(10)
    @DisplayName("q5.5: holes smaller than a page stay holes under expandable segments")
    void holesInsidePages() { Quiz.check(HolesInsidePages.class); }
}
