package vramlab.quiz.grade;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * A time-out names the method its test was stuck in only if the child said where the test was
 * before the bound ran out. After a submission's first time-out its tests get a fifth of the
 * item bound, at least {@link Grader.Options#SHORTEST_AFTER_TIMEOUT}; the watcher must have
 * sampled a test several times within that, with room for a loaded machine's late wake-ups.
 */
@DisplayName("The child says where a long test is, often enough for the shortest bound a grade gives")
class WhereSamplingTest {
    @Test
    @DisplayName("three samples fit in half of the shortest bound after a first time-out")
    void samplesWithinTheShortestBound() {
        Duration third = ChildRunner.Where.FIRST_SAMPLE.plus(ChildRunner.Where.PERIOD.multipliedBy(2));
        assertThat(third).isLessThanOrEqualTo(Grader.Options.SHORTEST_AFTER_TIMEOUT.dividedBy(2));
    }

    @Test
    @DisplayName("the shortest bound is what a fifth of a short item bound rounds up to")
    void shortestBound() {
        assertThat(Grader.Options.fifthOf(Duration.ofSeconds(2))).isEqualTo(Grader.Options.SHORTEST_AFTER_TIMEOUT);
        assertThat(Grader.Options.fifthOf(Duration.ofSeconds(10))).isEqualTo(Duration.ofSeconds(2));
    }
}
