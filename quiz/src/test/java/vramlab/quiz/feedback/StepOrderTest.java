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

    @Test
    @DisplayName("an exception thrown in a core names the file, line and method it came from")
    void exceptionInTheCores() throws Exception {
        NullPointerException npe = new NullPointerException("b is null");
        npe.setStackTrace(new StackTraceElement[] {
            new StackTraceElement("vramlab.alloc.CachingAllocator", "mergeWithNeighbours", "CachingAllocator.java", 441),
            new StackTraceElement("vramlab.ch03.CachingAllocatorStepsTest", "merges", "CachingAllocatorStepsTest.java", 9)});
        assertThat(handled("gradedForStep33", npe)).isInstanceOf(StepOrder.ThrownInCores.class)
                .hasMessage("NullPointerException: b is null (thrown at CachingAllocator.java:441, in"
                        + " CachingAllocator.mergeWithNeighbours)").hasCause(npe);
        IllegalStateException inTest = new IllegalStateException("a test's own problem");
        inTest.setStackTrace(new StackTraceElement[] {
            new StackTraceElement("vramlab.ch03.CachingAllocatorStepsTest", "merges", "CachingAllocatorStepsTest.java", 9)});
        assertThat(handled("gradedForStep33", inTest)).isSameAs(inTest);
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
