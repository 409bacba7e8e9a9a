package vramlab.quiz.grade;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A child whose process starts a session of its own and is left by its parent ({@code ( setsid
 * sh -c ... & )}: the shell form of a daemon's double fork with {@code setsid()}) leaves nothing
 * running once the grader is done with it. Before, that process was neither a descendant of the
 * child nor in its session, so neither {@link ChildWatch#kill} nor {@link ChildSession} found
 * it, and its {@code sleep 300} outlived grading. Each child writes the escaped process's pid to
 * a file; every such pid is killed after each test, whatever the outcome.
 */
class ChildMarkTest {
    @TempDir Path dir;
    private final List<Long> escaped = new ArrayList<>();

    /**
     * A shell that leaves behind a {@code sleep 300} in a session of its own, its parent gone,
     * waits (at most 10 s) until it has written its pid to {@code pid}, then runs {@code then}.
     */
    static List<String> escape(String then) {
        return List.of("sh", "-c", "( setsid sh -c 'echo $$ > pid.tmp && mv pid.tmp pid && exec sleep 300' & ) ;"
                + " i=0; while [ ! -s pid ] && [ $i -lt 1000 ]; do sleep 0.01; i=$((i+1)); done; " + then);
    }

    private void needsSetsidAndProc() {
        assumeTrue(ChildMark.available(), "skipped: no /proc/<pid>/environ to find a child's mark in");
        assumeTrue(ChildSession.onPath("setsid", System.getenv("PATH"), Path.of("")) != null,
                "skipped: no setsid command on the PATH to escape with");
    }

    @AfterEach
    void killLeftovers() {
        for (long pid : escaped) ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
    }

    @Test
    @Tag("grading-fixtures")
    @DisplayName("a child killed after a process of it started a session of its own leaves that process not running")
    void killed() throws Exception {
        needsSetsidAndProc();
        Process child = ChildWatch.start(new ProcessBuilder(escape("sleep 300")).directory(dir.toFile()));
        long pid;
        try {
            pid = escapedPid(dir);
            ProcessHandle h = ProcessHandle.of(pid).orElseThrow();
            assertThat(child.descendants()).as("no descendant of the child any more").doesNotContain(h);
            assertThat(ChildSession.sessionOf(pid)).as("in a session of its own").isEqualTo(pid).isNotEqualTo(child.pid());
        } finally {
            ChildWatch.kill(child);
        }
        ChildSessionTest.assertGone(pid);
    }

    @Test
    @Tag("grading-fixtures")
    @DisplayName("a test JVM that exits after a process of it started a session of its own leaves that process not running")
    void childRunExited() throws Exception {
        needsSetsidAndProc();
        ChildRun run = new ChildRun(escape("exit 0"), dir, 1);
        run.run(Map.of(), Duration.ofSeconds(60), System.nanoTime() + Duration.ofSeconds(60).toNanos(), 1 << 20);
        assertThat(run.stoppedBy()).isEqualTo("the JVM exited with status 0 during this test (System.exit, or a crash)");
        ChildSessionTest.assertGone(escapedPid(dir));
    }

    @Test
    @Tag("grading-fixtures")
    @DisplayName("a child timed out leaves its escaped process not running, and another child's escaped process is left alone")
    void anotherChildsMarkLeftAlone() throws Exception {
        needsSetsidAndProc();
        Path other = Files.createDirectories(dir.resolve("other"));
        Process second = ChildWatch.start(new ProcessBuilder(escape("sleep 300")).directory(other.toFile()));
        try {
            long its = escapedPid(other);
            Path mine = Files.createDirectories(dir.resolve("mine"));
            ChildWatch.Ending end = ChildWatch.run(escape("sleep 300"), mine, mine.resolve("out.txt"),
                    Duration.ofMillis(500), 1 << 20);
            assertThat(end.stoppedBy()).startsWith("timed out after");
            ChildSessionTest.assertGone(escapedPid(mine));
            assertThat(ProcessHandle.of(its).map(ProcessHandle::isAlive)).as("the other child's escaped process")
                    .contains(true);
        } finally {
            ChildWatch.kill(second);
        }
        ChildSessionTest.assertGone(escapedPid(other));
    }

    @Test
    @DisplayName("a mark is a whole entry of the environment, its exact token")
    void exactEntry() {
        byte[] environ = "HOME=/x\0VRAMLAB_GRADE_RUN=ab-10\0PATH=/bin\0".getBytes(StandardCharsets.US_ASCII);
        assertThat(ChildMark.carries(environ, Set.of("ab-10"))).isTrue();
        assertThat(ChildMark.carries(environ, Set.of("ab-1", "b-10", "ab-100"))).isFalse();
        assertThat(ChildMark.carries("VRAMLAB_GRADE_RUN=ab-1".getBytes(StandardCharsets.US_ASCII), Set.of("ab-1"))).isTrue();
        assertThat(ChildMark.carries("XVRAMLAB_GRADE_RUN=ab-1\0".getBytes(StandardCharsets.US_ASCII), Set.of("ab-1"))).isFalse();
        assertThat(ChildMark.carries(new byte[0], Set.of("ab-1"))).isFalse();
    }

    @Test
    @Tag("grading-fixtures")
    @DisplayName("a grader stopped with SIGTERM leaves no process of its child's that started a session of its own")
    void graderStopped() throws Exception {
        needsSetsidAndProc();
        Process grader = StandInGrader.start(dir, escape("sleep 300"));
        try (BufferedReader out = new BufferedReader(new InputStreamReader(grader.getInputStream(), StandardCharsets.UTF_8))) {
            assertThat(out.readLine()).isEqualTo("started");
            long pid = escapedPid(dir);
            grader.destroy();                                   // SIGTERM: the shutdown hook
            assertThat(grader.waitFor(60, TimeUnit.SECONDS)).as("the grader stops").isTrue();
            for (int i = 0; i < 50 && ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false); i++) {
                Thread.sleep(20);                               // the hook kills, it does not wait: a bound, not a measure
            }
            ChildSessionTest.assertGone(pid);
        } finally {
            grader.destroyForcibly();
        }
    }

    /** The escaped process's pid, as the child wrote it in {@code folder} (waiting up to 10 s); killed after the test. */
    private long escapedPid(Path folder) throws Exception {
        Path file = folder.resolve("pid");
        for (int i = 0; i < 1000 && !(Files.exists(file) && Files.size(file) > 0); i++) Thread.sleep(10);
        assertThat(file).as("the child wrote its escaped process's pid").exists();
        long pid = Long.parseLong(Files.readString(file).strip());
        if (!escaped.contains(pid)) escaped.add(pid);
        return pid;
    }
}
