package vramlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The last line of {@code ./vramlab grade SUBMISSION...}. Gradescope's run_autograder grades one
 * submission each time, and its log said "graded 1 submissions" on every run.
 */
class GradeSummaryLineTest {

    @Test
    @DisplayName("one submission is 'graded 1 submission', more are 'submissions'")
    void countAgrees() {
        assertThat(GradeCommand.summary(1, 21.14, 1, 0, "f142afd3"))
                .isEqualTo("graded 1 submission in 21.1 s (1 flagged, 0 skipped); run f142afd3");
        assertThat(GradeCommand.summary(4, 100.4, 2, 0, "4ae954a8"))
                .isEqualTo("graded 4 submissions in 100.4 s (2 flagged, 0 skipped); run 4ae954a8");
        assertThat(GradeCommand.summary(0, 0.5, 0, 1, "r")).startsWith("graded 0 submissions in 0.5 s");
    }
}
