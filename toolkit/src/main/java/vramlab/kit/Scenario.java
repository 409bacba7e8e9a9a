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

    /** How a run of scenarios went: how many stopped at a Todo, and how many at another error. */
    public record Outcome(int todos, int errors) {
        public boolean clean() { return todos == 0 && errors == 0; }
    }

    /**
     * Runs {@code scenarios} in order, a blank line between two. A scenario that throws prints,
     * under what it printed so far, one line saying why it stopped: the step it needs, or the
     * error and where in the cores it was thrown; the next scenario runs anyway.
     */
    public static Outcome runAll(PrintStream out, List<Scenario> scenarios) {
        int todos = 0;
        int errors = 0;
        for (int i = 0; i < scenarios.size(); i++) {
            if (i > 0) out.println();
            Scenario s = scenarios.get(i);
            if (s.body() instanceof Afterword && todos + errors > 0) {
                out.println("  [waiting] what to notice: it reads the output of the scenarios above, and "
                        + (todos + errors) + " of them stopped");
                continue;
            }
            if (!s.title().isEmpty()) out.println("== " + s.title() + " ==");
            try {
                s.body().accept(out);
            } catch (UncheckedIOException e) {
                throw e;                                // the output failed (the launcher's, piped and closed): not the scenario
            } catch (RuntimeException | LinkageError | AssertionError | StackOverflowError e) {
                Todo todo = todoIn(e);
                if (todo != null) todos++;
                else errors++;
                out.println(stopped(e, todo));
            }
        }
        out.flush();
        return new Outcome(todos, errors);
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
    static String where(Throwable e) {
        for (StackTraceElement f : e.getStackTrace()) {
            String c = f.getClassName();
            if (c.startsWith("vramlab.") && !c.startsWith("vramlab.kit.") && !c.matches("vramlab\\.ch\\d\\d\\..*")
                    && f.getFileName() != null) {
                return " (at " + f.getFileName() + ":" + f.getLineNumber() + ")";
            }
        }
        return "";
    }
}
