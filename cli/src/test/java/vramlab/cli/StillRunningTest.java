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
    @DisplayName("the line names the chapter, when a looping scenario is stopped, and how to stop it sooner")
    void theLine() {
        assertThat(LabCommand.stillRunning(Chapters.find("3"), 60))
                .isEqualTo("vramlab: lab ch03-caching-allocator is still running after 30 s; if a step of yours loops"
                        + " forever, the scenario running it is stopped at 60 s and your line named (Ctrl-C stops the lab now)");
    }

    @Test
    @DisplayName("the line is said only when --scenario-limit is longer than its 30 s: a shorter limit stops a loop first")
    void onlyUnderALongerLimit() {
        var io = new Io(java.io.InputStream.nullInputStream(), System.out, System.err);
        LabCommand lab = new LabCommand();
        for (long limit : new long[] {1, 2, 29, 30}) {
            lab.limitSeconds = limit;
            assertThat(lab.hint(Chapters.find("3"), io)).as("--scenario-limit %d", limit).isNull();
        }
        for (long limit : new long[] {31, 120}) {
            lab.limitSeconds = limit;
            try (StillRunning hint = lab.hint(Chapters.find("3"), io)) {
                assertThat(hint).as("--scenario-limit %d", limit).isNotNull();
            }
        }
    }

    @Test
    @DisplayName("a stuck lab names the student's step frame first, else the first frame in the cores")
    void whereALabIsStuck() {
        var place = new vramlab.quiz.feedback.StepPlaces.Place("3.1", "vramlab.alloc.ToyPolicy", "roundSize", "ch03");
        StackTraceElement inMap = new StackTraceElement("java.util.TreeMap", "get", "TreeMap.java", 350);
        StackTraceElement inCore = new StackTraceElement("vramlab.alloc.Block", "size", "Block.java", 12);
        StackTraceElement own = new StackTraceElement("vramlab.alloc.ToyPolicy", "roundSize", "ToyPolicy.java", 38);
        StackTraceElement lab = new StackTraceElement("vramlab.ch03.CachingAllocatorLab", "run", "CachingAllocatorLab.java", 9);
        assertThat(LabCommand.where(java.util.List.of(place), new StackTraceElement[] {inMap, inCore, own, lab}))
                .isEqualTo(": your line ToyPolicy.java:38, in ToyPolicy.roundSize (step 3.1)");
        assertThat(LabCommand.where(java.util.List.of(place), new StackTraceElement[] {inMap, inCore, lab}))
                .isEqualTo(" (at Block.java:12)");
    }
}
