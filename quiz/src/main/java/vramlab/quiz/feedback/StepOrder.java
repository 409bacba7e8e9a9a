package vramlab.quiz.feedback;

import static vramlab.quiz.feedback.StepPlaces.at;

import java.lang.reflect.Method;
import java.util.List;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;
import org.opentest4j.IncompleteExecutionException;

import vramlab.quiz.Graded;

/**
 * Says which step a graded test is waiting for: when a test of step 3.3 fails because step 3.1
 * is not written (its {@code Todo}, anywhere in the exception's causes or suppressed ones), the
 * failure becomes {@code needs step 3.1 first: Round a request is not written yet: read the
 * notes, ...} (the Todo's words; "TODO step" is left out so the score table, which marks a
 * reason holding another step's Todo, does not say it twice). Any other exception (not an
 * assertion) becomes a failure in the kit's format that names the step, the call, the
 * exception, the student's own line and the section to reread ({@link ThrownUnexpectedly});
 * JUnit's time-out names the step, the test and the step's method. A test's own step's
 * {@code Todo}, assertion failures and skipped tests pass through unchanged. Put it on a graded
 * test class with {@code @ExtendWith(StepOrder.class)}.
 *
 * <p>The harness does not depend on the cores, so it knows {@code vramlab.lab.Todo} by name.
 */
public final class StepOrder implements TestExecutionExceptionHandler {
    static final String TODO = "vramlab.lab.Todo";
    /** How the reason of a test stopped at another step's Todo starts ({@link StepNeeded}): {@code needs step 3.2 first: ...}. */
    public static final String NEEDS_STEP = "needs step ";
    private static final Pattern STEP = Pattern.compile("TODO step (\\d+\\.\\d+)");

    /** A graded test that stopped at an earlier (or another) step's Todo. */
    public static final class StepNeeded extends AssertionError {
        private static final long serialVersionUID = 1L;
        private final String needed;

        StepNeeded(String needed, Throwable todo, Throwable thrown) {
            super(NEEDS_STEP + needed + " first: " + String.valueOf(todo.getMessage())
                    .replaceFirst("^TODO step \\S+ \\((.*?)\\) is ", "$1 is ").replace("TODO step", "step"), thrown);
            this.needed = needed;
        }

        /** The step the test waits for. */
        public String needed() { return needed; }
    }

    /**
     * A graded test ended in an exception, not an assertion (a student's code threw, or the test
     * tripped on what it returned), in the kit's format: the step and the call, expected no
     * exception but was this one, where it was thrown (the student's own line in the step's
     * method when it is on the stack, else the kit's line and the call the test made), and the
     * section of the notes that states the step's rule:
     * <pre>
     * step 6.1, calling BuddyAllocator.orderFor: expected no exception but was IllegalArgumentException: alloc(16777216): ...
     * Thrown: at your line BuddyAllocator.java:157, in BuddyAllocator.orderFor (step 6.1's method).
     * Reread: ch06 "Rule 1: round up to a power of two".
     * </pre>
     */
    public static final class ThrownUnexpectedly extends AssertionError {
        private static final long serialVersionUID = 1L;

        ThrownUnexpectedly(String message, Throwable thrown) {
            super(message, thrown);
        }
    }

    /** The failure a graded test of {@code step} (in {@code testClass}) gets for the exception {@code thrown}. */
    static ThrownUnexpectedly unexpected(String step, Class<?> testClass, Throwable thrown) {
        StepPlaces.Place place = StepPlaces.of(step, testClass).orElse(null);
        StackTraceElement[] stack = thrown.getStackTrace();
        int test = -1;                                   // the test's own frame nearest the throw
        for (int i = 0; i < stack.length && test < 0; i++) if (inTest(stack[i], testClass)) test = i;
        StackTraceElement called = test > 0 ? stack[test - 1] : null;          // what the test called
        boolean callIsCores = called != null && CORES.matcher(called.getClassName()).matches();
        StringBuilder m = new StringBuilder("step ").append(step);
        if (test == 0) m.append(", in the test");
        else if (callIsCores) m.append(", calling ").append(method(called));
        m.append(": expected no exception but was ").append(thrown.getClass().getSimpleName());
        if (thrown.getMessage() != null) m.append(": ").append(thrown.getMessage());
        m.append("\nThrown: ").append(where(stack, test, place, testClass)).append('.');
        if (place != null) m.append("\nReread: ").append(place.section()).append('.');
        return new ThrownUnexpectedly(m.toString(), thrown);
    }

    /**
     * JUnit's {@code @Timeout} fired ({@code twoMeg() timed out after 10 seconds}): the step,
     * the test by its sentence and its method, and, when JUnit kept where the test thread was,
     * the student's line it was running.
     */
    static ThrownUnexpectedly timedOut(String step, Class<?> testClass, String test, Throwable thrown) {
        StepPlaces.Place place = StepPlaces.of(step, testClass).orElse(null);
        StringBuilder m = new StringBuilder("step ").append(step).append(", the test ")
                .append(test == null ? "" : "\"" + test + "\" ").append("(").append(testClass.getSimpleName())
                .append('.').append(String.valueOf(thrown.getMessage()).replaceFirst(" timed out after .*", ""))
                .append("): timed out").append(String.valueOf(thrown.getMessage()).replaceFirst("^.* timed out", ""));
        StackTraceElement own = null;
        if (place != null) {
            for (Throwable t : withCausesAndSuppressed(thrown)) {
                own = StepPlaces.studentsFrame(t, place).orElse(null);
                if (own != null) break;
            }
        }
        m.append("\nRunning: ").append(own != null ? "your line " + at(own) + ", in " + place.simpleName()
                : place != null ? "step " + step + " is " + place.simpleName() + " (a loop that never ends?)"
                : "a loop that never ends?").append('.');
        if (place != null) m.append("\nReread: ").append(place.section()).append('.');
        return new ThrownUnexpectedly(m.toString(), thrown);
    }

