package vramlab.quiz.feedback;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.Optional;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtensionContext;

import vramlab.lab.Todo;
import vramlab.quiz.Graded;

/** What a graded test's failure becomes when it ran into a step not written yet, or a student's exception. */
class StepOrderTest {
    @Graded(step = "3.3", points = 2)
    void gradedForStep33() { }

    void notGraded() { }

    /** The context of a test whose method is {@code name} in this class. */
    static ExtensionContext contextOf(String name) throws NoSuchMethodException {
        Method m = StepOrderTest.class.getDeclaredMethod(name);
        return (ExtensionContext) Proxy.newProxyInstance(StepOrderTest.class.getClassLoader(),
                new Class<?>[] {ExtensionContext.class}, (proxy, method, args) -> {
                    if (method.getName().equals("getTestMethod")) return Optional.of(m);
                    throw new UnsupportedOperationException(method.getName());
                });
    }

    static Throwable handled(String test, Throwable thrown) throws Exception {
        return catchThrowable(() -> new StepOrder().handleTestExecutionException(contextOf(test), thrown));
    }

    @Test
    @DisplayName("an earlier step's Todo becomes 'needs step 3.1 first', with the Todo's message and the original cause")
    void earlierStep() throws Exception {
        Todo todo = new Todo("3.1", "Round a request");
        Throwable t = handled("gradedForStep33", new IllegalStateException("wrapped", todo));
        assertThat(t).isInstanceOf(StepOrder.StepNeeded.class)
                .hasMessage("needs step 3.1 first: Round a request is not written yet: read the notes");
        assertThat(((StepOrder.StepNeeded) t).needed()).isEqualTo("3.1");
        assertThat(t.getCause()).isInstanceOf(IllegalStateException.class);
    }

    @Test
    @DisplayName("a Todo suppressed under an invariant's failure still names the step")
    void suppressedTodo() throws Exception {
        IllegalStateException broken = new IllegalStateException("free block missing from its pool");
        broken.addSuppressed(new Todo("3.2", "Find a block"));
        assertThat(handled("gradedForStep33", broken)).hasMessageStartingWith("needs step 3.2 first");
    }

    @Test
    @DisplayName("the test's own step's Todo, an assertion failure and any failure of an ungraded test pass through")
    void passThrough() throws Exception {
        Todo own = new Todo("3.3", "The split rule");
        assertThat(handled("gradedForStep33", own)).isSameAs(own);
        AssertionError wrong = new AssertionError("expected 512 but was 0");
        assertThat(handled("gradedForStep33", wrong)).isSameAs(wrong);
        Todo other = new Todo("3.1", "Round a request");
        assertThat(handled("notGraded", other)).isSameAs(other);
    }

    @Graded(step = "6.1", points = 2)
    void gradedForStep61() { }

    static StackTraceElement frame(String cls, String method, int line) {
        return new StackTraceElement(cls, method, cls.substring(cls.lastIndexOf('.') + 1) + ".java", line);
    }

    static final StackTraceElement TEST = frame("vramlab.quiz.feedback.StepOrderTest", "gradedForStep61", 9);

    @Test
    @DisplayName("an exception thrown on the student's own line names the step, the call, the exception, that line and the section")
    void exceptionOnTheStudentsLine() throws Exception {
        IllegalArgumentException e = new IllegalArgumentException("alloc(16777216): larger than the largest block");
        e.setStackTrace(new StackTraceElement[] {frame("vramlab.buddy.BuddyAllocator", "orderFor", 157), TEST});
        assertThat(handled("gradedForStep61", e)).isInstanceOf(StepOrder.ThrownUnexpectedly.class).hasCause(e)
                .hasMessage("step 6.1, calling BuddyAllocator.orderFor: expected no exception but was"
                        + " IllegalArgumentException: alloc(16777216): larger than the largest block\n"
                        + "Thrown: at your line BuddyAllocator.java:157, in BuddyAllocator.orderFor (step 6.1's method).\n"
                        + "Reread: ch06 \"Rule 1: round up to a power of two\".");
    }

    @Test
    @DisplayName("thrown in the kit's code: the kit's line, and the student's line in the step's method it came from")
    void exceptionInTheKitsCode() throws Exception {
        IllegalStateException e = new IllegalStateException("block already free");
        e.setStackTrace(new StackTraceElement[] {frame("vramlab.buddy.FreeArea", "remove", 40),
            frame("vramlab.buddy.BuddyAllocator", "orderFor", 155), frame("vramlab.buddy.BuddyAllocator", "alloc", 116), TEST});
        assertThat(handled("gradedForStep61", e)).hasMessageStartingWith("step 6.1, calling BuddyAllocator.alloc:")
                .hasMessageContaining("Thrown: at FreeArea.java:40, in FreeArea.remove, reached from your line"
                        + " BuddyAllocator.java:155 in BuddyAllocator.orderFor (step 6.1's method).");
    }

