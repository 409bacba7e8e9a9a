package vramlab.kit;

import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.function.Consumer;

import vramlab.lab.Todo;

/**
 * One scenario of a chapter's lab: its heading and the code that prints it. A lab runs its
 * scenarios one by one, so that on a student's cores a scenario that needs a step not written
 * yet says which (its {@link Todo}: the step, its title and the section to read) and the
 * scenarios that do not need it still run.
 *
 * @param title the heading, printed as {@code == title ==}
 * @param body  prints the scenario
 */
public record Scenario(String title, Consumer<PrintStream> body) {

    /**
     * The lab's remarks on the scenarios before it ("What to notice: ..."): printed when every one
     * of them ran; where one stopped (a step not written yet), a line saying the remarks wait for
     * them, since remarks on output the reader did not see mislead.
     */
    public static Scenario afterword(java.util.function.Supplier<String> text) {
        return new Scenario("", new Afterword(text));
    }

    private record Afterword(java.util.function.Supplier<String> text) implements Consumer<PrintStream> {
        @Override
        public void accept(PrintStream out) { out.print(text.get()); }
    }

    /**
     * How a run of scenarios went: how many stopped at a Todo, how many at another error (a
     * scenario stopped for running past its {@link Bound} among them), and how many did not run
     * because one before them ran past its bound and ended the run; {@code steps}, the steps
     * ({@code "3.2"}) of the Todos that stopped scenarios, each once, in the order met.
     */
    public record Outcome(int todos, int errors, int notRun, List<String> steps) {
        public Outcome {
            steps = List.copyOf(steps);
        }

        public Outcome(int todos, int errors, int notRun) { this(todos, errors, notRun, List.of()); }

        public Outcome(int todos, int errors) { this(todos, errors, 0); }

        public boolean clean() { return todos == 0 && errors == 0; }
    }

    /**
     * How long one scenario may run before it is stopped, and what names where a thread is from
     * its stack ({@code " (at ToyPolicy.java:33)"}, or a student's step and line): a step written
     * as a loop that never ends, run by a lab, would otherwise keep the lab running until Ctrl-C.
     */
    public record Bound(java.time.Duration limit, java.util.function.Function<StackTraceElement[], String> where) {
        /** {@code limit}, naming the first frame in the cores. */
        public static Bound of(java.time.Duration limit) { return new Bound(limit, Scenario::firstCoreFrame); }
    }

    /**
     * Runs {@code scenarios} in order, a blank line between two. A scenario that throws prints,
     * under what it printed so far, one line saying why it stopped: the step it needs, or the
     * error and where in the cores it was thrown; the next scenario runs anyway.
     */
    public static Outcome runAll(PrintStream out, List<Scenario> scenarios) {
        return runAll(out, scenarios, (s, o) -> {
            try {
                s.body().accept(o);
                return null;
            } catch (RuntimeException | Error e) {
                return e;
            }
        });
    }

