package vramlab.ch07.quiz;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static vramlab.units.Bytes.MiB;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.stream.IntStream;
import java.util.stream.StreamSupport;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import vramlab.quiz.Blank;
import vramlab.quiz.Blanks;
import vramlab.quiz.KitPaths;
import vramlab.quiz.Part;
import vramlab.quiz.Question;
import vramlab.quiz.QuestionContract;
import vramlab.quiz.Salt;
import vramlab.quiz.Variant;

/** Chapter 7's questions as specifications: keys, variants and sheets. */
class Ch07QuestionsTest {
    static final List<Question> QUESTIONS = StreamSupport.stream(ServiceLoader.load(Question.class).spliterator(), false)
            .filter(q -> q.chapter().equals("ch07")).toList();

    static Variant student(int i) { return Variant.of("ch07", "student-" + i, Salt.PRACTICE); }

    static String solution(Question q, Variant v, String key) {
        for (Part p : q.parts(v)) for (Blank b : p.blanks()) if (b.key().equals(key)) return b.solution();
        throw new AssertionError("no blank " + key);
    }

    /** The next power of two, written out as a loop: the reference model of rule 1. */
    static long nextPowerOfTwo(long n) {
        long p = 1;
        while (p < n) p <<= 1;
        return p;
    }

    @Test
    @DisplayName("the chapter registers its six questions, in order, well formed")
    void registered() {
        assertThat(QUESTIONS).extracting(Question::id)
                .containsExactly("q7.1", "q7.2", "q7.3", "q7.4", "q7.5", "q7.6");
        QuestionContract.wellFormed(QUESTIONS, Variant.seed("ch07"), student(1));
        QuestionContract.gradedPointsMatch(Ch07QuizTest.class, QUESTIONS);
    }

    @ParameterizedTest(name = "seeded student-{0}")
    @ValueSource(ints = {1, 2, 3, 5, 8, 13, 21, 34})
    @DisplayName("for every student, the key's sheet scores full marks and the blank sheet zero")
    void keyAndBlank(int i) {
        QuestionContract.keyFullBlankZero("ch07", QUESTIONS, student(i));
    }

    @Test
    @DisplayName("two students get different numbers in every question")
    void studentsDiffer() {
        for (Question q : QUESTIONS) {
            assertThat(q.prompt(student(1))).as(q.id()).isNotEqualTo(q.prompt(student(2)));
        }
    }

    @Test
    @DisplayName("the practice variant asks the notes' own numbers")
    void seedNumbers() {
        Variant seed = Variant.seed("ch07");
        assertThat(RoundingCost.bytes(seed)).isEqualTo(100_000_000_000L);
        assertThat(ExactSizeReuse.freed(seed)).isEqualTo(3 * MiB);
        assertThat(ExactSizeReuse.requests(seed)).containsExactly(5 * MiB / 2, MiB, 4 * MiB);
        assertThat(OwnedNotCheckedOut.size(seed)).isEqualTo(256 * MiB);
        assertThat(ReserveNeverShrinks.numbers(seed)[0]).isEqualTo(64);
        assertThat(ReserveNeverShrinks.numbers(seed)[1]).isEqualTo(MiB);
        assertThat(GraphKeepsItsBlock.numbers(seed)[0]).isEqualTo(4096);
        assertThat(QueuedCopyHoldsTheBlock.numbers(seed)[0]).isEqualTo(MiB);
    }

    @Test
    @DisplayName("q7.1 and q7.2: the keys follow the next power of two, written out apart, for 300 students")
    void roundingKeysMatchAReferenceModel() {
        IntStream.range(0, 300).mapToObj(Ch07QuestionsTest::student).forEach(v -> {
            long n = RoundingCost.bytes(v);
            assertThat(Long.parseLong(solution(new RoundingCost(), v, "q7.1.a.allocated"))).as(v.toString())
                    .isEqualTo(nextPowerOfTwo(n));
            assertThat(Long.parseLong(solution(new RoundingCost(), v, "q7.1.b.registered"))).isEqualTo(n);

            long block = nextPowerOfTwo(ExactSizeReuse.freed(v));
            long[] r = ExactSizeReuse.requests(v);
            Set<ExactSizeReuse.Request> reuse = EnumSet.noneOf(ExactSizeReuse.Request.class);
            long kept = 0;
            boolean taken = false;
            for (ExactSizeReuse.Request q : ExactSizeReuse.Request.values()) {
                long size = nextPowerOfTwo(r[q.ordinal()]);
                if (size == block) reuse.add(q);
                if (size == block && !taken) taken = true; else kept += size;
            }
            assertThat(reuse).as(v + ": at least one request fits, at least one does not").isNotEmpty()
                    .hasSizeLessThan(3);
            assertThat(solution(new ExactSizeReuse(), v, "q7.2.a.reuse")).isEqualTo(Blanks.names(reuse));
            assertThat(Long.parseLong(solution(new ExactSizeReuse(), v, "q7.2.b.allocated"))).isEqualTo(block + kept);
        });
    }

