package vramlab.quiz;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Whose sheet it is, and keys nobody marks, on MarkTest's small question. */
class AnswerSheetTest {
    static final List<Question> QS = List.of(new MarkTest.Doubling());
    static final Salt SALT = Salt.of("s3cret");

    static AnswerSheet sheet(String text) { return AnswerSheet.parse(text, "ch09.txt"); }

    @Nested
    @DisplayName("the header is checked against the student the sheet is graded for")
    class Header {
        @Test
        @DisplayName("a sheet printed for this student, with this salt, has no problem")
        void own() {
            Variant alice = Variant.of("ch09", "alice", SALT);
            assertThat(sheet(AnswerSheet.template("ch09", alice, QS)).headerProblems("ch09", alice)).isEmpty();
        }

        @Test
        @DisplayName("another student's sheet is a copy: it names that student")
        void copied() {
            Variant bob = Variant.of("ch09", "bob", SALT);
            Variant alice = Variant.of("ch09", "alice", SALT);
            assertThat(sheet(AnswerSheet.key("ch09", bob, QS)).headerProblems("ch09", alice)).singleElement()
                    .asString().contains("written for student 'bob', not 'alice'").contains("copied");
        }

        @Test
        @DisplayName("a practice sheet graded with the instructor's salt names both variants")
        void otherNumbers() {
            Variant practice = Variant.of("ch09", "alice", Salt.PRACTICE);
            Variant graded = Variant.of("ch09", "alice", SALT);
            assertThat(sheet(AnswerSheet.template("ch09", practice, QS)).headerProblems("ch09", graded)).singleElement()
                    .asString().contains(practice.fingerprint()).contains(graded.fingerprint());
        }

        @Test
        @DisplayName("the practice sheet is not taken for a copy")
        void seedSheet() {
            Variant alice = Variant.of("ch09", "alice", SALT);
            AnswerSheet seed = sheet(AnswerSheet.template("ch09", Variant.seed("ch09"), QS));
            assertThat(seed.headerProblems("ch09", alice)).singleElement().asString()
                    .contains("a sheet for the practice numbers").doesNotContain("copied");
            assertThat(seed.answered()).as("the blank sheet has no answers").isFalse();
            assertThat(sheet(AnswerSheet.key("ch09", alice, QS)).answered()).isTrue();
        }

        @Test
        @DisplayName("a sheet without its header, or for another chapter, says so")
        void missingOrWrongChapter() {
            Variant alice = Variant.of("ch09", "alice", SALT);
            assertThat(sheet("q9.1.a = 4\n").headerProblems("ch09", alice)).singleElement().asString()
                    .contains("no student or variant line");
            String other = AnswerSheet.template("ch09", alice, QS).replace("chapter = ch09", "chapter = ch08");
            assertThat(sheet(other).headerProblems("ch09", alice)).singleElement().asString().contains("chapter = ch08");
        }
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({"q9.1.A, q9.1.a", "q9.1.b , ", "q9.l.c, q9.1.c", "q9.1.aa, q9.1.a", "answer, "})
    @DisplayName("a key that no blank has is reported with its line, and the nearest real key when one is close")
    void unknownKeys(String key, String near) {
        Variant v = Variant.of("ch09", "alice", Salt.PRACTICE);
        String text = AnswerSheet.template("ch09", v, QS) + key + " = 12\n";
        AnswerSheet s = sheet(text);
        List<String> unknown = s.unknownKeys(QS, v);
        if (key.strip().equals("q9.1.b")) {
            assertThat(unknown).isEmpty();
            return;
        }
        int line = (int) text.lines().count();
        assertThat(unknown).singleElement().asString().startsWith("ch09.txt:" + line + ": unknown key '" + key.strip() + "'")
                .contains(near == null ? "no blank has this key" : "did you mean " + near + "?");
    }
}
