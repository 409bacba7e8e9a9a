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
    @DisplayName("the chapter registers its nine questions, in order, well formed")
    void registered() {
        assertThat(QUESTIONS).extracting(Question::id).containsExactly("q4.1", "q4.2", "q4.3", "q4.4", "q4.5", "q4.6", "q4.7", "q4.8", "q4.9");
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
    @DisplayName("q4.7: the same holes under PyTorch's rules; the request still fails, and asks the driver for its own size from 10 MiB")
    void pytorchFragmentationHoldsForEveryVariant() {
        for (int i = 0; i < 60; i++) {
            Variant v = student(i);
            long[] p = FragmentationFailure.pattern(v);
            FragmentationFailure q = new FragmentationFailure.PyTorch();
            assertThat(Long.parseLong(solution(q, v, "q4.7.b.free"))).as(v.toString()).isEqualTo(2 * p[0] * p[1] * MiB);
            assertThat(Long.parseLong(solution(q, v, "q4.7.b.largest"))).isEqualTo(p[1] * MiB);
            long rounded = (p[3] + 511) / 512 * 512;
            assertThat(Long.parseLong(solution(q, v, "q4.7.a.rounded"))).isEqualTo(rounded);
            long tried = rounded < 10 * MiB ? 20 * MiB : (rounded + 2 * MiB - 1) / (2 * MiB) * (2 * MiB);
            assertThat(Long.parseLong(solution(q, v, "q4.7.c.tried"))).isEqualTo(tried);
            assertThat(q.succeeds(v, p[3])).as("the request fails").isFalse();
            assertThat(q.succeeds(v, p[1] * MiB)).as("a hole-sized request fits").isTrue();
            assertThat(q.succeeds(v, p[1] * MiB + 1)).as("one byte more rounds past the hole").isFalse();
        }
    }

    @Test
    @DisplayName("q4.8 for the practice variant: the rounding tax is 1374 B under PyTorch, against 2097502 B under the toy")
    void pytorchGapForTheSeed() {
        Variant seed = Variant.seed("ch04");
        Question q = new NvidiaSmiGap.PyTorch();
        assertThat(solution(q, seed, "q4.8.b.requested")).isEqualTo("6391458");
        assertThat(Long.parseLong(solution(q, seed, "q4.8.c.tax"))).isEqualTo(2 * 511 + 352);
        assertThat(Long.parseLong(solution(q, seed, "q4.8.d.cached"))).isEqualTo(22 * MiB - 2 * 3_146_240L - 100_352);
        assertThat(Long.parseLong(solution(new NvidiaSmiGap(), seed, "q4.2.c.tax"))).isEqualTo(2_097_502);
        assertThat(new NvidiaSmiGap.PyTorch().nvidiaSmi(seed)).isEqualTo(new NvidiaSmiGap().nvidiaSmi(seed)).isEqualTo(322 * MiB);
    }

    @Test
    @DisplayName("q4.9 for the practice variant: under PyTorch the batches from 10 MiB up fill their own segments, so nothing ratchets")
    void pytorchLoopForTheSeed() {
        Variant seed = Variant.seed("ch04");
        Question q = new RatchetUnderPyTorch();
        assertThat(Long.parseLong(solution(q, seed, "q4.9.a.reserved"))).isEqualTo(20 * MiB);
        assertThat(solution(q, seed, "q4.9.b.releasing")).isEqualTo("5");
        assertThat(solution(q, seed, "q4.9.c.segments")).isEqualTo("1");
        assertThat(Long.parseLong(solution(new VariableBatchRatchet(), seed, "q4.5.b.reserved"))).isEqualTo(40 * MiB);
    }

    @Test
    @DisplayName("q4.4's message is PyTorch's text with the student's co-tenant in it")
    void nightMessage() {
        Variant v = student(7);
        assertThat(NightOnlyOom.message(v)).startsWith("CUDA out of memory. Tried to allocate 20.00 MiB.")
                .contains("Process " + NightOnlyOom.facts(v)[0] + " has ");
    }

    @Test
    @DisplayName("labs/answers/ch04.txt is the blank sheet for the practice numbers")
    void shippedSheet() throws Exception {
        Path root = KitPaths.root();
        assumeFalse(Files.exists(root.resolve("labs/STUDENT_COPY")), "a student's copy: the sheet is theirs");
        QuestionContract.shippedSheetIsTemplate(root.resolve("labs/answers/ch04.txt"), "ch04", QUESTIONS);
    }
}
