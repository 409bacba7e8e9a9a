package vramlab.ch04.quiz;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static vramlab.units.Bytes.MiB;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.ServiceLoader;
import java.util.stream.StreamSupport;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import vramlab.quiz.AnswerSheet;
import vramlab.quiz.Blank;
import vramlab.quiz.KitPaths;
import vramlab.quiz.Mark;
import vramlab.quiz.Part;
import vramlab.quiz.Question;
import vramlab.quiz.QuestionContract;
import vramlab.quiz.Salt;
import vramlab.quiz.Variant;

/** Chapter 4's questions as specifications: keys, variants and sheets. */
class Ch04QuestionsTest {
    static final List<Question> QUESTIONS = StreamSupport.stream(ServiceLoader.load(Question.class).spliterator(), false)
            .filter(q -> q.chapter().equals("ch04")).toList();

    static Variant student(int i) { return Variant.of("ch04", "student-" + i, Salt.PRACTICE); }

    static String solution(Question q, Variant v, String key) {
        for (Part p : q.parts(v)) for (Blank b : p.blanks()) if (b.key().equals(key)) return b.solution();
        throw new AssertionError("no blank " + key);
    }

    @Test
    @DisplayName("the chapter registers its six questions, in order, well formed")
    void registered() {
        assertThat(QUESTIONS).extracting(Question::id).containsExactly("q4.1", "q4.2", "q4.3", "q4.4", "q4.5", "q4.6");
        QuestionContract.wellFormed(QUESTIONS, Variant.seed("ch04"), student(1));
        QuestionContract.gradedPointsMatch(Ch04QuizTest.class, QUESTIONS);
    }

    @ParameterizedTest(name = "seeded student-{0}")
    @ValueSource(ints = {1, 2, 3, 5, 8, 13, 21, 34})
    @DisplayName("for every student, the key's sheet scores full marks and the blank sheet zero")
    void keyAndBlank(int i) {
        QuestionContract.keyFullBlankZero("ch04", QUESTIONS, student(i));
    }

    @Test
    @DisplayName("two students get different numbers in every question that has numbers")
    void studentsDiffer() {
        for (Question q : QUESTIONS) {
            assertThat(q.prompt(student(1))).as(q.id()).isNotEqualTo(q.prompt(student(2)));
        }
    }

    @Test
    @DisplayName("q4.1: free bytes always cover the request, the largest hole never does, and the request fails")
    void fragmentationHoldsForEveryVariant() {
        for (int i = 0; i < 60; i++) {
            Variant v = student(i);
            long[] p = FragmentationFailure.pattern(v);
            long free = Long.parseLong(solution(new FragmentationFailure(), v, "q4.1.b.free"));
            assertThat(free).as(v.toString()).isEqualTo(2 * p[0] * p[1] * MiB);
            assertThat(Long.parseLong(solution(new FragmentationFailure(), v, "q4.1.b.largest"))).isEqualTo(p[1] * MiB);
            assertThat(new FragmentationFailure().succeeds(v, p[3])).as("the request fails").isFalse();
            assertThat(new FragmentationFailure().succeeds(v, p[1] * MiB)).as("a hole-sized request fits").isTrue();
        }
    }

    @Test
    @DisplayName("q4.1 (d) and (e) accept any size the simulator agrees with, not just the key's")
    void openAnswersAreTriedOnTheSimulator() {
        Variant v = Variant.seed("ch04");
        Question q = new FragmentationFailure();
        String sheet = "q4.1.a.rounded = 10MiB\nq4.1.b.free = 16MiB\nq4.1.b.largest = 4MiB\nq4.1.c.tried = 20MiB\n"
                + "q4.1.d.succeeds = 3MiB\nq4.1.e.fails = 5MiB\n";
        assertThat(Mark.of(q, v, AnswerSheet.parse(sheet, "s")).full()).isTrue();
        Mark wrong = Mark.of(q, v, AnswerSheet.parse(sheet.replace("= 3MiB", "= 5MiB").replace("e.fails = 5MiB",
                "e.fails = 17MiB"), "s"));
        assertThat(wrong.summary()).contains("q4.1.d.succeeds: the simulator says 5MiB is not a request that succeeds now")
                .contains("q4.1.e.fails: the simulator says 17MiB is not");
    }

    @Test
    @DisplayName("q4.4's message is PyTorch's text with the student's co-tenant in it")
    void nightMessage() {
        Variant v = student(7);
        assertThat(NightOnlyOom.message(v)).startsWith("CUDA out of memory. Tried to allocate 20.00 MiB.")
                .contains("Process " + NightOnlyOom.facts(v)[0] + " has ");
    }

    @Test
    @DisplayName("labs/answers/ch04.txt is the blank sheet for the seed's numbers")
    void shippedSheet() throws Exception {
        Path root = KitPaths.root();
        assumeFalse(Files.exists(root.resolve("labs/STUDENT_COPY")), "a student's copy: the sheet is theirs");
        QuestionContract.shippedSheetIsTemplate(root.resolve("labs/answers/ch04.txt"), "ch04", QUESTIONS);
    }
}
