package vramlab.quiz.feedback;

import java.lang.reflect.Method;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;

import vramlab.quiz.Graded;

/**
 * Says which step a graded test is waiting for: when a test of step 3.3 fails because step 3.1
 * is not written (its {@code Todo}, anywhere in the exception's causes or suppressed ones), the
 * failure becomes {@code needs step 3.1 first: Round a request is not written yet: read the
 * notes, ...} (the Todo's words; "TODO step" is left out so the score table, which marks a
 * reason holding another step's Todo, does not say it twice). An
 * exception a student's code throws (not an assertion) gains where in the cores it was thrown:
 * {@code NullPointerException: ... (thrown at CachingAllocator.java:441, in
 * CachingAllocator.mergeWithNeighbours)}. A test's own step's {@code Todo} and assertion failures
 * pass through unchanged. Put it on a graded test class with {@code @ExtendWith(StepOrder.class)}.
 *
 * <p>The harness does not depend on the cores, so it knows {@code vramlab.lab.Todo} by name.
 */
public final class StepOrder implements TestExecutionExceptionHandler {
    static final String TODO = "vramlab.lab.Todo";
    private static final Pattern STEP = Pattern.compile("TODO step (\\d+\\.\\d+)");

    /** A graded test that stopped at an earlier (or another) step's Todo. */
    public static final class StepNeeded extends AssertionError {
        private static final long serialVersionUID = 1L;
        private final String needed;

        StepNeeded(String needed, Throwable todo, Throwable thrown) {
            super("needs step " + needed + " first: " + String.valueOf(todo.getMessage())
                    .replaceFirst("^TODO step \\S+ \\((.*?)\\) is ", "$1 is ").replace("TODO step", "step"), thrown);
            this.needed = needed;
        }

        /** The step the test waits for. */
        public String needed() { return needed; }
    }

    /** A student's code threw (not an assertion): the exception, and where in the cores it was thrown. */
    public static final class ThrownInCores extends AssertionError {
        private static final long serialVersionUID = 1L;

        ThrownInCores(Throwable thrown, StackTraceElement at) {
            super(thrown.getClass().getSimpleName() + (thrown.getMessage() == null ? "" : ": " + thrown.getMessage())
                    + " (thrown at " + at.getFileName() + ":" + at.getLineNumber() + ", in "
                    + at.getClassName().substring(at.getClassName().lastIndexOf('.') + 1) + "." + at.getMethodName()
                    + ")", thrown);
        }
    }

    private static final Pattern CORES = Pattern.compile("vramlab\\.(units|lab|gmmu|driver|alloc|buddy|kv|pinned)\\.[^.]+");

    @Override
    public void handleTestExecutionException(ExtensionContext context, Throwable thrown) throws Throwable {
        Graded graded = context.getTestMethod().map(m -> m.getAnnotation(Graded.class)).orElse(null);
        Throwable todo = todoIn(thrown);
        if (graded == null || thrown instanceof StepNeeded || thrown instanceof ThrownInCores) throw thrown;
        if (todo == null) {
            StackTraceElement at = thrown instanceof AssertionError ? null : firstInCores(thrown);
            if (at != null) throw new ThrownInCores(thrown, at);
            throw thrown;
        }
        String step = stepOf(todo);
        if (step == null || step.equals(graded.step())) throw thrown;
        throw new StepNeeded(step, todo, thrown);
    }

    /** The first frame of {@code t} in a core's package (a student's code), or null. */
    static StackTraceElement firstInCores(Throwable t) {
        for (StackTraceElement f : t.getStackTrace()) {
            if (f.getFileName() != null && CORES.matcher(f.getClassName()).matches()) return f;
        }
        return null;
    }

    /**
     * What {@code call} throws (null when it returns), for a test that expects an exception; a
     * {@code Todo} is thrown on instead, so a step not written yet reads as one and not as
     * "expected an OOM but was Todo".
     */
    public static Throwable thrownBy(Runnable call) {
        try {
            call.run();
            return null;
        } catch (RuntimeException | Error e) {
            if (todoIn(e) != null) throw e;
            return e;
        }
    }

    /** The first {@code Todo} in {@code t}, its causes and their suppressed exceptions; or null. */
    public static Throwable todoIn(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (isTodo(c)) return c;
            for (Throwable s : c.getSuppressed()) if (isTodo(s)) return s;
        }
        return null;
    }

    static boolean isTodo(Throwable t) { return t.getClass().getName().equals(TODO); }

    /** The Todo's step: its {@code step()} method, else the number in its message. */
    public static String stepOf(Throwable todo) {
        try {
            Method m = todo.getClass().getMethod("step");
            Object s = m.invoke(todo);
            if (s instanceof String str && !str.isBlank()) return str;
        } catch (ReflectiveOperationException | RuntimeException e) {
            // fall back to the message
        }
        Matcher m = STEP.matcher(String.valueOf(todo.getMessage()));
        return m.find() ? m.group(1) : null;
    }
}
