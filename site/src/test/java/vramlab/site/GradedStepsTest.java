package vramlab.site;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import vramlab.labgen.LabGenerator;

@DisplayName("The graded steps, as the site reads them")
class GradedStepsTest {
    static final GradedSteps STEPS = GradedSteps.of(Repo.root());

    @Test
    @DisplayName("are the steps the lab generator makes Todos of, in the same order")
    void sameAsLabGenerator() {
        assertThat(STEPS.all()).extracting(GradedSteps.Step::id).containsExactlyElementsOf(
                LabGenerator.steps(Repo.root().resolve("solutions")).stream().map(LabGenerator.Step::id).toList());
    }

    @Test
    @DisplayName("each names the test classes that grade it, and its placeholder says so")
    void gradedBy() {
        GradedSteps.Step s = STEPS.get("3.1");
        assertThat(s.gradedBy()).contains("CachingAllocatorStepsTest");
        assertThat(s.placeholder()).isEqualTo(
                "// step 3.1: you write this (graded by CachingAllocatorStepsTest)");
        assertThat(STEPS.all()).allSatisfy(st -> assertThat(st.telltaleLines()).as(st.id()).isNotEmpty());
    }

    @Test
    @DisplayName("a body's telltale lines leave out braces, comments and short lines")
    void telltale() {
        var s = GradedSteps.stepsIn(Path.of("X.java"), """
                long f() {
                    // lab:begin 9.1 "F" see ch09 "F"
                    // the rule
                    if (x) {
                        return 1;
                    }
                    return compute(x, y);
                    // lab:end
                }
                """, Map.of("9.1", Set.of("FTest"))).get(0);
        assertThat(s.telltaleLines()).containsExactly("if (x) {", "return 1;", "return compute(x, y);");
    }

    @Test
    @DisplayName("a marker without its partner is an error naming the file and line")
    void unmatched() {
        assertThatThrownBy(() -> GradedSteps.stepsIn(Path.of("X.java"), "// lab:begin 1.1 \"T\" see ch01 \"S\"\nx\n",
                Map.of())).hasMessageContaining("X.java:1").hasMessageContaining("without lab:end");
        assertThatThrownBy(() -> GradedSteps.stepsIn(Path.of("Y.java"), "x\n  // lab:end\n", Map.of()))
                .hasMessageContaining("Y.java:2");
    }
}
