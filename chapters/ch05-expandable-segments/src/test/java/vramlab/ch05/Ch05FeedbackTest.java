package vramlab.ch05;

import static vramlab.units.Bytes.mib;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import vramlab.alloc.ExpandableSegment.Range;
import vramlab.quiz.KitPaths;
import vramlab.quiz.feedback.FeedbackContract;

/**
 * Each wrong answer chapter 5's feedback knows, fed the range or figure a wrong body returns:
 * page rounding is arithmetic, so the wrong ranges are computed by the wrong rounding itself.
 */
@DisplayName("chapter 5's feedback recognises the common wrong answers")
class Ch05FeedbackTest {
    static final FeedbackContract CONTRACT = new FeedbackContract();
    static final long PAGE = mib(20);

    @AfterAll
    static void everyMistakeIsFed() { CONTRACT.everyMistakeExercised(Ch05Feedback.all()); }

    @Test
    @DisplayName("every step has a recognised wrong answer, and rereads the section its marker names")
    void everyStep() {
        FeedbackContract.everyStepHasFeedback(KitPaths.root(), 5, Ch05Feedback.all());
        FeedbackContract.sectionsAreTheMarkers(KitPaths.root(), 5, Ch05Feedback.all());
    }

    /** A page range from a rounding of the start and of the end (true: up). */
    static Range pages(long offset, long size, boolean startUp, boolean endUp) {
        long first = (startUp ? offset + PAGE - 1 : offset) / PAGE;
        long end = (endUp ? offset + size + PAGE - 1 : offset + size) / PAGE;
        return new Range(first * PAGE, Math.max(0, end - first) * PAGE);
    }

    @Test
    @DisplayName("5.1: no rounding, the end rounded down, the start rounded up, pages kept on OOM")
    void map() {
        var asked = new Ch05Feedback.Asked(mib(5), mib(30));
        Range right = pages(mib(5), mib(30), false, true);
        CONTRACT.recognises(Ch05Feedback.MAP_RANGE, asked, right, new Range(mib(5), mib(30)),
                "the range mapped as asked, not in whole pages");
        CONTRACT.recognises(Ch05Feedback.MAP_RANGE, asked, right, pages(mib(5), mib(30), false, false),
                "the end rounded down");
        CONTRACT.recognises(Ch05Feedback.MAP_RANGE, asked, right, pages(mib(5), mib(30), true, true),
                "the start rounded up");
        CONTRACT.recognises(Ch05Feedback.MAP_BYTES, "after OOM", 0L, mib(40), "the pages kept when the driver ran out");
        CONTRACT.recognises(Ch05Feedback.PAGES_MAPPED, "after OOM", "#_", "##", "the pages kept when the driver ran out");
    }

    @Test
    @DisplayName("5.2: the block not merged across the page boundary, more pages than it needs")
    void grow() {
        CONTRACT.recognises(Ch05Feedback.GROWTH, "offset", mib(15), mib(20),
                "the new page not merged with the free tail before it");
        CONTRACT.recognises(Ch05Feedback.GROWTH, "reserved", mib(40), mib(60), "more pages mapped than the block needs");
    }

    @Test
    @DisplayName("5.3: partial pages unmapped (rounded outward), nothing unmapped, a live page released")
    void shrink() {
        var asked = new Ch05Feedback.Asked(mib(10), mib(45));
        Range right = pages(mib(10), mib(45), true, false);
        CONTRACT.recognises(Ch05Feedback.UNMAP_RANGE, asked, right, pages(mib(10), mib(45), false, true),
                "pages only partly inside the range unmapped");
        CONTRACT.recognises(Ch05Feedback.UNMAP_RANGE, asked, right, new Range(mib(10), 0), "nothing unmapped");
        CONTRACT.recognises(Ch05Feedback.RELEASED, "released", mib(20), mib(40), "a page under a live block released");
        CONTRACT.recognises(Ch05Feedback.PAGES_KEPT, "after unmap", "#_#", "___",
                "pages only partly inside the range unmapped");
        CONTRACT.recognises(Ch05Feedback.SHRUNK, "after unmap", mib(40), 0L, "pages only partly inside the range unmapped");
        CONTRACT.recognises(Ch05Feedback.SHRUNK, "after empty_cache", mib(20), 0L, "a page under a live block released");
    }
}
