package vramlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Chapter 2's lab compares cudaMalloc with chapter 3's caching allocator, so on a fresh copy its
 * second scenario stops at step 3.1, then 3.2: the lab says those are a later chapter's, not
 * steps a student of chapter 2 is behind on (its README's table says chapter 2 needs chapter 1).
 */
class LaterStepsTest {
    @Test
    @DisplayName("a step of a later chapter that stopped a scenario is named as not this chapter's")
    void laterChapterStep() {
        assertThat(LabCommand.laterSteps(2, List.of("2.3", "3.2"))).isEqualTo(
                "vramlab: step 3.2 of chapter 3 is not this chapter's: the scenario that stops at it runs once you"
                        + " reach chapter 3; ./vramlab check 2 does not need it");
        assertThat(LabCommand.laterSteps(2, List.of("3.1", "3.2"))).startsWith("vramlab: steps 3.1, 3.2 of chapter 3 are");
    }

    @Test
    @DisplayName("steps of this chapter or earlier ones add no line")
    void ownAndEarlierSteps() {
        assertThat(LabCommand.laterSteps(3, List.of("1.1", "3.2"))).isNull();
        assertThat(LabCommand.laterSteps(4, List.of())).isNull();
    }
}
