package vramlab.ch02;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import vramlab.driver.CostModel;
import vramlab.driver.DriverCall;
import vramlab.gmmu.Access;
import vramlab.quiz.KitPaths;
import vramlab.quiz.feedback.FeedbackContract;

/**
 * Each wrong answer chapter 2's feedback knows, fed to it: the price of a call by wrong bodies
 * of {@code micros} run over the graded cases; the VMM and nvidia-smi steps by the values a
 * wrong body leaves, worked out by hand.
 */
@DisplayName("chapter 2's feedback recognises the common wrong answers")
class Ch02FeedbackTest {
    static final FeedbackContract CONTRACT = new FeedbackContract();
    static final CostModel M = new CostModel(10, 2, 500);

    @AfterAll
    static void everyMistakeIsFed() { CONTRACT.everyMistakeExercised(Ch02Feedback.all()); }

    @Test
    @DisplayName("every step has a recognised wrong answer, and rereads the section its marker names")
    void everyStep() {
        FeedbackContract.everyStepHasFeedback(KitPaths.root(), 2, Ch02Feedback.all());
        FeedbackContract.sectionsAreTheMarkers(KitPaths.root(), 2, Ch02Feedback.all());
    }

    interface PriceBody { double micros(DriverCall call, long pages); }

    static void wrong(PriceBody body, String looksLike) {
        for (Object[] c : GradedStepsTest.PRICE_CASES) {
            var call = new Ch02Feedback.Call(M, (DriverCall) c[0], (long) c[1]);
            double got = body.micros(call.call(), call.pages());
            if (got != (Double) c[2]) {
                CONTRACT.recognises(Ch02Feedback.PRICE, call, (Double) c[2], got, looksLike);
                return;
            }
        }
        throw new AssertionError("the wrong body passed every case");
    }

    @Test
    @DisplayName("2.1: the sync on every call, no sync on cudaFree, pages on every call, no per-page cost")
    void prices() {
        wrong((c, n) -> 10 + (c.touchesPages() ? 2 * n : 0) + 500, "the sync charged to a call that does not synchronize");
        wrong((c, n) -> 10 + (c.touchesPages() ? 2 * n : 0), "cudaFree's sync missing");
        wrong((c, n) -> 10 + 2 * n + (c.synchronizes() ? 500 : 0), "pages charged to a call that maps none");
        wrong((c, n) -> 10 + (c.synchronizes() ? 500 : 0), "the per-page cost missing");
    }

    @Test
    @DisplayName("2.2: one page only, pages outside the range, a partial or unaligned range accepted, or half applied")
    void access() {
        CONTRACT.recognises(Ch02Feedback.ACCESS, "second", Access.READWRITE, Access.NONE, "only the first page changed");
        CONTRACT.recognises(Ch02Feedback.ACCESS, "outside", Access.READWRITE, Access.READ,
                "a page outside the range changed");
        CONTRACT.recognises(Ch02Feedback.ACCESS, "refused", Access.READ, Access.READWRITE,
                "the mapped part changed before the call was refused");
        CONTRACT.recognises(Ch02Feedback.REFUSAL, "", "CUDA_ERROR_INVALID_VALUE", "returned normally",
                "a partly mapped range accepted");
        CONTRACT.recognises(Ch02Feedback.REFUSAL, "unaligned", "CUDA_ERROR_INVALID_VALUE", "returned normally",
                "a size 0 or unaligned range accepted");
    }

    @Test
    @DisplayName("2.3: no context, the bytes asked for, bytes for MiB")
    void row() {
        var p = new Ch02Feedback.Process(6, 300, (3 << 20) + 1 + 64);
        CONTRACT.recognises(Ch02Feedback.ROW, p, "31337, infer, 306 MiB", "31337, infer, 6 MiB", "the context left out");
        CONTRACT.recognises(Ch02Feedback.ROW, p, "31337, infer, 306 MiB", "31337, infer, 303 MiB",
                "the bytes asked for, not the pages mapped");
        CONTRACT.recognises(Ch02Feedback.ROW, p, "31337, infer, 306 MiB", "31337, infer, 320864256 MiB",
                "bytes where MiB belong");
    }
}