    /**
     * As {@link #runAll(PrintStream, List)}, each scenario on a thread of its own under {@code
     * bound}: one still running at the bound's limit prints, under what it printed so far, {@code
     * [stopped] still running after N s} and where it was (its thread is left behind, a daemon
     * that prints nothing more), and ends the run: the scenarios after it would most likely run
     * the same step into the same loop. A scenario that calls {@code System.exit} prints, as the
     * JVM shuts down, that it did and where, and the JVM ends with status 1.
     */
    public static Outcome runAll(PrintStream out, List<Scenario> scenarios, Bound bound) {
        Watched watched = new Watched(out, bound);
        Thread hook = new Thread(watched::exiting, "vramlab-lab-exit");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            return runAll(out, scenarios, watched);
        } finally {
            watched.running = null;
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                // the JVM is shutting down already
            }
        }
    }

    /** Runs one scenario's body: what it threw, null when it returned. */
    private interface Runner {
        Throwable run(Scenario s, PrintStream out);
    }

    /** A scenario that ran past its bound: what it printed is followed by this line, and the run ends. */
    private static final class RanPastBound extends RuntimeException {
        RanPastBound(String line) { super(line, null, false, false); }
    }

    private static Outcome runAll(PrintStream out, List<Scenario> scenarios, Runner runner) {
        int todos = 0;
        int errors = 0;
        java.util.Set<String> steps = new java.util.LinkedHashSet<>();
        for (int i = 0; i < scenarios.size(); i++) {
            if (i > 0) out.println();
            Scenario s = scenarios.get(i);
            if (s.body() instanceof Afterword && todos + errors > 0) {
                out.println("  [waiting] what to notice: it reads the output of the scenarios above, and "
                        + (todos + errors) + " of them stopped");
                continue;
            }
            if (!s.title().isEmpty()) out.println("== " + s.title() + " ==");
            Throwable e = runner.run(s, out);
            if (e == null) continue;
            if (e instanceof RanPastBound past) {
                out.println(past.getMessage());
                out.flush();
                return new Outcome(todos, errors + 1, scenarios.size() - i - 1, List.copyOf(steps));
            }
            if (e instanceof UncheckedIOException u) throw u;   // the output failed (the launcher's, piped and closed): not the scenario
            if (e instanceof RuntimeException || e instanceof LinkageError || e instanceof AssertionError
                    || e instanceof StackOverflowError) {
                Todo todo = todoIn(e);
                if (todo != null) {
                    todos++;
                    steps.add(todo.step());
                } else {
                    errors++;
                }
                out.println(stopped(e, todo));
            } else if (e instanceof Error err) {
                throw err;
            } else {
                throw new IllegalStateException(e);
            }
        }
        out.flush();
        return new Outcome(todos, errors, 0, List.copyOf(steps));
    }

    /**
     * Runs each scenario on a daemon thread of its own, printing through a stream that is shut
     * once the scenario is left behind, and waits for it up to the bound's limit.
     */
    private static final class Watched implements Runner {
        private final PrintStream out;
        private final Bound bound;
        volatile Running running;

        private record Running(Scenario scenario, Thread thread) {}

        Watched(PrintStream out, Bound bound) {
            this.out = out;
            this.bound = bound;
        }

        @Override
        public Throwable run(Scenario s, PrintStream to) {
            Gate gate = new Gate(to);
            PrintStream own = new PrintStream(gate, false, java.nio.charset.StandardCharsets.UTF_8);   // flushed as the lab's output is: at its end
            Throwable[] thrown = new Throwable[1];
            Thread t = new Thread(() -> {
                try {
                    s.body().accept(own);
                } catch (Throwable e) {
                    thrown[0] = e;
                }
                try {
                    own.flush();
                } catch (UncheckedIOException e) {
                    // The output failed (the launcher's, piped and closed: ./vramlab lab 4 | head -1):
                    // handed to the run, which ends as runAll's does, not left to this thread, whose
                    // uncaught exception printed a stack trace under head's line.
                    if (thrown[0] == null) thrown[0] = e;
                }
            }, "vramlab-scenario");
            t.setDaemon(true);
            running = new Running(s, t);
            t.start();
            try {
                t.join(Math.max(1, bound.limit().toMillis()));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (t.isAlive()) {
                String where = bound.where().apply(t.getStackTrace());
                running = null;
                gate.shut();                        // not own.flush(): the stuck thread may hold its lock
                return new RanPastBound("  [stopped] still running after " + seconds(bound.limit())
                        + " (a loop that never ends?)" + where);
            }
            running = null;
            return thrown[0];
        }

        /**
         * A shutdown hook: a scenario still running when the JVM shuts down, with {@code
         * System.exit} on its stack, called it (a Ctrl-C shuts down from another thread: nothing said).
         */
        void exiting() {
            Running r = running;
            if (r == null) return;
            StackTraceElement[] stack = r.thread().getStackTrace();
            if (!callsExit(stack)) return;
            out.flush();
            out.println("  [stopped] System.exit was called" + bound.where().apply(stack)
                    + "; a lab cannot go on after it, so it ends here" + (r.scenario().title().isEmpty() ? ""
                    : ", in \"" + r.scenario().title() + "\""));
            out.flush();
            Runtime.getRuntime().halt(1);
        }
    }

    /** True when {@code stack} (a thread's, as the JVM shuts down) is inside {@code System.exit}. */
    public static boolean callsExit(StackTraceElement[] stack) {
        for (StackTraceElement f : stack) {
            if (f.getClassName().equals("java.lang.Runtime") && f.getMethodName().equals("exit")) return true;
        }
        return false;
    }

    private static String seconds(java.time.Duration d) {
        return d.toMillis() % 1000 == 0 ? d.toSeconds() + " s" : d.toMillis() + " ms";
    }

    /** Passes bytes on to {@code to} until shut; after, drops them (a scenario left behind prints nothing more). */
    private static final class Gate extends java.io.OutputStream {
        private final java.io.OutputStream to;
        private volatile boolean open = true;

        Gate(java.io.OutputStream to) { this.to = to; }

        void shut() { open = false; }

        @Override
        public void write(int b) throws java.io.IOException { if (open) to.write(b); }

        @Override
        public void write(byte[] b, int off, int len) throws java.io.IOException { if (open) to.write(b, off, len); }

        @Override
        public void flush() throws java.io.IOException { if (open) to.flush(); }
    }

    /** The line a stopped scenario prints. */
    static String stopped(Throwable e, Todo todo) {
        if (todo != null) return "  [needs step " + todo.step() + "] " + todo.getMessage();
        if (e instanceof StackOverflowError) {
            return "  [stopped] StackOverflowError: a call that never returns (a method calling itself without end?)" + where(e);
        }
        return "  [stopped] " + e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage())
                + where(e);
    }

    /** The first Todo in {@code t}'s causes and suppressed exceptions, or null. */
    public static Todo todoIn(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (c instanceof Todo todo) return todo;
            for (Throwable s : c.getSuppressed()) {
                if (s instanceof Todo todo) return todo;
            }
        }
        return null;
    }

    /** {@code (at ToyPolicy.java:33)}: the first frame in the cores, where a student's bug would be. */
    static String where(Throwable e) { return firstCoreFrame(e.getStackTrace()); }

    /** {@code " (at ToyPolicy.java:33)"}: the first frame of {@code stack} in the cores, or nothing. */
    public static String firstCoreFrame(StackTraceElement[] stack) {
        for (StackTraceElement f : stack) {
            String c = f.getClassName();
            if (c.startsWith("vramlab.") && !c.startsWith("vramlab.kit.") && !c.matches("vramlab\\.ch\\d\\d\\..*")
                    && f.getFileName() != null) {
                return " (at " + f.getFileName() + ":" + f.getLineNumber() + ")";
            }
        }
        return "";
    }
}
