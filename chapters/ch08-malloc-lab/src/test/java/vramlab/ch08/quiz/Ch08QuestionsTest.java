package vramlab.ch08.quiz;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeSet;
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
import vramlab.units.Bytes;

/** Chapter 8's questions as specifications: keys against models written apart, variants and sheets. */
class Ch08QuestionsTest {
    static final List<Question> QUESTIONS = StreamSupport.stream(ServiceLoader.load(Question.class).spliterator(), false)
            .filter(q -> q.chapter().equals("ch08")).toList();

    static Variant student(int i) { return Variant.of("ch08", "student-" + i, Salt.PRACTICE); }

    static String solution(Question q, Variant v, String key) {
        for (Part p : q.parts(v)) for (Blank b : p.blanks()) if (b.key().equals(key)) return b.solution();
        throw new AssertionError("no blank " + key);
    }

    /** The notes' size classes, by a loop: the smallest 512 B x 2^c that holds the request. */
    static int classOf(long size) {
        int c = 0;
        for (long block = 512; block < size; block <<= 1) c++;
        return c > 11 ? -1 : c;
    }

    @Test
    @DisplayName("the chapter registers its two questions, in order, well formed, with the graded points")
    void registered() {
        assertThat(QUESTIONS).extracting(Question::id).containsExactly("q8.1", "q8.2");
        QuestionContract.wellFormed(QUESTIONS, Variant.seed("ch08"), student(1));
        QuestionContract.gradedPointsMatch(Ch08QuizTest.class, QUESTIONS);
    }

    @ParameterizedTest(name = "seeded student-{0}")
    @ValueSource(ints = {1, 2, 3, 5, 8, 13, 21, 34})
    @DisplayName("for every student, the key's sheet scores full marks and the blank sheet zero")
    void keyAndBlank(int i) {
        QuestionContract.keyFullBlankZero("ch08", QUESTIONS, student(i));
    }

    @Test
    @DisplayName("two students get different numbers in every question")
    void studentsDiffer() {
        for (Question q : QUESTIONS) assertThat(q.prompt(student(1))).as(q.id()).isNotEqualTo(q.prompt(student(2)));
    }

    @Test
    @DisplayName("q8.1: the keys follow the notes' rules, worked apart (classes by a loop, one slab a class, pages for large), for 300 students")
    void slabKeysMatchAModel() {
        Set<Long> calls = new TreeSet<>();
        IntStream.range(0, 300).mapToObj(Ch08QuestionsTest::student).forEach(v -> {
            long[] r = SlabsAndClasses.requests(v);
            assertThat(Long.parseLong(solution(new SlabsAndClasses(), v, "q8.1.a.class"))).as(v.toString())
                    .isEqualTo(classOf(r[0]));
            long b = classOf(r[1]) < 0 ? (r[1] + 2 * Bytes.MiB - 1) / (2 * Bytes.MiB) * 2 * Bytes.MiB : 512L << classOf(r[1]);
            assertThat(Long.parseLong(solution(new SlabsAndClasses(), v, "q8.1.b.block"))).as(v.toString()).isEqualTo(b);
            Set<Integer> slabs = new TreeSet<>();
            for (int i = 0; i < 3; i++) slabs.add(classOf(r[i]));       // three small requests: a slab per class
            long want = slabs.size() + 1;                               // and D, over 1 MiB: one cudaMalloc of whole pages
            assertThat(Long.parseLong(solution(new SlabsAndClasses(), v, "q8.1.c.calls"))).as(v.toString()).isEqualTo(want);
            calls.add(want);
        });
        assertThat(calls).as("students see classes shared and not").contains(2L, 3L, 4L);
    }

    @Test
    @DisplayName("q8.2: 100 P_1 = 60 k/20 + 40/m, and the index is half of it, whole numbers, for 300 students")
    void pointsKeysMatchTheFormula() {
        IntStream.range(0, 300).mapToObj(Ch08QuestionsTest::student).forEach(v -> {
            long[] n = PointsOfAnEntry.numbers(v);
            long points = 3 * n[1] + 40 / n[3];
            assertThat(40 % n[3]).isZero();
            assertThat(Long.parseLong(solution(new PointsOfAnEntry(), v, "q8.2.a.points"))).as(v.toString()).isEqualTo(points);
            assertThat(points % 2).isZero();
            assertThat(Long.parseLong(solution(new PointsOfAnEntry(), v, "q8.2.b.index"))).isEqualTo(points / 2);
        });
    }

    @Test
    @DisplayName("the practice variant asks the numbers labs/answers/ch08.txt shows")
    void seedNumbers() {
        Variant seed = Variant.seed("ch08");
        assertThat(SlabsAndClasses.requests(seed)).containsExactly(700, 1500, 1000, 3 * Bytes.MiB + 1);
        assertThat(PointsOfAnEntry.numbers(seed)).containsExactly(100, 18, 40_000, 2);
    }

    @Test
    @DisplayName("labs/answers/ch08.txt is the blank sheet for the practice numbers")
    void shippedSheet() throws Exception {
        Path root = KitPaths.root();
        assumeFalse(Files.exists(root.resolve("labs/STUDENT_COPY")), "a student's copy: the sheet is theirs");
        QuestionContract.shippedSheetIsTemplate(root.resolve("labs/answers/ch08.txt"), "ch08", QUESTIONS);
    }
}
