package vramlab.ch02.quiz;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static vramlab.units.Bytes.gib;
import static vramlab.units.Bytes.mib;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.ServiceLoader;
import java.util.stream.IntStream;
import java.util.stream.StreamSupport;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import vramlab.driver.CostModel;
import vramlab.quiz.AnswerSheet;
import vramlab.quiz.Blank;
import vramlab.quiz.KitPaths;
import vramlab.quiz.Mark;
import vramlab.quiz.Part;
import vramlab.quiz.Question;
import vramlab.quiz.QuestionContract;
import vramlab.quiz.Salt;
import vramlab.quiz.Variant;

/** Chapter 2's questions as specifications: keys against models written apart from the simulator. */
class Ch02QuestionsTest {
    static final long PAGE = mib(2);
    static final List<Question> QUESTIONS = StreamSupport.stream(ServiceLoader.load(Question.class).spliterator(), false)
            .filter(q -> q.chapter().equals("ch02")).toList();

    static Variant student(int i) { return Variant.of("ch02", "student-" + i, Salt.PRACTICE); }

    static String solution(Question q, Variant v, String key) {
        for (Part p : q.parts(v)) for (Blank b : p.blanks()) if (b.key().equals(key)) return b.solution();
        throw new AssertionError("no blank " + key);
    }

    static long number(Question q, Variant v, String key) { return Long.parseLong(solution(q, v, key)); }

    static long pages(long bytes) { return (bytes + PAGE - 1) / PAGE; }

    @Test
    @DisplayName("the chapter registers its six questions, in order, well formed, each graded at its worth")
    void registered() {
        assertThat(QUESTIONS).extracting(Question::id).containsExactly("q2.1", "q2.2", "q2.3", "q2.4", "q2.5", "q2.6");
        QuestionContract.wellFormed(QUESTIONS, Variant.seed("ch02"), student(1));
        QuestionContract.gradedPointsMatch(Ch02QuizTest.class, QUESTIONS);
    }

    @ParameterizedTest(name = "seeded student-{0}")
    @ValueSource(ints = {1, 2, 3, 5, 8, 13})
    @DisplayName("for every student, the key's sheet scores full marks and the blank sheet zero")
    void keyAndBlank(int i) {
        QuestionContract.keyFullBlankZero("ch02", QUESTIONS, student(i));
    }

    @Test
    @DisplayName("two students get different numbers in every question")
    void studentsDiffer() {
        for (Question q : QUESTIONS) assertThat(q.prompt(student(1))).as(q.id()).isNotEqualTo(q.prompt(student(2)));
    }

    @Test
    @DisplayName("the practice variant asks the chapter's own numbers")
    void seedNumbers() {
        Variant seed = Variant.seed("ch02");
        assertThat(RoundingTax.request(seed)).isEqualTo(mib(3) + 1);
        assertThat(TinyRequests.setup(seed)).containsExactly(gib(1), 100, 64);
        assertThat(PerTensorCalls.loop(seed)).startsWith(1000, 10);
        assertThat(CachedSteps.loop(seed)).hasSize(11).startsWith(1000);
        assertThat(MapThenAccess.setup(seed)).containsExactly(1, 1, 0);
        assertThat(WholeUnmap.setup(seed)).containsExactly(2, 0, 1);
    }

    @Nested
    @DisplayName("the driver's questions")
    class Driver {
        @Test
        @DisplayName("q2.1: whole 2 MiB pages, one 2M PTE each, for 300 students")
        void roundingTax() {
            Question q = new RoundingTax();
            IntStream.range(0, 300).mapToObj(Ch02QuestionsTest::student).forEach(v -> {
                long s = RoundingTax.request(v);
                assertThat(number(q, v, "q2.1.a.mapped")).as(v.toString()).isEqualTo(pages(s) * PAGE);
                assertThat(number(q, v, "q2.1.b.ptes")).isEqualTo(pages(s));
                assertThat(number(q, v, "q2.1.c.unasked")).isEqualTo(pages(s) * PAGE - s).isBetween(1L, PAGE - 1);
                assertThat(solution(q, v, "q2.1.d.page")).isEqualTo("SIZE_2M");
            });
        }