    @Test
    @DisplayName("q7.4: the host keeps the slab, and pins more only when the bump pointer runs out")
    void reserveKeysMatchAReferenceModel() {
        IntStream.range(0, 200).mapToObj(Ch07QuestionsTest::student).forEach(v -> {
            long[] n = ReserveNeverShrinks.numbers(v);
            long slab = n[0] * MiB, page = 4096;
            long used = (nextPowerOfTwo(n[1]) + page - 1) / page * page;
            long second = nextPowerOfTwo(n[2]);
            long carved = (second + page - 1) / page * page;
            long want = used + carved <= slab ? slab : slab + second;
            assertThat(Long.parseLong(solution(new ReserveNeverShrinks(), v, "q7.4.a.allocated"))).isZero();
            assertThat(Long.parseLong(solution(new ReserveNeverShrinks(), v, "q7.4.b.pinned"))).isEqualTo(slab);
            assertThat(Long.parseLong(solution(new ReserveNeverShrinks(), v, "q7.4.c.pinned"))).as(v.toString())
                    .isEqualTo(want);
        });
    }

    @Test
    @DisplayName("q7.5 and q7.6: the answers follow the timeline's rule, and both outcomes occur among students")
    void timelineKeysMatchTheRule() {
        Set<String> staging = new java.util.TreeSet<>(), reused = new java.util.TreeSet<>();
        IntStream.range(0, 100).mapToObj(Ch07QuestionsTest::student).forEach(v -> {
            boolean synced = GraphKeepsItsBlock.numbers(v)[2] == 1;
            boolean copied = GraphKeepsItsBlock.numbers(v)[3] == 1;
            String s = solution(new GraphKeepsItsBlock(), v, "q7.5.a.staging");
            assertThat(s).as("a block a capture allocated records no events: " + v)
                    .isEqualTo(copied ? "PARKED" : "GRAPH_POOL");
            assertThat(solution(new GraphKeepsItsBlock(), v, "q7.5.b.batch"))
                    .isEqualTo(synced ? "RELEASED" : "WAITING_FOR_EVENTS");
            staging.add(s);

            long[] n = QueuedCopyHoldsTheBlock.numbers(v);
            boolean copyDone = n[2] >= n[1] + 10_000_000;
            String r = solution(new QueuedCopyHoldsTheBlock(), v, "q7.6.a.reuse");
            assertThat(r).as(v.toString()).isEqualTo(copyDone ? "YES" : "NO");
            long block = nextPowerOfTwo(n[0]);
            assertThat(Long.parseLong(solution(new QueuedCopyHoldsTheBlock(), v, "q7.6.b.active")))
                    .isEqualTo(copyDone ? block : 2 * block);
            assertThat(solution(new QueuedCopyHoldsTheBlock(), v, "q7.6.c.block"))
                    .isEqualTo(copyDone ? "NEW_BLOCK" : "A_BLOCK");
            reused.add(r);
        });
        assertThat(staging).containsExactly("GRAPH_POOL", "PARKED");
        assertThat(reused).containsExactly("NO", "YES");
    }

    @Test
    @DisplayName("labs/answers/ch07.txt is the blank sheet for the practice numbers")
    void shippedSheet() throws Exception {
        Path root = KitPaths.root();
        assumeFalse(Files.exists(root.resolve("labs/STUDENT_COPY")), "a student's copy: the sheet is theirs");
        QuestionContract.shippedSheetIsTemplate(root.resolve("labs/answers/ch07.txt"), "ch07", QUESTIONS);
    }
}
