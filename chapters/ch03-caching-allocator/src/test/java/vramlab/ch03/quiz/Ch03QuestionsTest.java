package vramlab.ch03.quiz;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static vramlab.units.Bytes.MiB;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.ServiceLoader;
import java.util.stream.IntStream;
import java.util.stream.StreamSupport;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import vramlab.quiz.Blank;
import vramlab.quiz.KitPaths;
import vramlab.quiz.Part;
import vramlab.quiz.Question;
import vramlab.quiz.QuestionContract;
import vramlab.quiz.Salt;
import vramlab.quiz.Variant;

/** Chapter 3's questions as specifications: keys, variants and sheets. */
class Ch03QuestionsTest {
    static final List<Question> QUESTIONS = StreamSupport.stream(ServiceLoader.load(Question.class).spliterator(), false)
            .filter(q -> q.chapter().equals("ch03")).toList();

    static Variant student(int i) { return Variant.of("ch03", "student-" + i, Salt.PRACTICE); }

    static String solution(Question q, Variant v, String key) {
        for (Part p : q.parts(v)) for (Blank b : p.blanks()) if (b.key().equals(key)) return b.solution();
        throw new AssertionError("no blank " + key);
    }

    @Test
    @DisplayName("the chapter registers its eight questions, in order, well formed")
    void registered() {
        assertThat(QUESTIONS).extracting(Question::id).containsExactly("q3.1", "q3.2", "q3.3", "q3.4", "q3.5", "q3.6", "q3.7", "q3.8");
        QuestionContract.wellFormed(QUESTIONS, Variant.seed("ch03"), student(1));
        QuestionContract.gradedPointsMatch(Ch03QuizTest.class, QUESTIONS);
    }

    @ParameterizedTest(name = "seeded student-{0}")
    @ValueSource(ints = {1, 2, 3, 5, 8, 13, 21, 34})
    @DisplayName("for every student, the key's sheet scores full marks and the blank sheet zero")
    void keyAndBlank(int i) {
        QuestionContract.keyFullBlankZero("ch03", QUESTIONS, student(i));
    }

    @Test
    @DisplayName("two students get different numbers in every question that has numbers")
    void studentsDiffer() {
        for (Question q : List.of(QUESTIONS.get(0), QUESTIONS.get(1), QUESTIONS.get(2), QUESTIONS.get(3), QUESTIONS.get(5), QUESTIONS.get(6), QUESTIONS.get(7))) {
            assertThat(q.prompt(student(1))).as(q.id()).isNotEqualTo(q.prompt(student(2)));
        }
    }

    @Test
    @DisplayName("q3.1's keys match the toy ladder, written out independently, for 300 students")
    void ladderKeysMatchAReferenceModel() {
        Question q = new PredictTheBlock.Toy();
        IntStream.range(0, 300).mapToObj(Ch03QuestionsTest::student).forEach(v -> {
            long[] r = PredictTheBlock.requests(v);
            for (int i = 0; i < 4; i++) {
                String part = String.valueOf((char) ('a' + i));
                long n = r[i];
                long want = n <= MiB ? (n + 511) / 512 * 512 : (n + 2 * MiB - 1) / (2 * MiB) * (2 * MiB);
                assertThat(Long.parseLong(solution(q, v, "q3.1." + part + ".size"))).as(v + " " + part).isEqualTo(want);
                assertThat(solution(q, v, "q3.1." + part + ".pool")).isEqualTo(n <= MiB ? "SMALL" : "LARGE");
            }
        });
    }

    @Test
    @DisplayName("q3.6's keys match PyTorch's round_size and get_pool, written out independently, for 300 students")
    void pytorchKeysMatchAReferenceModel() {
        Question q = new PredictTheBlock.PyTorch();
        IntStream.range(0, 300).mapToObj(Ch03QuestionsTest::student).forEach(v -> {
            long[] r = PredictTheBlock.requests(v);
            for (int i = 0; i < 4; i++) {
                String part = String.valueOf((char) ('a' + i));
                long n = r[i];
                long want = Math.max(512, (n + 511) / 512 * 512);
                assertThat(Long.parseLong(solution(q, v, "q3.6." + part + ".size"))).as(v + " " + part).isEqualTo(want);
                assertThat(solution(q, v, "q3.6." + part + ".pool")).isEqualTo(want <= MiB ? "SMALL" : "LARGE");
            }
        });
    }

