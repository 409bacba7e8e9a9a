package vramlab.quiz;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;
import org.junit.platform.launcher.core.LauncherConfig;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * The listener's rules, on fixture test classes run by an inner launcher (the fixtures are
 * nested classes, which Surefire does not run by itself).
 */
class GradedItemsTest {

    static List<ScoreRow> run(Class<?>... classes) {
        List<ScoreRow> rows = new ArrayList<>();
        GradedItems items = new GradedItems(r -> { });
        Launcher launcher = LauncherFactory.create(LauncherConfig.builder()
                .enableTestExecutionListenerAutoRegistration(false).build());
        LauncherDiscoveryRequestBuilder b = LauncherDiscoveryRequestBuilder.request();
        for (Class<?> c : classes) b.selectors(selectClass(c));
        LauncherDiscoveryRequest request = b.build();
        launcher.execute(request, new TestExecutionListener() {
            @Override public void testPlanExecutionStarted(TestPlan plan) { items.start(plan); }
            @Override public void executionFinished(TestIdentifier id, TestExecutionResult r) { items.finished(id, r); }
            @Override public void executionSkipped(TestIdentifier id, String reason) { items.skipped(id, reason); }
            @Override public void testPlanExecutionFinished(TestPlan plan) { rows.addAll(items.finish()); }
        });
        return rows;
    }

    static Map<String, ScoreRow> byStep(List<ScoreRow> rows) {
        return rows.stream().collect(Collectors.toMap(ScoreRow::step, Function.identity()));
    }

    @Test
    @DisplayName("passing, failing, claiming part credit, skipped and parameterized items each get one row")
    void oneRowPerItem() {
        Map<String, ScoreRow> rows = byStep(run(Mixed.class));
        assertThat(rows).containsOnlyKeys("t.1", "t.2", "t.3", "t.4", "t.5", "t.6", "t.7");
        assertThat(rows.get("t.6").earned()).as("a nested class's graded test").isEqualTo(1);
        assertThat(rows.get("t.7").reason()).as("a factory is one item").contains("dynamic 2");
        assertThat(rows.get("t.1")).extracting(ScoreRow::earned, ScoreRow::status).containsExactly(2, "PASSED");
        assertThat(rows.get("t.2")).extracting(ScoreRow::earned, ScoreRow::why).containsExactly(0, "expected 4 but was 5");
        assertThat(rows.get("t.2").reason()).as("the lines below the first are kept").isEqualTo("expected 4 but was 5\nmap...");
        assertThat(rows.get("t.3")).as("a thrown PartialCredit earns nothing: only the grader's marker gives part")
                .extracting(ScoreRow::earned, ScoreRow::points, ScoreRow::status).containsExactly(0, 4, "FAILED");
        assertThat(rows.get("t.4")).extracting(ScoreRow::earned, ScoreRow::status).containsExactly(0, "SKIPPED");
        assertThat(rows.get("t.5").earned()).as("one bad invocation loses the item").isZero();
        assertThat(rows.get("t.5").reason()).contains("odd: 3");
    }

    @Test
    @DisplayName("a class whose static initialiser throws still gets a row per graded test, with 0 and the reason")
    void brokenInitialiserWithBeforeAll() {
        List<ScoreRow> rows = run(BrokenInitBeforeAll.class);
        assertThat(rows).hasSize(2).allSatisfy(r -> {
            assertThat(r.earned()).isZero();
            assertThat(r.reason()).contains("could not run").contains("student code exploded");
        });
    }

    @Test
    @DisplayName("without @BeforeAll, the same broken class fails test by test, each with a reason")
    void brokenInitialiserPerTest() {
        List<ScoreRow> rows = run(BrokenInit.class);
        assertThat(rows).hasSize(2).allSatisfy(r -> {
            assertThat(r.earned()).isZero();
            assertThat(r.reason()).isNotBlank();
        });
        assertThat(rows).anySatisfy(r -> assertThat(r.reason()).contains("student code exploded"));
    }

    static class Mixed {
        @Test @Graded(step = "t.1", points = 2) void passes() { }

        @Test @Graded(step = "t.2", points = 3) void fails() { throw new AssertionError("expected 4 but was 5\nmap..."); }

        @Test @Graded(step = "t.3", points = 4) void partly() { throw new PartialCredit(1, 4, "1 of 4 parts right"); }

        @Test @Disabled("not this week") @Graded(step = "t.4", points = 1) void skipped() { }

        @ParameterizedTest @ValueSource(ints = {2, 3, 4}) @Graded(step = "t.5", points = 2)
        void everyInvocation(int n) { if (n % 2 != 0) throw new AssertionError("odd: " + n); }

        @Test void notGraded() { throw new AssertionError("not graded, not counted"); }

        @org.junit.jupiter.api.Nested
        class Inner {
            @Test @Graded(step = "t.6", points = 1) void nested() { }
        }

        @org.junit.jupiter.api.TestFactory @Graded(step = "t.7", points = 2)
        Stream<org.junit.jupiter.api.DynamicTest> dynamic() {
            return Stream.of(1, 2).map(n -> org.junit.jupiter.api.DynamicTest.dynamicTest("n=" + n, () -> {
                if (n == 2) throw new AssertionError("dynamic " + n);
            }));
        }
    }

    static int explode() { throw new IllegalStateException("student code exploded"); }

    static class BrokenInitBeforeAll {
        static final int X = explode();

        @BeforeAll static void touch() { assertThat(X).isZero(); }

        @Test @Graded(step = "b.1", points = 1) void one() { }

        @Test @Graded(step = "b.2", points = 1) void two() { }
    }

    static class BrokenInit {
        static final int X = explode();

        @Test @Graded(step = "c.1", points = 1) void one() { assertThat(X).isZero(); }

        @Test @Graded(step = "c.2", points = 1) void two() { assertThat(X).isZero(); }
    }
}
