package vramlab.ch01;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.function.ToLongFunction;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import vramlab.gmmu.Access;
import vramlab.gmmu.Level;
import vramlab.gmmu.MmuFormat;
import vramlab.gmmu.Pte;
import vramlab.quiz.KitPaths;
import vramlab.quiz.feedback.FeedbackContract;

/**
 * Each wrong answer chapter 1's feedback knows, fed to it: for the PTE's bits, by wrong
 * encoders run over the graded cases (the first case one gets wrong is what a student sees);
 * for the walk and the TLB, by the values a wrong walk or lookup returns, worked out by hand.
 */
@DisplayName("chapter 1's feedback recognises the common wrong answers")
class Ch01FeedbackTest {
    static final FeedbackContract CONTRACT = new FeedbackContract();
    static final long VA = GradedStepsTest.VA + 0x123;              // indices 0, 508, 80, 1

    @AfterAll
    static void everyMistakeIsFed() { CONTRACT.everyMistakeExercised(Ch01Feedback.all()); }

    @Test
    @DisplayName("every step has a recognised wrong answer, and rereads the section its marker names")
    void everyStep() {
        FeedbackContract.everyStepHasFeedback(KitPaths.root(), 1, Ch01Feedback.all());
        FeedbackContract.sectionsAreTheMarkers(KitPaths.root(), 1, Ch01Feedback.all());
    }

    /** The indices a walk takes with each level's index computed by {@code index}. */
    static List<Integer> walk(java.util.function.BiFunction<Level, Long, Integer> index) {
        List<Integer> out = new ArrayList<>();
        for (Level l : MmuFormat.VER2.directories()) out.add(index.apply(l, VA));
        return out;
    }

    @Test
    @DisplayName("1.1: bottom up, unmasked, shifted by one, stopped early, past an empty entry, offset dropped")
    void walks() {
        List<Integer> right = List.of(0, 508, 80, 1);
        assertThat(walk(Level::index)).as("the model walk").isEqualTo(right);
        CONTRACT.recognises(Ch01Feedback.INDICES, VA, right, Ch01Feedback.reversed(right), "the levels walked bottom up");
        CONTRACT.recognises(Ch01Feedback.INDICES, VA, right, walk((l, va) -> (int) (va >>> l.lo())),
                "an index not masked to its level's bits");
        CONTRACT.recognises(Ch01Feedback.INDICES, VA, right,
                walk((l, va) -> (int) ((va >>> (l.lo() + 1)) & (l.entries() - 1))),
                "an index taken from the wrong bits (shifted by one)");
        CONTRACT.recognises(Ch01Feedback.INDICES, VA, right, List.of(0, 508), "the walk stopped at a directory entry");
        CONTRACT.recognises(Ch01Feedback.FAULT, VA, "PDE1[82]", "PDE0[0]", "walked past an empty entry");
        CONTRACT.recognises(Ch01Feedback.FAULT, VA, "PDE1[82]", "PDE2[508]", "the fault named one level too high");
        CONTRACT.recognises(Ch01Feedback.PHYSICAL, VA, 0x40000123L, 0x40000000L, "the offset inside the page dropped");
    }

    @Test
    @DisplayName("1.2: a 2 MiB page looked up by 4 KiB pages, hits not counted, a lookup that does not refresh")
    void tlb() {
        CONTRACT.recognises(Ch01Feedback.TLB_COUNT, "misses", 1L, 512L, "a 2 MiB entry looked up by its 4 KiB page");
        CONTRACT.recognises(Ch01Feedback.TLB_COUNT, "hits", 511L, 0L, "hits not counted");
        CONTRACT.recognises(Ch01Feedback.TLB_LRU, "", false, true, "a lookup did not refresh its entry");
    }

    /** A PTE encoder with the usual slips, for wrong bodies of {@code Pte.bits()}. */
    static long encode(Pte p, boolean alwaysValid, boolean readOnlyInverted, boolean byteAddress, int apertureShift,
                       int peerShift) {
        long pfn = byteAddress ? p.address() : p.address() >>> 12;
        long b = alwaysValid || p.valid() ? 1L : 0L;
        b |= (long) p.aperture().code() << apertureShift;
        if (readOnlyInverted ? p.access() == Access.READWRITE : p.access() == Access.READ) b |= 1L << 6;
        b |= (pfn & ((1L << 25) - 1)) << 8;
        b |= (pfn >>> 25) << 36;                  // COMPTAGLINE 53:36 holds the bits above (make_pte_turing)
        b |= (long) p.peer() << peerShift;
        return b;
    }

    /** Runs a wrong encoder over the graded cases and feeds the first one it gets wrong. */
    static void wrong(ToLongFunction<Pte> body, String looksLike) {
        for (Object[] c : GradedStepsTest.BITS_CASES) {
            Pte pte = (Pte) c[0];
            long got = body.applyAsLong(pte);
            if (got != (Long) c[1]) {
                CONTRACT.recognises(Ch01Feedback.BITS, pte, (Long) c[1], got, looksLike);
                return;
            }
        }
        throw new AssertionError("the wrong encoder passed every case");
    }

    @Test
    @DisplayName("1.3: VALID, READ_ONLY, the byte address, the aperture's bits and the peer's bits")
    void bits() {
        for (Object[] c : GradedStepsTest.BITS_CASES) {
            assertThat(encode((Pte) c[0], false, false, false, 1, 33)).as("the model encoder, " + c[0]).isEqualTo(c[1]);
        }
        wrong(p -> encode(p, true, false, false, 1, 33), "VALID missing or set for no access");
        wrong(p -> encode(p, false, true, false, 1, 33), "READ_ONLY the wrong way round");
        wrong(p -> encode(p, false, false, true, 1, 33), "the byte address where the page frame number belongs");
        wrong(p -> encode(p, false, false, false, 0, 33), "the aperture outside bits 2:1");
        wrong(p -> encode(p, false, false, false, 1, 32), "the peer slot outside bits 35:33");
    }
}