        @Test
        @DisplayName("q2.2: 512 B slices of one shared 2 MiB page, 4096 to a page, for 100 students")
        void tinyRequests() {
            Question q = new TinyRequests();
            IntStream.range(0, 100).mapToObj(Ch02QuestionsTest::student).forEach(v -> {
                long[] s = TinyRequests.setup(v);
                long slice = (s[2] + 511) / 512 * 512;           // the observed 512 B spacing
                assertThat(s[1] * slice).as("all of them fit in the first page").isLessThanOrEqualTo(PAGE);
                assertThat(number(q, v, "q2.2.a.mapped")).as(v.toString()).isEqualTo(PAGE);
                assertThat(number(q, v, "q2.2.b.free")).isEqualTo(s[0] - PAGE);
                assertThat(number(q, v, "q2.2.c.more")).isEqualTo(PAGE / slice - s[1]);
            });
        }

        @Test
        @DisplayName("q2.2's seed: 100 x 64 B in one page, 3996 more before a second page")
        void tinyRequestsSeed() {
            Variant seed = Variant.seed("ch02");
            assertThat(number(new TinyRequests(), seed, "q2.2.a.mapped")).isEqualTo(mib(2));
            assertThat(number(new TinyRequests(), seed, "q2.2.c.more")).isEqualTo(mib(2) / 512 - 100);
        }

        @Test
        @DisplayName("q2.3: two calls per tensor per step, a sync per free, priced by hand, for 30 students")
        void perTensorCalls() {
            Question q = new PerTensorCalls();
            CostModel m = CostModel.ORDER_OF_MAGNITUDE;
            IntStream.range(0, 30).mapToObj(Ch02QuestionsTest::student).forEach(v -> {
                long[] l = PerTensorCalls.loop(v);
                long tensors = l[0] * l[1];
                // pages each step maps and unmaps: a large tensor its own, small ones share
                long slice = (l[2] + 511) / 512 * 512;
                long pagesPerStep = l[2] > mib(1) ? l[1] * pages(l[2]) : (l[1] + PAGE / slice - 1) / (PAGE / slice);
                double pageMicros = 2.0 * l[0] * pagesPerStep * m.perPageMicros();
                double calls = tensors * (2 * m.callMicros() + m.syncMicros());
                assertThat(number(q, v, "q2.3.a.calls")).as(v.toString()).isEqualTo(2 * tensors);
                assertThat(number(q, v, "q2.3.b.syncing")).isEqualTo(tensors);
                assertThat(number(q, v, "q2.3.c.micros")).isEqualTo(Math.round(calls + pageMicros));
            });
        }

        @Test
        @DisplayName("q2.3's seed costs 1.41 s under the model: 20,000 calls, 10,000 pages, 10,000 syncs")
        void perTensorSeed() {
            Variant seed = Variant.seed("ch02");
            // 1 MiB tensors pack two to a page: 5 pages a step, mapped and unmapped
            assertThat(number(new PerTensorCalls(), seed, "q2.3.c.micros"))
                    .isEqualTo(20_000 * 20 + 10_000 * 1 + 10_000 * 100);
        }

        @Test
        @DisplayName("q2.4: after step 1 the cache calls the driver no more, for 30 students")
        void cachedSteps() {
            Question q = new CachedSteps();
            IntStream.range(0, 30).mapToObj(Ch02QuestionsTest::student).forEach(v -> {
                long[] l = CachedSteps.loop(v);
                assertThat(number(q, v, "q2.4.a.added")).as(v.toString()).isZero();
                assertThat(solution(q, v, "q2.4.b.calls")).isEqualTo("CUDA_MALLOC");
                assertThat(number(q, v, "q2.4.c.direct")).isEqualTo(2 * (l[0] - 1) * (l.length - 1));
            });
        }
    }