    @Test
    @DisplayName("q3.6 and q3.1 differ exactly where the table of PyTorch's rules says: 1.5 MiB and 2.4 MiB")
    void seedTwinsDiffer() {
        Variant seed = Variant.seed("ch03");
        long[] toy = {512, 300_032, 2 * MiB, 4 * MiB};
        long[] real = {512, 300_032, 1_572_864, 2_516_992};
        for (int i = 0; i < 4; i++) {
            String part = String.valueOf((char) ('a' + i));
            assertThat(Long.parseLong(solution(new PredictTheBlock.Toy(), seed, "q3.1." + part + ".size"))).isEqualTo(toy[i]);
            assertThat(Long.parseLong(solution(new PredictTheBlock.PyTorch(), seed, "q3.6." + part + ".size"))).isEqualTo(real[i]);
        }
    }

    @Test
    @DisplayName("q3.7 for the practice variant: the fifth 3 MiB + 1 B request takes a whole unsplit tail (remainder not above 1 MiB)")
    void pytorchFillKeepsTheTail() {
        Variant seed = Variant.seed("ch03");
        long small = 3_146_240, large = 5_243_392;
        long tail = 20 * MiB - 2 * (small + large);
        assertThat(tail - small).isLessThanOrEqualTo(MiB);
        Question q = new RoundingTax.PyTorch();
        assertThat(Long.parseLong(solution(q, seed, "q3.7.a.allocated"))).isEqualTo(3 * small + tail + 4 * large);
        assertThat(Long.parseLong(solution(q, seed, "q3.7.b.reserved"))).isEqualTo(40 * MiB);
        assertThat(solution(q, seed, "q3.7.c.segments")).isEqualTo("2");
    }

    @Test
    @DisplayName("q3.8's keys match PyTorch's rules written out: 512 B blocks in one 20 MiB segment, every remainder split")
    void pytorchSplitAndMergeMatchesAModel() {
        Question q = new SplitAndMerge.PyTorch();
        for (int i = 0; i < 100; i++) {
            Variant v = student(i);
            long[] s = SplitAndMerge.sizes(v);
            long x = (s[0] + 511) / 512 * 512, y = (s[1] + 511) / 512 * 512, z = (s[2] + 511) / 512 * 512;
            long tail = 20 * MiB - x - y - z;
            assertThat(tail).isGreaterThan(MiB);
            assertThat(Long.parseLong(solution(q, v, "q3.8.a.reserved"))).as(v.toString()).isEqualTo(20 * MiB);
            assertThat(Long.parseLong(solution(q, v, "q3.8.a.allocated"))).isEqualTo(z);
            assertThat(Long.parseLong(solution(q, v, "q3.8.b.requested"))).isEqualTo(s[2]);
            assertThat(Long.parseLong(solution(q, v, "q3.8.c.largest"))).isEqualTo(Math.max(x + y, tail));
            assertThat(solution(q, v, "q3.8.d.blocks")).isEqualTo("3");
        }
    }

    @Test
    @DisplayName("q3.2 and q3.3: what stays live is what the calls leave live, rounded up")
    void countersMatchTheCalls() {
        for (int i = 0; i < 100; i++) {
            Variant v = student(i);
            long z = SplitAndMerge.sizes(v)[2];
            assertThat(Long.parseLong(solution(new SplitAndMerge(), v, "q3.2.b.requested"))).isEqualTo(z);
            long[] f = RoundingTax.fill(v);
            long round1 = (f[1] + 2 * MiB - 1) / (2 * MiB) * (2 * MiB), round2 = (f[2] + 2 * MiB - 1) / (2 * MiB) * (2 * MiB);
            assertThat(Long.parseLong(solution(new RoundingTax(), v, "q3.3.a.allocated"))).isEqualTo(f[0] * (round1 + round2));
        }
    }

    @Test
    @DisplayName("labs/answers/ch03.txt is the blank sheet for the practice numbers")
    void shippedSheet() throws Exception {
        Path root = KitPaths.root();
        assumeFalse(Files.exists(root.resolve("labs/STUDENT_COPY")), "a student's copy: the sheet is theirs");
        QuestionContract.shippedSheetIsTemplate(root.resolve("labs/answers/ch03.txt"), "ch03", QUESTIONS);
    }
}
