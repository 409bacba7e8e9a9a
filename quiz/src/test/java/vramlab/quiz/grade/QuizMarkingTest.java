package vramlab.quiz.grade;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import vramlab.quiz.AnswerSheet;
import vramlab.quiz.Blanks;
import vramlab.quiz.NotesSection;
import vramlab.quiz.Part;
import vramlab.quiz.Question;
import vramlab.quiz.Reports;
import vramlab.quiz.Salt;
import vramlab.quiz.ScoreRow;
import vramlab.quiz.Variant;

class QuizMarkingTest {
    @TempDir Path tmp;

    /** A stand-in question: the key is twice the variant's number. */
    static final class Twice implements Question {
        @Override public String id() { return "q9.1"; }
        @Override public String title() { return "Twice"; }
        @Override public String prompt(Variant v) { return "Double " + v.between("n", 1, 1000) + "."; }

        @Override
        public List<Part> parts(Variant v) {
            return List.of(Part.of("a", 2, Blanks.size("q9.1.a", 2 * v.between("n", 1, 1000), Long::parseLong)));
        }
    }

    List<String> flagsFor(String student, String sheetPrintedFor) throws Exception {
        List<Question> qs = List.of(new Twice());
        Path answers = Files.createDirectories(tmp.resolve(Grader.folderName(student)));
        Files.writeString(answers.resolve("ch09.txt"),
                AnswerSheet.key("ch09", Variant.of("ch09", sheetPrintedFor, Salt.PRACTICE), qs));
        List<String> flags = new ArrayList<>();
        new QuizMarking(Salt.PRACTICE).rows(qs, student, answers, flags);
        return flags;
    }

    @Test
    @DisplayName("a submission named by an id no sheet can be printed for is flagged, saying why and what to do")
    void idWithNoSheet() throws Exception {
        assertThat(flagsFor("José Núñez", "jose.nunez"))
                .anySatisfy(f -> assertThat(f).startsWith("student id 'José Núñez' is not one ./vramlab quiz --student")
                        .contains("name the submission by the id its sheets were printed for"));
        assertThat(flagsFor("a b", "a_b")).anySatisfy(f -> assertThat(f).startsWith("student id 'a b'"));
    }

    @Test
    @DisplayName("under the course's salt, a submission named 'seed' is flagged: that id gets the notes' own numbers")
    void theNotesOwnId() throws Exception {
        List<Question> qs = List.of(new Twice());
        Salt course = Salt.of("course secret");
        Path answers = Files.createDirectories(tmp.resolve("seed"));
        Files.writeString(answers.resolve("ch09.txt"), AnswerSheet.key("ch09", Variant.seed("ch09"), qs));
        List<String> flags = new ArrayList<>();
        new QuizMarking(course).rows(qs, Variant.SEED, answers, flags);
        assertThat(flags).anySatisfy(f -> assertThat(f).startsWith("student id 'seed' is the kit's id for the notes' own")
                .contains("rename the submission"));
        List<String> practice = new ArrayList<>();
        new QuizMarking(Salt.PRACTICE).rows(qs, Variant.SEED, answers, practice);
        assertThat(practice).as("the practice run itself is not flagged").noneMatch(f -> f.startsWith("student id"));
    }

    @Test
    @DisplayName("under a question answered and marked down, the section to reread as quiz --check says it; none under one not answered, nor under a full mark")
    void rereadUnderALostQuestion() throws Exception {
        List<Question> qs = List.of(new Twice());
        NotesSection section = new NotesSection("ch09", "ch09-twice", "Rule 1: double it", "_rule_1_double_it");
        QuizMarking marking = new QuizMarking(Salt.PRACTICE, () -> Map.of("q9.1", section));
        Path answers = Files.createDirectories(tmp.resolve("ana"));
        Variant v = Variant.of("ch09", "ana", Salt.PRACTICE);
        String right = AnswerSheet.key("ch09", v, qs);
        Files.writeString(answers.resolve("ch09.txt"), right.replaceAll("(?m)^(q9\\.1\\.a = ).*$", "$1"));
        ScoreRow todo = marking.rows(qs, "ana", answers, new ArrayList<>()).get(0);
        assertThat(todo.notAnswered()).as(todo.reason()).isTrue();
        assertThat(todo.reason()).as("not answered: nothing to reread yet, as quiz --check says it")
                .doesNotContain("reread");
        for (String sheet : List.of(right.replaceAll("(?m)^(q9\\.1\\.a = ).*$", "$1 7"))) {       // wrong
            Files.writeString(answers.resolve("ch09.txt"), sheet);
            ScoreRow row = marking.rows(qs, "ana", answers, new ArrayList<>()).get(0);
            assertThat(row.earned()).isZero();
            assertThat(row.reason().lines().toList()).as(row.reason()).element(1)
                    .isEqualTo("reread ch09 \"Rule 1: double it\" (ch09-twice/notes.html#_rule_1_double_it)")
                    .isEqualTo(section.reread());
            String output = Reports.gradescopeJson(List.of(row), "visible", "");
            assertThat(output).as("results.json's output for the question").contains("\\nreread ch09 \\\"Rule 1: double it\\\"");
            assertThat(Reports.table(List.of(row))).contains("\n             " + section.reread() + "\n");
        }
        Files.writeString(answers.resolve("ch09.txt"), right);
        ScoreRow full = marking.rows(qs, "ana", answers, new ArrayList<>()).get(0);
        assertThat(full.passed()).isTrue();
        assertThat(full.reason()).isEmpty();
    }

    @Test
    @DisplayName("an id quiz --student prints for is not flagged so, nor a blank sheet under any id")
    void printableIdOrBlank() throws Exception {
        assertThat(flagsFor("jose.nunez", "jose.nunez")).isEmpty();
        List<String> flags = new ArrayList<>();
        new QuizMarking(Salt.PRACTICE).rows(List.of(new Twice()), "José Núñez", Files.createDirectories(tmp.resolve("none")), flags);
        assertThat(flags).noneMatch(f -> f.startsWith("student id"));
    }
}
