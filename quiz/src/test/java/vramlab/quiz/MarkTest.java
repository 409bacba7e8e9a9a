package vramlab.quiz;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.EnumSet;
import java.util.List;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Marking, on a small question whose key is plain arithmetic on the variant. */
class MarkTest {
    enum Colour { RED, GREEN, BLUE }

    /** A stand-in question: the key of (a) is twice the variant's number. */
    static final class Doubling implements Question {
        @Override public String id() { return "q9.1"; }
        @Override public String title() { return "Doubling"; }
        @Override public String prompt(Variant v) { return "Double " + n(v) + "."; }

        static long n(Variant v) { return v.isSeed() ? 21 : v.between("n", 1, 1000); }

        @Override
        public List<Part> parts(Variant v) {
            return List.of(
                    Part.of("a", 2, Blanks.size("q9.1.a", 2 * n(v), Long::parseLong)),
                    Part.of("b", 1, Blanks.choice("q9.1.b", Colour.GREEN),
                            Blanks.choices("q9.1.c", EnumSet.of(Colour.RED, Colour.BLUE), Colour.class)));
        }
    }

    static AnswerSheet sheet(String text) { return AnswerSheet.parse(text, "sheet.txt"); }

    @Test
    @DisplayName("the key's own sheet scores full marks; the untouched template scores 0, saying so")
    void keyAndTemplate() {
        Variant v = Variant.of("ch09", "alice", Salt.PRACTICE);
        List<Question> qs = List.of(new Doubling());
        assertThat(Mark.of(qs.get(0), v, sheet(AnswerSheet.key("ch09", v, qs))).full()).isTrue();
        Mark blank = Mark.of(qs.get(0), v, sheet(AnswerSheet.template("ch09", v, qs)));
        assertThat(blank.earned()).isZero();
        assertThat(blank.problems()).singleElement().asString().contains("not answered");
        assertThat(AnswerSheet.template("ch09", v, qs)).contains("variant = " + v.fingerprint())
                .contains("student = alice").contains("Double " + Doubling.n(v));
    }

    enum CudaName { CUDA_SUCCESS, cudaErrorMemoryAllocation }

    @Test
    @DisplayName("choices match without regard to case, so CUDA's mixed-case names can be answered")
    void mixedCaseChoices() {
        assertThat(Blanks.read(CudaName.class, "cudaErrorMemoryAllocation")).isEqualTo(CudaName.cudaErrorMemoryAllocation);
        assertThat(Blanks.read(CudaName.class, "CUDAERRORMEMORYALLOCATION")).isEqualTo(CudaName.cudaErrorMemoryAllocation);
        assertThat(Blanks.read(CudaName.class, "cuda success")).isEqualTo(CudaName.CUDA_SUCCESS);
        assertThat(Blanks.read(CudaName.class, "cudaErrorInvalidValue")).isNull();
    }

    @Test
    @DisplayName("a part scores only when all its blanks are right; reasons never show the key")
    void partsAndReasons() {
        Variant v = Variant.seed("ch09");
        Mark m = Mark.of(new Doubling(), v, sheet("q9.1.a = 42\nq9.1.b = red\nq9.1.c = blue, RED\n"));
        assertThat(m.earned()).isEqualTo(2);
        assertThat(m.summary()).contains("(b) q9.1.b: not the right choice").doesNotContain("GREEN");
        Mark n = Mark.of(new Doubling(), v, sheet("q9.1.a = 41\nq9.1.b = green\nq9.1.c = red\n"));
        assertThat(n.earned()).isZero();
        assertThat(n.summary()).doesNotContain("42").contains("1 missing, 0 that do not belong");
    }

    @Test
    @DisplayName("answers that cannot be read say what was expected")
    void unreadable() {
        Mark m = Mark.of(new Doubling(), Variant.seed("ch09"), sheet("q9.1.a = lots\nq9.1.b = purple\nq9.1.c = red,\n"));
        assertThat(m.summary()).contains("could not read 'lots'").contains("'purple' is not one of: RED | GREEN | BLUE");
    }

    @Test
    @DisplayName("a malformed sheet line is an error naming the file and line")
    void malformed() {
        assertThatThrownBy(() -> sheet("chapter = ch09\n\nthis is not an answer\n"))
                .hasMessageStartingWith("sheet.txt:3: expected 'key = answer'");
    }
}