    @Test
    @DisplayName("thrown by the JDK on the student's line: that line, and the call it made")
    void exceptionInTheJdk() throws Exception {
        IndexOutOfBoundsException e = new IndexOutOfBoundsException("Index 5 out of bounds for length 5");
        e.setStackTrace(new StackTraceElement[] {frame("java.util.ArrayList", "get", 427),
            frame("vramlab.buddy.BuddyAllocator", "orderFor", 158), TEST});
        assertThat(handled("gradedForStep61", e)).hasMessageContaining("Thrown: at your line BuddyAllocator.java:158, in"
                + " BuddyAllocator.orderFor (step 6.1's method), in its call to ArrayList.get.");
    }

    @Test
    @DisplayName("thrown in the test on what the step returned (a null): the test's line and which method is the step")
    void exceptionInTheTest() throws Exception {
        NullPointerException npe = new NullPointerException("Cannot invoke \"Walk.steps()\" because \"w\" is null");
        npe.setStackTrace(new StackTraceElement[] {TEST});
        assertThat(handled("gradedForStep61", npe)).isInstanceOf(StepOrder.ThrownUnexpectedly.class)
                .hasMessage("step 6.1, in the test: expected no exception but was NullPointerException: Cannot invoke"
                        + " \"Walk.steps()\" because \"w\" is null\n"
                        + "Thrown: in the test (StepOrderTest.java:9), on what your code returned or left (step 6.1 is"
                        + " BuddyAllocator.orderFor).\n"
                        + "Reread: ch06 \"Rule 1: round up to a power of two\".");
    }

    @Test
    @DisplayName("JUnit's time-out names the step, the test's method and the step's method")
    void timeOut() throws Exception {
        java.util.concurrent.TimeoutException t = new java.util.concurrent.TimeoutException(
                "gradedForStep61() timed out after 10 seconds");
        assertThat(handled("gradedForStep61", t)).isInstanceOf(StepOrder.ThrownUnexpectedly.class)
                .hasMessage("step 6.1, the test (StepOrderTest.gradedForStep61()): timed out after 10 seconds\n"
                        + "Running: step 6.1 is BuddyAllocator.orderFor (a loop that never ends?).\n"
                        + "Reread: ch06 \"Rule 1: round up to a power of two\".");
    }

    @Test
    @DisplayName("a test the grader stops names the step's method and the student's line it was in, and the test")
    void runningLong() {
        StackTraceElement[] stack = {frame("java.lang.Math", "max", 1), frame("vramlab.buddy.BuddyAllocator", "orderFor", 156),
            frame("vramlab.buddy.BuddyAllocator", "alloc", 116), TEST};
        assertThat(StepOrder.running("6.1", StepOrderTest.class, "gradedForStep61", stack)).isEqualTo(
                "in BuddyAllocator.orderFor (step 6.1), at your line BuddyAllocator.java:156, test StepOrderTest.gradedForStep61");
        StackTraceElement[] elsewhere = {frame("vramlab.buddy.FreeArea", "remove", 40), TEST};
        assertThat(StepOrder.running("6.1", StepOrderTest.class, "gradedForStep61", elsewhere)).isEqualTo(
                "in FreeArea.remove (FreeArea.java:40), step 6.1 is BuddyAllocator.orderFor, test StepOrderTest.gradedForStep61");
        assertThat(StepOrder.running(null, StepOrderTest.class, "gradedForStep61", new StackTraceElement[] {TEST}))
                .isEqualTo("in the test StepOrderTest.gradedForStep61 (StepOrderTest.java:9)");
    }

    @Test
    @DisplayName("an assumption that failed (the test skipped) passes through")
    void skipped() throws Exception {
        org.opentest4j.TestAbortedException skip = new org.opentest4j.TestAbortedException("no real snapshots");
        assertThat(handled("gradedForStep61", skip)).isSameAs(skip);
    }

    @Test
    @DisplayName("thrownBy returns what a call throws, but throws a Todo on")
    void thrownBy() {
        assertThat(StepOrder.thrownBy(() -> { })).isNull();
        assertThat(StepOrder.thrownBy(() -> { throw new IllegalArgumentException("x"); }))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(catchThrowable(() -> StepOrder.thrownBy(() -> { throw new Todo("4.1", "The toy's OOM message"); })))
                .isInstanceOf(Todo.class);
    }
}
