package vramlab.ch04;

import static vramlab.units.Bytes.mib;
import static vramlab.units.Bytes.toyMiB;

import java.util.function.Function;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import vramlab.alloc.OomReport;
import vramlab.quiz.KitPaths;
import vramlab.quiz.feedback.FeedbackContract;

/**
 * Each wrong answer chapter 4's feedback knows, fed to it: the message by wrong bodies of
 * {@code oomMessage} run on the graded report; SimExp by the figures a wrong body leaves,
 * worked out by hand.
 */
@DisplayName("chapter 4's feedback recognises the common wrong answers")
class Ch04FeedbackTest {
    static final FeedbackContract CONTRACT = new FeedbackContract();
    static final OomReport R = RealOomStepsTest.REPORT;

    @AfterAll
    static void everyMistakeIsFed() { CONTRACT.everyMistakeExercised(Ch04Feedback.all()); }

    @Test
    @DisplayName("every step has a recognised wrong answer, and rereads the section its marker names")
    void everyStep() {
        FeedbackContract.everyStepHasFeedback(KitPaths.root(), 4, Ch04Feedback.all());
        FeedbackContract.sectionsAreTheMarkers(KitPaths.root(), 4, Ch04Feedback.all());
    }

    static void wrong(Function<OomReport, String> body, String looksLike) {
        CONTRACT.recognises(Ch04Feedback.OOM, R, RealOomStepsTest.MESSAGE, body.apply(R), looksLike);
    }

    /** The message's format with five figures filled in: each wrong body below fills in a wrong one. */
    static String oom(Object tried, Object device, Object reserved, Object unallocated, Object largest) {
        return String.format("CUDA out of memory. Tried to allocate %s (device %s; %s reserved; %s is reserved but unallocated;"
                + " largest free block %s)", tried, device, reserved, unallocated, largest);
    }

    @Test
    @DisplayName("4.1: bytes for MiB, the request for the attempt, the device's free bytes, another format")
    void messages() {
        wrong(r -> oom(r.tried(), r.deviceTotal(), r.reserved(), r.reservedButUnallocated(), r.largestFreeBlock()),
                "sizes in bytes, not MiB");
        wrong(r -> oom(toyMiB(r.requested()), toyMiB(r.deviceTotal()), toyMiB(r.reserved()),
                toyMiB(r.reservedButUnallocated()), toyMiB(r.largestFreeBlock())), "the request where the allocator's attempt belongs");
        wrong(r -> oom(toyMiB(r.tried()), toyMiB(r.deviceTotal()), toyMiB(r.reserved()), toyMiB(r.deviceFree()),
                toyMiB(r.largestFreeBlock())), "the free memory of the device as reserved but unallocated");
        wrong(r -> String.format("Out of memory: tried %s, device %s, reserved %s, %s is reserved but unallocated, largest free block %s",
                toyMiB(r.tried()), toyMiB(r.deviceTotal()), toyMiB(r.reserved()), toyMiB(r.reservedButUnallocated()),
                toyMiB(r.largestFreeBlock())), "the right numbers in another format");
    }

    @Test
    @DisplayName("4.2 and 4.3: unrounded pages, no bump, pages kept on OOM or at free, VA reused")
    void simExp() {
        CONTRACT.recognises(Ch04Feedback.SIMEXP_ALLOC, "size", mib(4), mib(3) + 1,
                "the request mapped as asked, not in whole pages");
        CONTRACT.recognises(Ch04Feedback.SIMEXP_ALLOC, "offset", mib(4), 0L, "the VA not bumped");
        CONTRACT.recognises(Ch04Feedback.SIMEXP_ALLOC, "mapped after OOM", mib(6), mib(40),
                "a failed alloc kept its pages");
        CONTRACT.recognises(Ch04Feedback.SIMEXP_FREE, "mapped", mib(24), mib(40), "the pages kept at free");
        CONTRACT.recognises(Ch04Feedback.SIMEXP_FREE, "offset", mib(40), 0L, "freed VA reused");
    }
}
