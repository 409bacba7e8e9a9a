package vramlab.quiz;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * A choice whose constants were renamed reads the old names as aliases: on the reference and in
 * a release's practice key alike, an old name scores as today's name for the same constant.
 */
@DisplayName("A choice reads an old name as the constant it now names")
class ChoiceAliasesTest {
    enum Colour { RED, GREEN, BLUE }

    static final Map<String, Colour> OLD = Map.of("VERDE", Colour.GREEN, "SKY", Colour.BLUE);

    /** A stand-in question whose one blank is GREEN, with two old names. */
    static final class Pick implements Question {
        @Override public String id() { return "q9.2"; }
        @Override public String title() { return "Pick"; }
        @Override public String prompt(Variant v) { return "Pick green."; }

        @Override
        public List<Part> parts(Variant v) {
            Blanks.OneOf<Colour> check = new Blanks.OneOf<>(Colour.class, Colour.GREEN, OLD);
            return List.of(Part.of("a", 1, new Blank("q9.2.a", "one of: RED | GREEN | BLUE", check, "GREEN")));
        }
    }

    static int earned(Question q, String answer) {
        return Mark.of(q, Variant.seed("ch09"), AnswerSheet.parse("q9.2.a = " + answer + "\n", "s")).earned();
    }

    @Test
    @DisplayName("an old name, in any spelling the kit reads, is its constant; the aliases print old to today's")
    void oldNamesRead() {
        Blanks.OneOf<Colour> check = new Blanks.OneOf<>(Colour.class, Colour.GREEN, OLD);
        assertThat(check.wrong("VERDE")).isNull();
        assertThat(check.wrong(" verde ")).isNull();
        assertThat(check.wrong("GREEN")).isNull();
        assertThat(check.wrong("SKY")).isEqualTo(Blanks.NOT_THE_CHOICE);
        assertThat(check.wrong("ROJO")).isEqualTo("'ROJO' is not one of: RED | GREEN | BLUE");
        assertThat(check.aliasNames()).containsExactly(Map.entry("SKY", "BLUE"), Map.entry("VERDE", "GREEN"));
        assertThat(new Blanks.OneOf<>(Colour.class, Colour.GREEN).wrong("VERDE")).as("no aliases").isNotNull();
    }

    @Test
    @DisplayName("a release's practice key marks old names as the reference does")
    void releaseMarksAlike() {
        Question ref = new Pick();
        Question rel = PracticeKey.read(PracticeKey.write("ch09", List.of(ref)), Long::parseLong).get(0);
        for (String a : List.of("GREEN", "VERDE", "verde", "SKY", "BLUE", "RED", "ROJO")) {
            assertThat(earned(rel, a)).as(a).isEqualTo(earned(ref, a));
        }
        assertThat(earned(rel, "VERDE")).isEqualTo(1);
        assertThat(earned(rel, "SKY")).isZero();
    }
}
