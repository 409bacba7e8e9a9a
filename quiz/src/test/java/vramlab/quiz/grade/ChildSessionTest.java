package vramlab.quiz.grade;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A child that double-forks (starts a process that starts another and exits, so the grandchild
 * is reparented to init) leaves nothing running once the grader is done with it. Before,
 * {@link ChildWatch#kill} killed the child's descendants only, and the grandchild, no longer
 * one, went on: here a {@code sleep 300} that would have outlived the test by five minutes. Each
 * child writes its grandchild's pid to a file; every such pid is killed after each test,
 * whatever the outcome.
 */
class ChildSessionTest {
    @TempDir Path dir;
    private final List<Long> grandchildren = new ArrayList<>();

    /**
     * A shell that leaves a {@code sleep 300} behind, its pid in {@code pid} (written before the
     * subshell exits, which the shell waits for), then runs {@code then}.
     */
    private static List<String> doubleFork(String then) {
        return List.of("sh", "-c", "( sleep 300 & echo $! > pid ) ; " + then);
    }

    @BeforeEach
    void sessions() {
        assumeTrue(ChildSession.available(), "skipped: children cannot start in sessions of their own here ("
                + ChildSession.missing() + ")");
    }

    @AfterEach
    void killLeftovers() {
        for (long pid : grandchildren) ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
    }

    @Test
    @DisplayName("a child timed out after a double fork leaves no grandchild running")
    void timedOut() throws Exception {
        ChildWatch.Ending end = ChildWatch.run(doubleFork("sleep 300"), dir, dir.resolve("out.txt"),
                Duration.ofMillis(300), 1 << 20);
        assertThat(end.stoppedBy()).startsWith("timed out after");
        assertGone(grandchild());
    }

    @Test
    @DisplayName("a test JVM that exits after a double fork leaves no grandchild running")
    void childRunExited() throws Exception {
        ChildRun run = new ChildRun(doubleFork("exit 0"), dir, 1);
        run.run(Map.of(), Duration.ofSeconds(60), System.nanoTime() + Duration.ofSeconds(60).toNanos(), 1 << 20);
        assertThat(run.stoppedBy()).isEqualTo("the JVM exited with status 0 during this test (System.exit, or a crash)");
        assertGone(grandchild());
    }

    @Test
    @Tag("grading-fixtures")   // ~0.2 s: the two tests above are the plain build's
    @DisplayName("a child that exits after a double fork leaves no grandchild running, and keeps its status and output")
    void exited() throws Exception {
        ChildWatch.Ending end = ChildWatch.run(doubleFork("echo said; exit 3"), dir, dir.resolve("out.txt"),
                Duration.ofSeconds(60), 1 << 20);
        assertThat(end).isEqualTo(new ChildWatch.Ending(3, null));
        assertThat(Files.readString(dir.resolve("out.txt"))).isEqualTo("said\n");
        assertGone(grandchild());
    }

    @Test
    @Tag("grading-fixtures")   // ~0.3 s
    @DisplayName("a child runs in a session of its own, under its own pid")
    void ownSession() throws Exception {
        Process p = ChildWatch.start(new ProcessBuilder("sleep", "30"));
        try {
            long sid = -1;
            for (int i = 0; i < 200 && sid != p.pid(); i++) {   // setsid execs sleep a moment after start returns
                sid = ChildSession.sessionOf(p.pid());
                Thread.sleep(5);
            }
            assertThat(sid).isEqualTo(p.pid());
            assertThat(ChildSession.members(p.pid())).containsExactly(p.toHandle());
        } finally {
            ChildWatch.kill(p);
        }
        assertThat(ChildSession.members(p.pid())).isEmpty();
    }

    @Test
    @Tag("grading-fixtures")   // a second JVM: ~1 s
    @DisplayName("a grader stopped with SIGTERM leaves no grandchild of its child running")
    void graderStopped() throws Exception {
        Process grader = StandInGrader.start(dir, doubleFork("sleep 300"));
        try (var out = new java.io.BufferedReader(new java.io.InputStreamReader(grader.getInputStream(),
                java.nio.charset.StandardCharsets.UTF_8))) {
            assertThat(out.readLine()).isEqualTo("started");
            long pid = grandchild();
            grader.destroy();                                   // SIGTERM: the shutdown hook
            assertThat(grader.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)).as("the grader stops").isTrue();
            for (int i = 0; i < 50 && ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false); i++) {
                Thread.sleep(20);                               // the hook kills, it does not wait: a bound, not a measure
            }
            assertGone(pid);
        } finally {
            grader.destroyForcibly();
        }
    }

    /** The grandchild's pid, as the child wrote it; killed after the test. */
    private long grandchild() throws Exception {
        Path file = dir.resolve("pid");
        assertThat(file).as("the child wrote its grandchild's pid").exists();
        long pid = Long.parseLong(Files.readString(file).strip());
        grandchildren.add(pid);
        return pid;
    }

    /** Gone: no such process, or one that has exited and is not yet reaped (a zombie writes nothing). */
    static void assertGone(long pid) throws Exception {
        ProcessHandle h = ProcessHandle.of(pid).orElse(null);
        if (h == null || !h.isAlive()) return;
        String stat;
        try {
            stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
        } catch (java.nio.file.NoSuchFileException e) {
            return;                                                        // reaped meanwhile
        }
        char state = stat.charAt(stat.lastIndexOf(')') + 2);
        assertThat(state).as("the process %d (%s) the child left is still running after the grader was done with the child",
                pid, h.info().commandLine().orElse("?")).isIn('Z', 'X', 'x');
    }
}
