package vramlab.quiz.grade;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A grader killed outright (SIGKILL: no shutdown hook runs) leaves no test JVM running. The
 * test JVM here is the real {@link ChildRunner}, started by a stand-in grader through {@link
 * ChildRun}, on one test that starts a {@code sleep 300} and then sleeps 300 s itself; it writes
 * both pids into its folder. Before {@link Lifeline}, both ran their five minutes after the
 * grader was gone.
 */
@Tag("grading-fixtures")
class LifelineTest {
    @TempDir Path dir;
    private final List<Long> started = new ArrayList<>();

    @AfterEach
    void killLeftovers() {
        for (long pid : started) ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
    }

    @Test
    @DisplayName("a test JVM whose grader was killed with SIGKILL stops, and so does the process its test started")
    void graderKilled() throws Exception {
        assumeFalse(System.getProperty("os.name", "").startsWith("Windows"), "skipped: no SIGKILL on Windows");
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        assumeTrue(javac != null, "skipped: this Java has no compiler to build the looping test with");
        Path roots = Files.createDirectories(dir.resolve("roots"));
        Path source = Files.writeString(dir.resolve("ForeverTest.java"), """
                public class ForeverTest {
                    @org.junit.jupiter.api.Test
                    void forever() throws Exception {
                        Process sleep = new ProcessBuilder("sleep", "300").start();
                        java.nio.file.Files.writeString(java.nio.file.Path.of("sleep-pid"), Long.toString(sleep.pid()));
                        java.nio.file.Files.writeString(java.nio.file.Path.of("pid.tmp"), Long.toString(ProcessHandle.current().pid()));
                        java.nio.file.Files.move(java.nio.file.Path.of("pid.tmp"), java.nio.file.Path.of("pid"));
                        Thread.sleep(300_000);
                    }
                }
                """);
        assertThat(javac.run(null, null, null, "-d", roots.toString(), "-cp", System.getProperty("java.class.path"),
                source.toString())).as("the looping test compiles").isZero();
        Path area = Files.createDirectories(dir.resolve("area"));
        Path rootsFile = Files.writeString(dir.resolve("roots.txt"), roots + "\n");
        Path uids = Files.writeString(dir.resolve("uids.txt"),
                "[engine:junit-jupiter]/[class:ForeverTest]/[method:forever()]\n");
        List<String> child = List.of(ChildWatchShutdownTest.java(), "-cp",
                roots + File.pathSeparator + System.getProperty("java.class.path"), ChildRunner.class.getName(),
                "run", area.resolve("results-1.txt").toString(), rootsFile.toString(), uids.toString(), "1048576");

        Process grader = StandInGrader.startRun(area, child);
        try {
            long testJvm = pid(area.resolve("pid"));
            long sleep = pid(area.resolve("sleep-pid"));
            assertThat(ProcessHandle.of(testJvm).map(ProcessHandle::isAlive)).as("the test JVM runs its test").contains(true);

            grader.destroyForcibly();                          // SIGKILL: the grader's hooks never run
            assertThat(grader.waitFor(60, TimeUnit.SECONDS)).as("the grader is gone").isTrue();
            for (int i = 0; i < 1000 && ProcessHandle.of(testJvm).map(ProcessHandle::isAlive).orElse(false); i++) {
                Thread.sleep(20);                              // a bound, not a measure: 20 s against the test's 300
            }
            ChildSessionTest.assertGone(testJvm);
            for (int i = 0; i < 100 && ProcessHandle.of(sleep).map(ProcessHandle::isAlive).orElse(false); i++) {
                Thread.sleep(20);
            }
            ChildSessionTest.assertGone(sleep);
        } finally {
            grader.destroyForcibly();
        }
    }

    /** What the test JVM printed in {@code area}, for a failure's message. */
    private static String printed(Path area) throws Exception {
        Path out = area.resolve("stdout-1.txt");
        return Files.exists(out) ? Files.readString(out) : "(nothing: " + out + " is not there)";
    }

    /** The pid the test wrote to {@code file} (waiting up to 60 s: a JVM's start and a discovery); killed after the test. */
    private long pid(Path file) throws Exception {
        for (int i = 0; i < 3000 && !(Files.exists(file) && Files.size(file) > 0); i++) Thread.sleep(20);
        assertThat(file).as("the test wrote a pid; the test JVM printed: %s", printed(file.getParent())).exists();
        long pid = Long.parseLong(Files.readString(file).strip());
        started.add(pid);
        return pid;
    }
}
