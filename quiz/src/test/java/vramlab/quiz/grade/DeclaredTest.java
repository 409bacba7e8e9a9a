package vramlab.quiz.grade;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import vramlab.quiz.Graded;
import vramlab.quiz.ScoreRow;

/**
 * The declaration is read from class files, as JUnit would run them: on this module's own test
 * classes, which hold GradedItemsTest's fixtures and the ones below.
 */
class DeclaredTest {
    static final Path ROOT = Path.of("target/test-classes").toAbsolutePath();

    static Declared declared() {
        Kit kit = new Kit(Path.of("target/classes").toAbsolutePath(), List.of(ROOT), List.of(), List.of());
        return Declared.scan(kit);
    }

    static Map<String, Integer> byStep() {
        return declared().labItems().get(ROOT).stream()
                .collect(Collectors.toMap(Declared.Item::step, Declared.Item::points, Integer::sum));
    }

    @Test
    @DisplayName("every graded method JUnit runs is declared once, with its points")
    void whatJUnitRuns() {
        Map<String, Integer> s = byStep();
        assertThat(s).containsEntry("t.1", 2).containsEntry("t.5", 2).containsEntry("t.6", 1).containsEntry("t.7", 2)
                .containsEntry("b.1", 1).containsEntry("c.2", 1);
        assertThat(s).as("inherited by the concrete class only").containsEntry("d.1", 5);
        assertThat(s).as("an @Nested class inside a fixture").containsEntry("d.3", 1);
    }

    @Test
    @DisplayName("what JUnit does not run is not declared: abstract classes, inner classes without @Nested")
    void whatJUnitDoesNotRun() {
        assertThat(byStep()).doesNotContainKey("d.2");
    }

    @Test
    @DisplayName("rows that miss a folder, miss an item or change its points are each reported")
    void problems() {
        Declared d = declared();
        List<Declared.Item> items = d.labItems().get(ROOT);
        List<ScoreRow> full = items.stream()
                .map(i -> new ScoreRow(i.step(), i.method(), i.points(), 0, "FAILED", "")).toList();
        assertThat(d.problems(Map.of(ROOT, full), List.of(), 0)).isEmpty();
        assertThat(d.problems(Map.of(), List.of(), 0)).singleElement().asString().contains("has no rows");
        assertThat(d.problems(Map.of(ROOT, full.subList(1, full.size())), List.of(), 0)).singleElement().asString()
                .contains("this run has " + (full.size() - 1) + " rows");
        assertThat(d.problems(Map.of(ROOT, full), List.of(new ScoreRow("q1.1", "q", 3, 0, "FAILED", "")), 4))
                .singleElement().asString().contains("worth 4 points; this run's quiz rows 3");
    }

    /** Fixtures: Surefire runs none of them (they are nested in a static class). */
    static class Fixtures {
        abstract static class Base {
            @org.junit.jupiter.api.Test @Graded(step = "d.1", points = 5) void inherited() { }
        }

        static class Concrete extends Base { }

        class NotNested {
            @org.junit.jupiter.api.Test @Graded(step = "d.2", points = 7) void never() { }
        }

        @Nested
        class IsNested {
            @org.junit.jupiter.api.Test @Graded(step = "d.3", points = 1) void runs() { }
        }
    }
}
