package vramlab.quiz.grade;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class GradedTestsTest {
    @Test
    @DisplayName("a changed graded test is named with its chapter: five chapters' are all GradedStepsTest.java")
    void namesSayTheChapter() {
        String flag = GradedTests.names(List.of(
                "chapters/ch01-mmu/src/test/java/vramlab/ch01/GradedStepsTest.java",
                "chapters/ch06-buddy/src/test/java/vramlab/ch06/GradedStepsTest.java"));
        assertThat(flag).isEqualTo("ch01-mmu/GradedStepsTest.java, ch06-buddy/GradedStepsTest.java");
    }

    @Test
    @DisplayName("past three files the flag says how many more")
    void andMore() {
        List<String> files = List.of("a", "b", "c", "d", "e").stream()
                .map(c -> "chapters/ch0" + c + "/src/test/java/vramlab/X" + c + "Test.java").toList();
        assertThat(GradedTests.names(files))
                .isEqualTo("ch0a/XaTest.java, ch0b/XbTest.java, ch0c/XcTest.java and 2 more");
    }
}
