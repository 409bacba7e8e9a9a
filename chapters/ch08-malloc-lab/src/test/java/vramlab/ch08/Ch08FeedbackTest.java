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
    void allocMistakes() {
        CONTRACT.recognises(Ch08Feedback.ALLOC, "diffusion-sampling", "every check passed",
                "check size broken at event 12 (line 12: alloc 'res.11' 5242880 B)", "a block smaller than its request");
        CONTRACT.recognises(Ch08Feedback.ALLOC, "diffusion-sampling", "every check passed",
                "check overlap broken at event 9 (line 9: alloc 'x.8' 2048 B)", "a block handed out twice");
    }
}
