package vramlab.labgen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class LabGeneratorTest {

    @Test
    @DisplayName("a marked step becomes one Todo line at the marker's indentation")
    void replacesAStep() {
        String src = """
                class A {
                    long f(long n) {
                        // lab:begin 1.2 "Round it" see ch01 "Rounding"
                        return n + 1;
                        // lab:end
                    }
                }
                """;
        assertThat(LabGenerator.transform(src, "labs/A.java")).isEqualTo("""
                class A {
                    long f(long n) {
                        throw new vramlab.lab.Todo("1.2", "Round it", "ch01 \\"Rounding\\"", "labs/A.java");
                    }
                }
                """);
    }

    @Test
    @DisplayName("only the steps asked for become Todos; the others keep their body and markers")
    void replacesOnlyTheStepsAsked() {
        String src = """
                class A {
                    long f(long n) {
                        // lab:begin 1.2 "Round it" see ch01 "Rounding"
                        return n + 1;
                        // lab:end
                    }
                    long g(long n) {
                        // lab:begin 1.3 "Double it" see ch01 "Doubling"
                        return 2 * n;
                        // lab:end
                    }
                }
                """;
        assertThat(LabGenerator.transform(src, "labs/A.java", id -> id.equals("1.3"))).isEqualTo("""
                class A {
                    long f(long n) {
                        // lab:begin 1.2 "Round it" see ch01 "Rounding"
                        return n + 1;
                        // lab:end
                    }
                    long g(long n) {
                        throw new vramlab.lab.Todo("1.3", "Double it", "ch01 \\"Doubling\\"", "labs/A.java");
                    }
                }
                """);
        assertThat(LabGenerator.transform(src, "labs/A.java", id -> false)).isEqualTo(src);
        assertThat(LabGenerator.transform(src, "labs/A.java", id -> true)).isEqualTo(LabGenerator.transform(src, "labs/A.java"));
    }

    @Test
    @DisplayName("text outside the markers is copied unchanged")
    void copiesTheRest() {
        String src = "class B {\n    int x = 1; // lab-like but not a marker\n}\n";
        assertThat(LabGenerator.transform(src, "B.java")).isEqualTo(src);
    }

    @Test
    @DisplayName("a step that does not end its method is refused, naming the line")
    void stepMustEndTheMethod() {
        String src = """
                class C {
                    void f() {
                        // lab:begin 1.1 "x" see ch01 "y"
                        int a = 1;
                        // lab:end
                        a++;
                    }
                }
                """;
        assertThatThrownBy(() -> LabGenerator.transform(src, "C.java"))
                .hasMessageContaining("C.java:5").hasMessageContaining("must end its method");
    }

    @Test
    @DisplayName("an unclosed or malformed marker is refused")
    void malformedMarkers() {
        assertThatThrownBy(() -> LabGenerator.transform(
                "// lab:begin 1.1 \"x\" see y\nint a;\n", "D.java")).hasMessageContaining("without lab:end");
        assertThatThrownBy(() -> LabGenerator.transform("// lab:begin one\n", "E.java"))
                .hasMessageContaining("E.java:1").hasMessageContaining("malformed");
        assertThatThrownBy(() -> LabGenerator.transform("  // lab:end\n", "F.java"))
                .hasMessageContaining("unmatched");
    }

    @Test
    @DisplayName("a shortcut region becomes its '// labs: ' lines at their indentation, in every edition of the steps")
    void replacesAShortcut() {
        String src = """
                class A {
                    void run() {
                        // lab:shortcut begin
                        // labs: step();
                        if (cache.isEmpty()) return;
                        fast();
                        // lab:shortcut end
                    }

                    // lab:shortcut begin
                    private void fast() {
                        for (Block b : cache) release(b);
                    }

                    // lab:shortcut end
                    void step() {}
                }
                """;
        String labs = """
                class A {
                    void run() {
                        step();
                    }

                    void step() {}
                }
                """;
        assertThat(LabGenerator.transform(src, "labs/A.java")).isEqualTo(labs);
        assertThat(LabGenerator.transform(src, "labs/A.java", id -> false)).isEqualTo(labs);
    }

    @Test
    @DisplayName("an unmatched shortcut marker is an error naming the file and line")
    void unmatchedShortcut() {
        assertThatThrownBy(() -> LabGenerator.transform("a\n  // lab:shortcut begin\nb\n", "G.java"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("G.java:2")
                .hasMessageContaining("without lab:shortcut end");
        assertThatThrownBy(() -> LabGenerator.transform("a\n  // lab:shortcut end\n", "H.java"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("H.java:2");
        assertThatThrownBy(() -> LabGenerator.transform("// lab:shortcut begin\n// lab:shortcut begin\n// lab:shortcut end\n", "I.java"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("I.java:2");
        assertThatThrownBy(() -> LabGenerator.transform("""
                // lab:shortcut begin
                void f() {
                    // lab:begin 1.2 "Round it" see ch01 "Rounding"
                    return;
                    // lab:end
                }
                // lab:shortcut end
                """, "J.java")).as("a step inside a shortcut would vanish from labs/")
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("J.java:3");
    }
}
