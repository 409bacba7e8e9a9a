package vramlab.ch04.quiz;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import vramlab.quiz.Graded;
import vramlab.quiz.Quiz;

/**
 * Chapter 4's quiz, graded: each test marks one question on this run's answer sheet against
 * the key the reference simulator computes for the student's variant.
 */
class Ch04QuizTest {
    @Test @Graded(step = "q4.1", points = 5) @Timeout(10)
    @DisplayName("q4.1: free bytes exceed the request, and the allocation fails anyway (the toy policy)")
    void fragmentationFailure() { Quiz.check(FragmentationFailure.class); }

    @Test @Graded(step = "q4.2", points = 5) @Timeout(10)
    @DisplayName("q4.2: the terms between the tensor sum and nvidia-smi's number (the toy policy)")
    void nvidiaSmiGap() { Quiz.check(NvidiaSmiGap.class); }

    @Test @Graded(step = "q4.3", points = 3) @Timeout(10)
    @DisplayName("q4.3: what empty_cache() releases, and when it is the right tool")
    void emptyCache() { Quiz.check(EmptyCacheQuestion.class); }

    @Test @Graded(step = "q4.4", points = 3) @Timeout(10)
    @DisplayName("q4.4: the OOM that only happens at night")
    void nightOnlyOom() { Quiz.check(NightOnlyOom.class); }

    @Test @Graded(step = "q4.5", points = 4) @Timeout(10)
    @DisplayName("q4.5: the variable-batch ratchet and its fixes")
    void variableBatchRatchet() { Quiz.check(VariableBatchRatchet.class); }

    @Test @Graded(step = "q4.6", points = 3) @Timeout(10)
    @DisplayName("q4.6: where the graph's memory went")
    void graphPoolMemory() { Quiz.check(GraphPoolMemory.class); }

    @Test @Graded(step = "q4.7", points = 5) @Timeout(10)
    @DisplayName("q4.7: q4.1's fragmentation failure under PyTorch's real policy")
    void fragmentationFailurePyTorch() { Quiz.check(FragmentationFailure.PyTorch.class); }

    @Test @Graded(step = "q4.8", points = 5) @Timeout(10)
    @DisplayName("q4.8: q4.2's nvidia-smi gap under PyTorch's real policy")
    void nvidiaSmiGapPyTorch() { Quiz.check(NvidiaSmiGap.PyTorch.class); }

    @Test @Graded(step = "q4.9", points = 3) @Timeout(10)
    @DisplayName("q4.9: q4.5's variable-batch loop under PyTorch's real policy")
    void ratchetUnderPyTorch() { Quiz.check(RatchetUnderPyTorch.class); }
}
