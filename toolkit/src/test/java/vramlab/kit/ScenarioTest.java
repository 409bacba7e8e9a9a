package vramlab.kit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import vramlab.lab.Todo;

/** A lab runs scenario by scenario: one that stops says why, and the next one still runs. */
class ScenarioTest {
    static String run(List<Scenario> scenarios, Scenario.Outcome[] outcome) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        outcome[0] = Scenario.runAll(new PrintStream(b, true, StandardCharsets.UTF_8), scenarios);
        return b.toString(StandardCharsets.UTF_8);
    }

    @Test
    @DisplayName("a Todo stops its scenario with the step and what to read; an error with where; the rest run")
    void stopsAlone() {
        IllegalStateException bug = new IllegalStateException("free block missing from its pool");
        bug.setStackTrace(new StackTraceElement[] {
            new StackTraceElement("vramlab.alloc.AllocatorCheck", "fail", "AllocatorCheck.java", 95),
            new StackTraceElement("vramlab.ch03.CachingAllocatorLab", "run", "CachingAllocatorLab.java", 30)});
        Scenario.Outcome[] o = new Scenario.Outcome[1];
        String out = run(List.of(
                new Scenario("One", p -> {
                    p.println("first line");
                    throw new IllegalStateException("wrapped", new Todo("3.2", "Find a block",
                            "ch03 \"Rule 3\"", "labs/src/main/java/vramlab/alloc/CachingAllocator.java"));
                }),
                new Scenario("Two", p -> { throw bug; }),
                new Scenario("", p -> p.println("what to notice"))), o);
        assertThat(out).isEqualTo("""
                == One ==
                first line
                  [needs step 3.2] TODO step 3.2 (Find a block) is not written yet: read the notes, ch03 "Rule 3", \
                then write it in labs/src/main/java/vramlab/alloc/CachingAllocator.java

                == Two ==
                  [stopped] IllegalStateException: free block missing from its pool (at AllocatorCheck.java:95)

                what to notice
                """);
        assertThat(o[0]).isEqualTo(new Scenario.Outcome(1, 1, 0, List.of("3.2")));
        assertThat(o[0].clean()).isFalse();
    }

    @Test
    @DisplayName("a step that calls itself without end stops its scenario, named where it recursed; the rest run")
    void endlessRecursion() {
        StackOverflowError deep = new StackOverflowError();
        deep.setStackTrace(new StackTraceElement[] {
            new StackTraceElement("vramlab.alloc.ToyPolicy", "roundSize", "ToyPolicy.java", 37),
            new StackTraceElement("vramlab.alloc.ToyPolicy", "roundSize", "ToyPolicy.java", 37)});
        Scenario.Outcome[] o = new Scenario.Outcome[1];
        String out = run(List.of(new Scenario("Deep", p -> { throw deep; }), new Scenario("Next", p -> p.println("ran"))), o);
        assertThat(out).contains("== Deep ==\n  [stopped] StackOverflowError: a call that never returns"
                + " (a method calling itself without end?) (at ToyPolicy.java:37)\n").endsWith("== Next ==\nran\n");
        assertThat(o[0].errors()).isEqualTo(1);
    }

    @Test
    @DisplayName("the lab's remarks on the scenarios above print when all of them ran, and wait when one stopped")
    void afterword() {
        Scenario.Outcome[] o = new Scenario.Outcome[1];
        Scenario remarks = Scenario.afterword(() -> "What to notice: a\n");
        assertThat(run(List.of(new Scenario("A", p -> p.println("a")), remarks), o))
                .isEqualTo("== A ==\na\n\nWhat to notice: a\n");
        String stopped = run(List.of(new Scenario("A", p -> {
            throw new Todo("3.1", "Round a request", "ch03 \"Rule 1\"", "labs/src/main/java/vramlab/alloc/ToyPolicy.java");
        }), remarks, new Scenario("B", p -> p.println("b"))), o);
        assertThat(stopped).doesNotContain("What to notice: a")
                .contains("\n\n  [waiting] what to notice: it reads the output of the scenarios above, and 1 of them stopped\n")
                .endsWith("== B ==\nb\n");
        assertThat(o[0].todos()).isEqualTo(1);
        assertThat(o[0].steps()).containsExactly("3.1");
    }

    @Test
    @DisplayName("the outcome names the steps whose Todos stopped scenarios, each once, in the order met")
    void stepsThatStopped() {
        Scenario.Outcome[] o = new Scenario.Outcome[1];
        Scenario needs32 = new Scenario("A", p -> {
            throw new IllegalStateException("wrapped", new Todo("3.2", "Find a block", "ch03 \"Rule 3\"",
                    "labs/src/main/java/vramlab/alloc/CachingAllocator.java"));
        });
        Scenario needs23 = new Scenario("B", p -> {
            throw new Todo("2.3", "One nvidia-smi row", "ch02 \"What nvidia-smi counts\"",
                    "labs/src/main/java/vramlab/driver/NvidiaSmi.java");
        });
        run(List.of(needs32, needs23, needs32, new Scenario("C", p -> p.println("c"))), o);
        assertThat(o[0].steps()).containsExactly("3.2", "2.3");
        assertThat(o[0].todos()).isEqualTo(3);
    }

    @Test
    @DisplayName("output that can no longer be written (a launcher's, piped and closed) ends the run: not a scenario's failure")
    void outputFailureEndsTheRun() {
        UncheckedIOException closed = new UncheckedIOException(new IOException("Broken pipe"));
        List<String> ran = new ArrayList<>();
        assertThatThrownBy(() -> Scenario.runAll(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                List.of(new Scenario("A", p -> ran.add("A")), new Scenario("B", p -> { throw closed; }),
                        new Scenario("C", p -> ran.add("C"))))).isSameAs(closed);
        assertThat(ran).containsExactly("A");
    }

    @Test
    @DisplayName("under a bound too, output that fails at the scenario's flush ends the run, and no thread prints a trace")
    void outputFailureAtTheFlushEndsABoundedRun() {
        // ./vramlab lab 4 | head -1 (walk of a fresh clone, issue 52): the scenario's thread flushed
        // after its body, outside the try, so the launcher's closed output threw there, uncaught:
        // 'Exception in thread "vramlab-scenario" ...StandardOutput$Closed: Broken pipe' and its stack.
        UncheckedIOException closed = new UncheckedIOException(new IOException("Broken pipe"));
        java.io.OutputStream pipe = new java.io.OutputStream() {
            @Override public void write(int b) { }
            @Override public void flush() { throw closed; }
        };
        List<String> ran = new ArrayList<>();
        List<Throwable> uncaught = new java.util.concurrent.CopyOnWriteArrayList<>();
        Thread.UncaughtExceptionHandler before = Thread.getDefaultUncaughtExceptionHandler();
        Thread.setDefaultUncaughtExceptionHandler((t, e) -> uncaught.add(e));
        try {
            assertThatThrownBy(() -> Scenario.runAll(new PrintStream(pipe, false, StandardCharsets.UTF_8),
                    List.of(new Scenario("A", p -> { ran.add("A"); p.println("a"); }),
                            new Scenario("B", p -> ran.add("B"))),
                    Scenario.Bound.of(java.time.Duration.ofMinutes(10)))).isSameAs(closed);
        } finally {
            Thread.setDefaultUncaughtExceptionHandler(before);
        }
        assertThat(uncaught).isEmpty();
        assertThat(ran).containsExactly("A");
    }

    @Test
    @DisplayName("scenarios that all run print exactly what run(out) printed before: headings, a blank line between")
    void clean() {
        Scenario.Outcome[] o = new Scenario.Outcome[1];
        assertThat(run(List.of(new Scenario("A", p -> p.println("a")), new Scenario("B", p -> p.println("b"))), o))
                .isEqualTo("== A ==\na\n\n== B ==\nb\n");
        assertThat(o[0].clean()).isTrue();
    }

    /** Where a stuck thread is, for the bounded runs below: its frame in {@link #spin}. */
    private static String spinning(StackTraceElement[] stack) {
        for (StackTraceElement f : stack) if (f.getMethodName().equals("spin")) return " in ScenarioTest.spin";
        return " (not in spin)";
    }

    private static volatile boolean stopSpinning;

    private static void spin(PrintStream p) {
        p.println("before the loop");
        while (!stopSpinning) Thread.onSpinWait();
    }

    @Test
    @org.junit.jupiter.api.Timeout(value = 5, unit = java.util.concurrent.TimeUnit.MINUTES)   // without the bound it would never end
    @DisplayName("under a bound, a scenario still running at the limit is stopped, named where it was, and ends the run")
    void ranPastTheBound() throws Exception {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        List<String> ran = new ArrayList<>();
        Scenario.Outcome o;
        try {
            o = Scenario.runAll(new PrintStream(b, true, StandardCharsets.UTF_8), List.of(
                    new Scenario("A", p -> p.println("a")),
                    new Scenario("Loops", ScenarioTest::spin),
                    new Scenario("B", p -> ran.add("B")),
                    Scenario.afterword(() -> "What to notice\n")),
                    new Scenario.Bound(java.time.Duration.ofMillis(300), ScenarioTest::spinning));
        } finally {
            stopSpinning = true;
        }
        assertThat(b.toString(StandardCharsets.UTF_8)).isEqualTo("""
                == A ==
                a

                == Loops ==
                before the loop
                  [stopped] still running after 300 ms (a loop that never ends?) in ScenarioTest.spin
                """);
        assertThat(ran).isEmpty();
        assertThat(o).isEqualTo(new Scenario.Outcome(0, 1, 2));
    }

    @Test
    @DisplayName("under a bound, scenarios that end print exactly what they print without one")
    void boundedRunsAlike() {
        IllegalStateException bug = new IllegalStateException("free block missing from its pool");
        bug.setStackTrace(new StackTraceElement[] {
            new StackTraceElement("vramlab.alloc.AllocatorCheck", "fail", "AllocatorCheck.java", 95)});
        StackOverflowError deep = new StackOverflowError();
        List<Scenario> scenarios = List.of(
                new Scenario("One", p -> {
                    p.println("first line");
                    throw new Todo("3.2", "Find a block", "ch03 \"Rule 3\"", "labs/src/main/java/vramlab/alloc/CachingAllocator.java");
                }),
                new Scenario("Two", p -> { throw bug; }),
                new Scenario("Deep", p -> { throw deep; }),
                Scenario.afterword(() -> "remarks\n"),
                new Scenario("Three", p -> p.print("no newline")));
        Scenario.Outcome[] plain = new Scenario.Outcome[1];
        String expected = run(scenarios, plain);
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        Scenario.Outcome bounded = Scenario.runAll(new PrintStream(b, true, StandardCharsets.UTF_8), scenarios,
                Scenario.Bound.of(java.time.Duration.ofMinutes(10)));
        assertThat(b.toString(StandardCharsets.UTF_8)).isEqualTo(expected);
        assertThat(bounded).isEqualTo(plain[0]).isEqualTo(new Scenario.Outcome(1, 2, 0, List.of("3.2")));
    }

    /** A lab whose second scenario calls System.exit(0), run in a JVM of its own by {@link #systemExit}. */
    static final class ExitingLab {
        public static void main(String[] args) {
            PrintStream out = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), false,
                    StandardCharsets.UTF_8);
            Scenario.runAll(out, List.of(new Scenario("A", p -> p.println("a")),
                    new Scenario("Exits", p -> {
                        p.println("about to exit");
                        exitHere();
                    }),
                    new Scenario("B", p -> p.println("b"))),
                    new Scenario.Bound(java.time.Duration.ofMinutes(10), stack -> {
                        for (StackTraceElement f : stack) {
                            if (f.getMethodName().equals("exitHere")) return " in ExitingLab.exitHere";
                        }
                        return " (not in exitHere)";
                    }));
            out.println("the run went on");
            out.flush();
        }

        private static void exitHere() { System.exit(0); }
    }

    @Test
    @DisplayName("under a bound, a scenario that calls System.exit says so and where, and the JVM ends with status 1")
    void systemExit() throws Exception {
        Process p = new ProcessBuilder(java.nio.file.Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), ExitingLab.class.getName()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as(out).isEqualTo(1);
        assertThat(out).isEqualTo("""
                == A ==
                a

                == Exits ==
                about to exit
                  [stopped] System.exit was called in ExitingLab.exitHere; a lab cannot go on after it, so it ends here,\
                 in "Exits"
                """);
    }

    /** A lab shut down from outside its scenario's thread while the scenario runs, as Ctrl-C shuts it down. */
    static final class ShutDownElsewhere {
        public static void main(String[] args) {
            PrintStream out = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), true,
                    StandardCharsets.UTF_8);
            Scenario.runAll(out, List.of(new Scenario("Waits", p -> {
                p.println("waiting");
                new Thread(() -> System.exit(0), "not the scenario").start();
                while (true) Thread.onSpinWait();
            })), Scenario.Bound.of(java.time.Duration.ofMinutes(10)));
        }
    }

    @Test
    @DisplayName("a JVM shut down while a scenario runs, not by the scenario's own System.exit (Ctrl-C), says nothing of System.exit")
    void shutDownElsewhere() throws Exception {
        Process p = new ProcessBuilder(java.nio.file.Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), ShutDownElsewhere.class.getName()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as(out).isZero();
        assertThat(out).isEqualTo("== Waits ==\nwaiting\n");
    }
}
