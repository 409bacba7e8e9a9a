package vramlab.quiz.grade;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import vramlab.quiz.AnswerSheet;
import vramlab.quiz.Blanks;
import vramlab.quiz.Part;
import vramlab.quiz.Question;
import vramlab.quiz.Salt;
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
    @DisplayName("an id quiz --student prints for is not flagged so, nor a blank sheet under any id")
    void printableIdOrBlank() throws Exception {
        assertThat(flagsFor("jose.nunez", "jose.nunez")).isEmpty();
        List<String> flags = new ArrayList<>();
        new QuizMarking(Salt.PRACTICE).rows(List.of(new Twice()), "José Núñez", Files.createDirectories(tmp.resolve("none")), flags);
        assertThat(flags).noneMatch(f -> f.startsWith("student id"));
    }
}