    @Nested
    @DisplayName("the VMM questions")
    class Vmm {
        @Test
        @DisplayName("q2.5: no access after cuMemMap; setting it over unmapped pages fails, for 300 students")
        void mapThenAccess() {
            Question q = new MapThenAccess();
            IntStream.range(0, 300).mapToObj(Ch02QuestionsTest::student).forEach(v -> {
                long[] s = MapThenAccess.setup(v);
                assertThat(solution(q, v, "q2.5.a.access")).as(v.toString()).isEqualTo("NONE");
                assertThat(number(q, v, "q2.5.b.ptes")).isEqualTo(s[1]);
                assertThat(solution(q, v, "q2.5.c.next")).isEqualTo("CU_MEM_SET_ACCESS");
                assertThat(solution(q, v, "q2.5.d.whole"))
                        .isEqualTo(s[0] == s[1] ? "CUDA_SUCCESS" : "CUDA_ERROR_INVALID_VALUE");
            });
        }

        @Test
        @DisplayName("q2.5: some students map the whole reservation and some do not")
        void mapThenAccessVaries() {
            assertThat(IntStream.range(0, 100).mapToObj(Ch02QuestionsTest::student)
                    .map(v -> solution(new MapThenAccess(), v, "q2.5.d.whole")).distinct())
                    .containsExactlyInAnyOrder("CUDA_SUCCESS", "CUDA_ERROR_INVALID_VALUE");
        }

        @Test
        @DisplayName("q2.6: a piece never unmaps; released memory stays until the one whole unmap, for 100 students")
        void wholeUnmap() {
            Question q = new WholeUnmap();
            IntStream.range(0, 100).mapToObj(Ch02QuestionsTest::student).forEach(v -> {
                long[] s = WholeUnmap.setup(v);
                assertThat(s[1] + s[2]).isLessThanOrEqualTo(s[0]);
                assertThat(s[2]).isLessThan(s[0]);
                assertThat(solution(q, v, "q2.6.a.result")).as(v.toString()).isEqualTo("CUDA_ERROR_INVALID_VALUE");
                assertThat(number(q, v, "q2.6.b.mapped")).isEqualTo(s[0] * PAGE);
                assertThat(number(q, v, "q2.6.c.held")).isEqualTo(s[0] * PAGE);
                for (long k = 1; k <= s[0] + 1; k++) {
                    assertThat(WholeUnmap.unmaps(s, k * PAGE)).as(v + " unmap " + k + " pages").isEqualTo(k == s[0]);
                }
                assertThat(WholeUnmap.unmaps(s, s[0] * PAGE - 1)).isFalse();
            });
        }
    }

    @Test
    @DisplayName("a sheet with one wrong part earns the rest, and the reason does not give the key away")
    void partialMark() {
        Variant seed = Variant.seed("ch02");
        String key = AnswerSheet.key("ch02", seed, QUESTIONS);
        AnswerSheet sheet = AnswerSheet.parse(key.replaceFirst("q2\\.6\\.d\\.unmap = \\S+", "q2.6.d.unmap = 2MiB"), "one wrong");
        Mark mark = Mark.of(new WholeUnmap(), seed, sheet);
        assertThat(mark.earned()).isEqualTo(3);
        assertThat(mark.points()).isEqualTo(4);
        assertThat(mark.summary()).contains("q2.6.d").doesNotContain("4194304").doesNotContain("4MiB");
    }

    @Test
    @DisplayName("labs/answers/ch02.txt is the blank sheet for the practice numbers")
    void shippedSheet() throws Exception {
        Path root = KitPaths.root();
        assumeFalse(Files.exists(root.resolve("labs/STUDENT_COPY")), "a student's copy: the sheet is theirs");
        QuestionContract.shippedSheetIsTemplate(root.resolve("labs/answers/ch02.txt"), "ch02", QUESTIONS);
    }
}