    /**
     * Where a graded test of {@code step} is, from the stack of its thread, for a time-out the
     * grader had to stop: {@code in BuddyAllocator.orderFor (step 6.1), at your line
     * BuddyAllocator.java:157, test GradedStepsTest.orders}; else the first frame in the cores,
     * else the test's own line.
     */
    public static String running(String step, Class<?> testClass, String testMethod, StackTraceElement[] stack) {
        StepPlaces.Place place = step == null ? null : StepPlaces.of(step, testClass).orElse(null);
        String test = "test " + testClass.getSimpleName() + "." + testMethod;
        StepPlaces.Running own = place == null ? null : StepPlaces.running(List.of(place), stack).orElse(null);
        if (own != null) return "in " + own.method() + ", at your line " + own.line() + ", " + test;
        for (StackTraceElement f : stack) {
            if (f.getFileName() != null && CORES.matcher(f.getClassName()).matches()) {
                return "in " + method(f) + " (" + at(f) + ")" + (place == null ? "" : ", step " + step + " is "
                        + place.simpleName()) + ", " + test;
            }
        }
        for (StackTraceElement f : stack) if (inTest(f, testClass)) return "in the " + test + " (" + at(f) + ")";
        return "in the " + test;
    }

    private static java.util.List<Throwable> withCausesAndSuppressed(Throwable t) {
        java.util.List<Throwable> out = new java.util.ArrayList<>();
        for (Throwable c = t; c != null && !out.contains(c); c = c.getCause()) {
            out.add(c);
            out.addAll(java.util.List.of(c.getSuppressed()));
        }
        return out;
    }

    private static String displayName(ExtensionContext context) {
        try {
            return context.getDisplayName();
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** Where {@code stack} was thrown, said from the student's side. */
    private static String where(StackTraceElement[] stack, int test, StepPlaces.Place place, Class<?> testClass) {
        if (test == 0) {
            return "in the test (" + at(stack[0]) + "), on what your code returned or left"
                    + (place == null ? "" : " (step " + place.step() + " is " + place.simpleName() + ")");
        }
        StackTraceElement first = stack.length == 0 ? null : stack[0];
        StackTraceElement own = null;
        int above = test < 0 ? stack.length : test;          // the frames the test called into
        for (int i = 0; i < above && own == null; i++) if (place != null && place.runs(stack[i])) own = stack[i];
        StackTraceElement cores = null;
        for (int i = 0; i < above && cores == null; i++) {
            if (stack[i].getFileName() != null && CORES.matcher(stack[i].getClassName()).matches()) cores = stack[i];
        }
        if (own != null && (own == first || own == cores)) {
            return "at your line " + at(own) + ", in " + place.simpleName() + " (step " + place.step() + "'s method)"
                    + (own == first ? "" : ", in its call to " + method(first));
        }
        if (own != null) {
            return "at " + at(cores != null ? cores : first) + ", in " + method(cores != null ? cores : first)
                    + ", reached from your line " + at(own) + " in " + place.simpleName()
                    + " (step " + place.step() + "'s method)";
        }
        if (cores != null) {
            return "at " + at(cores) + ", in " + method(cores)
                    + (place == null ? "" : " (step " + place.step() + " is " + place.simpleName() + ", not on the stack:"
                    + " what it left behind broke this call)");
        }
        return first == null ? "(no stack trace)" : "at " + at(first) + ", in " + method(first);
    }

    private static boolean inTest(StackTraceElement f, Class<?> testClass) {
        String top = testClass.getName().contains("$") ? testClass.getName().substring(0, testClass.getName().indexOf('$'))
                : testClass.getName();
        return f.getClassName().equals(top) || f.getClassName().startsWith(top + "$");
    }

    private static String method(StackTraceElement f) { return simple(f.getClassName()) + "." + f.getMethodName(); }

    private static String simple(String className) { return className.substring(className.lastIndexOf('.') + 1); }

    private static final Pattern CORES = Pattern.compile("vramlab\\.(units|lab|gmmu|driver|alloc|buddy|kv|pinned)\\.[^.]+");

    @Override
    public void handleTestExecutionException(ExtensionContext context, Throwable thrown) throws Throwable {
        Graded graded = context.getTestMethod().map(m -> m.getAnnotation(Graded.class)).orElse(null);
        Throwable todo = todoIn(thrown);
        if (graded == null || thrown instanceof StepNeeded || thrown instanceof ThrownUnexpectedly) throw thrown;
        if (todo == null) {
            if (thrown instanceof AssertionError || thrown instanceof IncompleteExecutionException) throw thrown;
            Class<?> testClass = context.getTestMethod().get().getDeclaringClass();
            if (thrown instanceof TimeoutException) throw timedOut(graded.step(), testClass, displayName(context), thrown);
            throw unexpected(graded.step(), testClass, thrown);
        }
        String step = stepOf(todo);
        if (step == null || step.equals(graded.step())) throw thrown;
        throw new StepNeeded(step, todo, thrown);
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
