package vramlab.quiz.grade;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.condition.DisabledOnOs;
import org.junit.jupiter.api.condition.OS;

/**
 * A child that is forking when it is killed leaves nothing behind. Before, {@link ChildWatch#kill}
 * listed the child's descendants, killed the child, then killed the listed ones: a process forked
 * between the listing and its parent's death was in no list, was reparented to init, and went on
 * alone; a shell loop forked so ran for ever. The child here is a shell that starts, as fast as
 * it can, background loops that never end, each with a marker of this run in its command line;
 * it is killed while it is still starting them. Bounded: at most {@link #LOOPS} loops, each
 * forking one {@code sleep} a second, so a failure can never fork-bomb the machine, and every
 * marked process is killed after each repetition, whatever the outcome.
 */
@DisabledOnOs(value = OS.WINDOWS, disabledReason = "needs sh; on Windows kill keeps the list-then-kill order")
class ChildWatchForkRaceTest {
    /** How many loops the child starts at most; it is killed after the first {@link #KILL_AFTER}. */
    static final int LOOPS = 100;
    static final int KILL_AFTER = 10;

    private String marker;

    /** The marked processes now running (a zombie has no command line, so is not one). */
    private List<ProcessHandle> marked() {
        return ProcessHandle.allProcesses()
                .filter(h -> h.info().commandLine().map(c -> c.contains(marker)).orElse(false)
                        || h.info().arguments().map(a -> List.of(a).contains(marker)).orElse(false))
                .toList();
    }

    @AfterEach
    void killMarked() throws Exception {
        if (marker == null) return;
        for (int round = 0; round < 20; round++) {       // a loop left running by a failure, and any it starts
            List<ProcessHandle> left = marked();
            if (left.isEmpty()) return;
            left.forEach(ProcessHandle::destroyForcibly);
            for (ProcessHandle h : left) {
                try {
                    h.onExit().get(10, TimeUnit.SECONDS);
                } catch (java.util.concurrent.TimeoutException e) {
                    // stuck in the kernel: the next round tries again
                }
            }
        }
    }

    @RepeatedTest(10)
    @DisplayName("a child killed while it forks leaves none of what it started running")
    void killWhileForking() throws Exception {
        marker = "vramlab-fork-race-" + UUID.randomUUID();
        Process child = ChildWatch.start(forker(marker));
        try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
            assertThat(out.readLine()).as("the child started its first loops").isEqualTo("started");
            ChildWatch.kill(child);                       // while it goes on starting loops
        }
        assertThat(child.isAlive()).isFalse();
        assertNoneLeft();
    }

    /**
     * The child: a shell that starts {@link #LOOPS} loops as fast as it can, and says "started"
     * after the first {@link #KILL_AFTER}. Each loop is {@code sh -c <loop> <marker>}: the marker
     * is its {@code $0}, so in its command line.
     */
    static ProcessBuilder forker(String marker) {
        String script = "i=0; while [ $i -lt " + LOOPS + " ]; do"
                + " sh -c 'while :; do sleep 1; done' \"$1\" &"
                + " i=$((i+1)); if [ $i -eq " + KILL_AFTER + " ]; then echo started; fi;"
                + " done; wait";
        return new ProcessBuilder("sh", "-c", script, "outer", marker).redirectErrorStream(true);
    }

    /** Stands in for a grader: starts the forker as ChildRun does, says "started" once it has, then waits. */
    public static final class Grader {
        public static void main(String[] args) throws Exception {
            Process child = ChildWatch.start(forker(args[0]));
            try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
                System.out.println(out.readLine());
                System.out.flush();
                child.waitFor();
            }
        }
    }

    @RepeatedTest(3)
    @DisplayName("a grader stopped with SIGTERM while its child forks leaves none of what the child started running")
    void graderStoppedWhileForking() throws Exception {
        marker = "vramlab-fork-race-" + UUID.randomUUID();
        Process grader = new ProcessBuilder(ChildWatchShutdownTest.java(), "-cp", System.getProperty("java.class.path"),
                Grader.class.getName(), marker).redirectErrorStream(true).start();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(grader.getInputStream(), StandardCharsets.UTF_8))) {
            assertThat(out.readLine()).as("the child started its first loops").isEqualTo("started");
            grader.destroy();                                // SIGTERM: the shutdown hook kills the child
            assertThat(grader.waitFor(60, TimeUnit.SECONDS)).as("the grader stops").isTrue();
        } finally {
            grader.destroyForcibly();
        }
        assertNoneLeft();
    }

    private void assertNoneLeft() throws InterruptedException {
        // kill waits for what it killed, the hook does not; an orphan goes on, so a short settle
        // only gives any still being killed time to go (a bound, not a measure).
        List<ProcessHandle> left = marked();
        for (int i = 0; i < 10 && !left.isEmpty(); i++) {
            Thread.sleep(100);
            left = marked();
        }
        assertThat(left).as("marked loops still running after the kill (parents %s)",
                left.stream().map(h -> h.parent().map(ProcessHandle::pid).orElse(-1L)).toList()).isEmpty();
    }
}
