package vramlab.quiz.feedback;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;

/** A step's feedback on a tiny made-up step: rounding up to a multiple of 8. */
class FeedbackTest {
    static final Feedback<Long, Long> ROUND8 = Feedback.<Long, Long>forStep("9.1", "ch09 \"Rule 1\"")
            .showing(n -> n + " B")
            .mistake("rounding down", (n, right, got) -> got < n, "round up, never down")
            .mistake("no rounding", (n, right, got) -> got.equals(n), "every size rounds to a multiple of 8",
                    "ch09 \"Sizes\"");

    @Test
    @DisplayName("a right answer passes")
    void right() { ROUND8.check("round(13)", 13L, 16L, 16L); }

    @Test
    @DisplayName("a wrong answer fails with the call and expected vs actual first, then the mistake, rule and section")
    void recognised() {
        Throwable t = catchThrowable(() -> ROUND8.check("round(13)", 13L, 8L, 16L));
        assertThat(t).isInstanceOf(AssertionFailedError.class).hasMessage("""
                round(13): expected 16 B but was 8 B
                Looks like: rounding down.
                Rule: round up, never down.
                Reread: ch09 "Rule 1".""");
        assertThat(((AssertionFailedError) t).getExpected().getValue()).isEqualTo(16L);
        assertThat(catchThrowable(() -> ROUND8.check("round(13)", 13L, 13L, 16L)))
                .hasMessageContaining("Looks like: no rounding.").hasMessageEndingWith("Reread: ch09 \"Sizes\".");
    }

    @Test
    @DisplayName("an unknown wrong answer still says expected vs actual and the step's section; the state follows")
    void unknown() {
        assertThatThrownBy(() -> ROUND8.check("round(13)", 13L, 24L, 16L, () -> "map [A 24]"))
                .hasMessage("round(13): expected 16 B but was 24 B\nReread: ch09 \"Rule 1\".\nState:\nmap [A 24]");
    }

    @Test
    @DisplayName("the first mistake that matches wins, and a recogniser that throws recognises nothing")
    void order() {
        Feedback<Long, Long> f = ROUND8.mistake("never", (n, right, got) -> { throw new IllegalStateException(); }, "x");
        assertThat(f.recognise(13L, 16L, 13L)).map(Feedback.Mistake::looksLike).contains("no rounding");
        assertThat(f.recognise(13L, 16L, 40L)).isEmpty();
        assertThat(f.recognise(13L, 16L, 16L)).as("a right answer is no mistake").isEmpty();
        assertThat(ROUND8.mistakes()).hasSize(2);
    }

    @Test
    @DisplayName("the contract fails a mistake that is not recognised, and one never fed")
    void contract() {
        FeedbackContract c = new FeedbackContract();
        c.recognises(ROUND8, 13L, 16L, 8L, "rounding down");
        assertThatThrownBy(() -> c.recognises(ROUND8, 13L, 16L, 24L, "rounding down"))
                .hasMessageContaining("does not say 'Looks like: rounding down.'");
        assertThatThrownBy(() -> c.everyMistakeExercised(java.util.List.of(ROUND8)))
                .hasMessageContaining("9.1 'no rounding'");
    }

    @Test
    @DisplayName("checkThrows holds a call to the exception the contract names, any words, and says expected vs actual")
    void checkThrows() {
        Feedback<Long, Long> f = Feedback.<Long, Long>forStep("9.2", "ch09 \"Rule 2\"");
        f.checkThrows("order(0)", IllegalArgumentException.class, () -> {
            throw new IllegalArgumentException("size must be positive");
        });
        Throwable none = catchThrowable(() -> f.checkThrows("order(0)", IllegalArgumentException.class, () -> 20L));
        assertThat(none).isInstanceOf(AssertionFailedError.class)
                .hasMessageStartingWith("order(0): expected IllegalArgumentException but was the answer 20")
                .hasMessageContaining("Reread: ch09 \"Rule 2\".");
        Throwable other = catchThrowable(() -> f.checkThrows("order(0)", IllegalArgumentException.class, () -> {
            throw new IllegalStateException("no");
        }));
        assertThat(other).isInstanceOf(AssertionFailedError.class)
                .hasMessageStartingWith("order(0): expected IllegalArgumentException but was IllegalStateException (no)");
    }
}
