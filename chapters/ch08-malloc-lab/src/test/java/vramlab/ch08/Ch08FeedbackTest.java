package vramlab.ch08;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import vramlab.quiz.KitPaths;
import vramlab.quiz.feedback.FeedbackContract;

@DisplayName("chapter 8's feedback recognises the common wrong answers")
class Ch08FeedbackTest {
    static final FeedbackContract CONTRACT = new FeedbackContract();

    @AfterAll
    static void everyMistakeIsFed() { CONTRACT.everyMistakeExercised(Ch08Feedback.all()); }

    @Test
    @DisplayName("every step has a recognised wrong answer, and rereads the section its marker names")
    void everyStep() {
        FeedbackContract.everyStepHasFeedback(KitPaths.root(), 8, Ch08Feedback.all());
        FeedbackContract.sectionsAreTheMarkers(KitPaths.root(), 8, Ch08Feedback.all());
    }

    @Test
    void sizeClassMistakes() {
        CONTRACT.recognises(Ch08Feedback.SIZE_CLASS, 3000L, 3, 2, "rounding down");           // 2 KiB < 3000 B
        CONTRACT.recognises(Ch08Feedback.SIZE_CLASS, 1024L, 1, 2, "an exact class size doubled");
    }

    @Test
    void servedMistakes() {
        CONTRACT.recognises(Ch08Feedback.SERVED, "five requests", GradedStepsTest.SERVED,
                "100 B -> 2 MiB, 512 B -> 2 MiB, 3000 B -> 4 KiB, 3000 B -> 4 KiB, 5 MiB -> 6 MiB; 4 cudaMalloc",
                "the smallest class skipped (a small request served as a large one)");
        CONTRACT.recognises(Ch08Feedback.SERVED, "five requests", GradedStepsTest.SERVED,
                "100 B -> 512 B, 512 B -> 512 B, 3000 B -> 4 KiB, 3000 B -> 4 KiB, 5 MiB -> 6 MiB; 5 cudaMalloc",
                "a new slab for every small request");
        CONTRACT.recognises(Ch08Feedback.INDEX, "short", "at least 60", "0.0",
                "a broken check or a workload that did not fit (the index is 0)");
    }

    @Test
    void allocMistakes() {
        CONTRACT.recognises(Ch08Feedback.ALLOC, "diffusion-sampling", "every check passed",
                "check size broken at event 12 (line 12: alloc 'res.11' 5242880 B)", "a block smaller than its request");
        CONTRACT.recognises(Ch08Feedback.ALLOC, "diffusion-sampling", "every check passed",
                "check overlap broken at event 9 (line 9: alloc 'x.8' 2048 B)", "a block handed out twice");
        CONTRACT.recognises(Ch08Feedback.ALLOC, "llm-serving", "every check passed",
                "out of memory at event 1200: cudaMalloc(2097152): out of memory", "out of memory on a card the reference fits");
    }
}
