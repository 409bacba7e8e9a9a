package vramlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import vramlab.kit.Chapters;

@DisplayName("A lab on the student's cores that runs on says, once, that a step may loop")
class StillRunningTest {
    @Test
    @DisplayName("the line is said once the delay has passed, on its own thread")
    void saysAfterTheDelay() throws Exception {
        CountDownLatch said = new CountDownLatch(1);
        try (StillRunning r = StillRunning.after(Duration.ofMillis(10), said::countDown)) {
            assertThat(said.await(30, TimeUnit.SECONDS)).isTrue();
        }
    }

    @Test
    @DisplayName("a run that ends first says nothing")
    void silentWhenDoneFirst() throws Exception {
        CountDownLatch said = new CountDownLatch(1);
        StillRunning.after(Duration.ofMillis(500), said::countDown).close();
        assertThat(said.await(1, TimeUnit.SECONDS)).as("past the delay, and nothing said").isFalse();
    }

    @Test
    @DisplayName("the line names the chapter, how to stop it and the command that finds the stuck method")
    void theLine() {
        assertThat(LabCommand.stillRunning(Chapters.find("3")))
                .isEqualTo("vramlab: lab ch03-caching-allocator is still running after 30 s; if a step of yours loops"
                        + " forever, Ctrl-C stops it, and ./vramlab check 3 names the method each of its tests is stuck in");
    }
}
