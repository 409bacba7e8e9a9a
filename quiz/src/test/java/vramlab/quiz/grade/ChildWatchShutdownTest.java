package vramlab.quiz.grade;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledOnOs;
import org.junit.jupiter.api.condition.OS;

/**
 * A grader stopped with SIGTERM ({@code kill}, {@code timeout 600 ./vramlab grade ...}, a
 * cancelled CI job) takes its children with it: before, a child looping in a student's step
 * went on alone, its parent gone (measured: a class run with an infinite-loop submission,
 * {@code kill <grader>}, the child still at 43% CPU 30 s later, parent pid 1).
 */
class ChildWatchShutdownTest {
    static String java() { return Path.of(System.getProperty("java.home"), "bin", "java").toString(); }

    /** Stands in for a grader: starts a child that never ends, as ChildRun does, says its pid, then waits. */
    public static final class Grader {
        public static void main(String[] args) throws Exception {
            Process child = ChildWatch.start(new ProcessBuilder(java(), "-cp", System.getProperty("java.class.path"),
                    Looper.class.getName()));
            System.out.println(child.pid());
            System.out.flush();
            child.waitFor();
        }
    }

    /** Stands in for a student's step that never ends. */
    public static final class Looper {
        public static void main(String[] args) throws Exception {
            Thread.sleep(TimeUnit.HOURS.toMillis(1));
        }
    }

    @Test
    @DisabledOnOs(OS.WINDOWS)   // destroy() is TerminateProcess there: no shutdown hook runs, as with SIGKILL
    @DisplayName("a grader stopped with SIGTERM kills the child JVMs it was running")
    void childrenDieWithTheGrader() throws Exception {
        Process grader = new ProcessBuilder(List.of(java(), "-cp", System.getProperty("java.class.path"),
                Grader.class.getName())).redirectErrorStream(true).start();
        long[] childPid = {-1};
        try (BufferedReader r = new BufferedReader(new InputStreamReader(grader.getInputStream(), StandardCharsets.UTF_8))) {
            childPid[0] = Long.parseLong(r.readLine().strip());
            ProcessHandle child = ProcessHandle.of(childPid[0]).orElseThrow();
            assertThat(child.isAlive()).isTrue();
            grader.destroy();                                             // SIGTERM, as kill and timeout send
            assertThat(grader.waitFor(60, TimeUnit.SECONDS)).as("the grader stops").isTrue();
            try {
                child.onExit().get(30, TimeUnit.SECONDS);                 // a bound, not a measure
            } catch (java.util.concurrent.TimeoutException e) {
                // still alive: said below
            }
            assertThat(child.isAlive()).as("child %d outlived its grader", childPid[0]).isFalse();
        } finally {
            grader.destroyForcibly();
            ProcessHandle.of(childPid[0]).ifPresent(ProcessHandle::destroyForcibly);   // never left behind by a failure
        }
    }
}
