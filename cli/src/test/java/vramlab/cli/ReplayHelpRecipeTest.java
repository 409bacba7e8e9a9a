package vramlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * replay --help's recipe for recording a failure is introduced once: it said "Record the run so
 * that a failure leaves its snapshot:" and then, on the next line, the recipe's own opening
 * "Record the next failure where it happens (...)", two introductions of one snippet.
 */
@DisplayName("replay --help introduces its recording recipe once")
class ReplayHelpRecipeTest {
    @Test
    @DisplayName("the sentence before the recipe ends a thought; the recipe's own first line introduces it")
    void oneIntroduction() {
        CliRun r = CliRun.of("replay", "--help");
        assertThat(r.status()).isZero();
        assertThat(r.out()).contains("the error ends the\nscript first).\nRecord the next failure where it happens")
                .doesNotContain("leaves its snapshot:");
    }
}
