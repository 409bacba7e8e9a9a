package vramlab.ch06.quiz;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static vramlab.units.Bytes.gib;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.stream.IntStream;
import java.util.stream.StreamSupport;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import vramlab.ch06.Comparison;
import vramlab.ch06.KvContender;
import vramlab.ch06.LengthDist;
import vramlab.ch06.ModelShape;
import vramlab.ch06.Result;
import vramlab.ch06.Workload;
import vramlab.quiz.Blank;
import vramlab.quiz.KitPaths;
import vramlab.quiz.Part;
import vramlab.quiz.Question;
import vramlab.quiz.QuestionContract;
import vramlab.quiz.Salt;
import vramlab.quiz.Variant;

/** Chapter 6's questions as specifications: keys, variants and sheets. */
class Ch06QuestionsTest {
    static final List<Question> QUESTIONS = StreamSupport.stream(ServiceLoader.load(Question.class).spliterator(), false)
            .filter(q -> q.chapter().equals("ch06")).toList();

    static Variant student(int i) { return Variant.of("ch06", "student-" + i, Salt.PRACTICE); }

    /** The key's solutions by blank, computed once per question and variant. */
    static final Map<String, Map<String, String>> KEYS = new HashMap<>();

    static String solution(Question q, Variant v, String key) {
        Map<String, String> solutions = KEYS.computeIfAbsent(q.id() + "/" + v.student(), k -> {
            Map<String, String> m = new HashMap<>();
            for (Part p : q.parts(v)) for (Blank b : p.blanks()) m.put(b.key(), b.solution());
            return m;
        });
        String s = solutions.get(key);
        if (s == null) throw new AssertionError("no blank " + key);
        return s;
    }

    static long number(Question q, Variant v, String key) { return Long.parseLong(solution(q, v, key)); }

    @Test
    @DisplayName("the chapter registers its seven questions, in order, well formed, each with its graded test")
    void registered() {
        assertThat(QUESTIONS).extracting(Question::id)
                .containsExactly("q6.1", "q6.2", "q6.3", "q6.4", "q6.5", "q6.6", "q6.7");
        QuestionContract.wellFormed(QUESTIONS, Variant.seed("ch06"), student(1));
        QuestionContract.gradedPointsMatch(Ch06QuizTest.class, QUESTIONS);
    }

    @ParameterizedTest(name = "seeded student-{0}")
    @ValueSource(ints = {1, 2, 3, 5, 8, 13, 21, 34})
    @DisplayName("for every student, the key's sheet scores full marks and the blank sheet zero")
    void keyAndBlank(int i) {
        QuestionContract.keyFullBlankZero("ch06", QUESTIONS, student(i));
    }

    @Test
    @DisplayName("two students get different numbers in every question that has numbers")
    void studentsDiffer() {
        for (Question q : QUESTIONS) {
            assertThat(q.prompt(student(1))).as(q.id()).isNotEqualTo(q.prompt(student(2)));
        }
    }

    @Test
    @DisplayName("the practice variant asks the old quiz's questions, with the old answers")
    void seedKeepsTheOldNumbers() {
        Variant seed = Variant.seed("ch06");
        assertThat(number(new Checkerboard(), seed, "q6.1.b.largest")).isEqualTo(1);
        assertThat(number(new OneXorAway(), seed, "q6.2.a.buddy")).isEqualTo(10);
        assertThat(number(new TokensToBlocks(), seed, "q6.3.a.blocks")).isEqualTo(2);
        assertThat(solution(new RoundingTax(), seed, "q6.4.c.waste")).isEqualTo("ABOUT_25_PERCENT");
        assertThat(number(new NullBlock(), seed, "q6.5.a.usable")).isEqualTo(9);
        assertThat(solution(new AnyFreeBlock(), seed, "q6.6.d.reason")).isEqualTo("ANY_FREE_BLOCK_SERVES_ANY_REQUEST");
        assertThat(number(new KvBytesPerToken(), seed, "q6.7.a.per-token")).isEqualTo(128 * 1024);
    }

    @Test
    @DisplayName("q6.1's keys match a bitmap model of aligned free runs, for 200 students")
    void checkerboardMatchesABitmapModel() {
        Question q = new Checkerboard();
        IntStream.range(0, 200).mapToObj(Ch06QuestionsTest::student).forEach(v -> {
            Checkerboard.Setup s = Checkerboard.setup(v);
            boolean[] free = new boolean[s.units()];
            int freeUnits = 0;
            for (int i = 0; i < s.units(); i++) if (free[i] = s.freed(i)) freeUnits++;
            long largest = 0;
            for (int run = 1; run <= s.units(); run *= 2) {
                for (int start = 0; start < s.units(); start += run) {
                    boolean all = true;
                    for (int i = start; i < start + run; i++) all &= free[i];
                    if (all) largest = run;
                }
            }
            int isolated = 0;               // free units whose buddy is live: nr_free of order 0
            for (int i = 0; i < s.units(); i++) if (free[i] && !free[i ^ 1]) isolated++;
            int live = s.units() - freeUnits, afterCompaction = Integer.highestOneBit(freeUnits);
            while (afterCompaction > 0 && (live + afterCompaction - 1) / afterCompaction * afterCompaction
                    + afterCompaction > s.units()) afterCompaction /= 2;
            assertThat(number(q, v, "q6.1.a.free")).as(v.toString()).isEqualTo(freeUnits * s.unit());
            assertThat(number(q, v, "q6.1.b.largest")).as(v.toString()).isEqualTo(largest * s.unit());
            assertThat(number(q, v, "q6.1.c.compacted")).as(v.toString()).isEqualTo(afterCompaction * s.unit());
            assertThat(number(q, v, "q6.1.d.nr-free")).as(v.toString()).isEqualTo(isolated);
        });
    }

    @Test
    @DisplayName("q6.2, q6.3 and q6.5: the keys follow the chapter's arithmetic, for 200 students")
    void arithmetic() {
        IntStream.range(0, 200).mapToObj(Ch06QuestionsTest::student).forEach(v -> {
            long[] b = OneXorAway.block(v);
            long size = 1L << b[1];
            long parent = b[0] / (2 * size) * (2 * size);
            assertThat(number(new OneXorAway(), v, "q6.2.a.buddy")).isEqualTo(b[0] == parent ? b[0] + size : parent);
            assertThat(number(new OneXorAway(), v, "q6.2.b.parent")).isEqualTo(parent);
            long grand = parent / (4 * size) * (4 * size);
            assertThat(number(new OneXorAway(), v, "q6.2.c.parent-buddy"))
                    .isEqualTo(parent == grand ? parent + 2 * size : grand);

            int[] t = TokensToBlocks.sizes(v);
            long blocks = (t[1] + t[0] - 1) / t[0];
            assertThat(number(new TokensToBlocks(), v, "q6.3.a.blocks")).isEqualTo(blocks);
            assertThat(number(new TokensToBlocks(), v, "q6.3.b.empty-slots")).isEqualTo(blocks * t[0] - t[1]);
            assertThat(number(new TokensToBlocks(), v, "q6.3.c.blocks-after")).isEqualTo((t[1] + t[2] + t[0] - 1) / t[0]);

            int[] n = NullBlock.sizes(v);
            int need1 = (n[2] + n[1] - 1) / n[1], need2 = (n[3] + n[1] - 1) / n[1];
            assertThat(number(new NullBlock(), v, "q6.5.a.usable")).isEqualTo(n[0] - 1);
            assertThat(number(new NullBlock(), v, "q6.5.b.longest")).isEqualTo((long) (n[0] - 1) * n[1]);
            assertThat(number(new NullBlock(), v, "q6.5.c.free")).isEqualTo(n[0] - 1 - need1);
            assertThat(solution(new NullBlock(), v, "q6.5.c.r2")).isEqualTo(need2 <= n[0] - 1 - need1 ? "YES" : "NO");
        });
    }

    @Test
    @DisplayName("q6.7's keys follow ModelShape's bytes per token and whole blocks, for 40 students")
    void kvBudget() {
        // 40, not 200: each key maps up to 30,000 pages of the simulated device
        IntStream.range(0, 40).mapToObj(Ch06QuestionsTest::student).forEach(v -> {
            KvBytesPerToken.Setup k = KvBytesPerToken.setup(v);
            ModelShape m = ModelShape.preset(k.model().name());
            long perToken = m.kvBytesPerToken() / m.dtypeBytes() * k.dtype().bytes();
            long count = k.budget() / (perToken * k.blockSize());
            assertThat(number(new KvBytesPerToken(), v, "q6.7.a.per-token")).isEqualTo(perToken);
            assertThat(number(new KvBytesPerToken(), v, "q6.7.c.blocks")).isEqualTo(count);
            assertThat(number(new KvBytesPerToken(), v, "q6.7.d.tokens")).isEqualTo((count - 1) * k.blockSize());
        });
    }

    @Test
    @DisplayName("q6.7's models have the shapes of the chapter's ModelShape presets")
    void modelsMatchThePresets() {
        for (KvBytesPerToken.Shape s : KvBytesPerToken.MODELS) {
            ModelShape m = ModelShape.preset(s.name());
            assertThat(List.of(s.layers(), s.kvHeads(), s.headDim())).as(s.name())
                    .containsExactly(m.layers(), m.kvHeads(), m.headDim());
        }
        assertThat(KvBytesPerToken.MODELS).hasSameSizeAs(ModelShape.PRESETS);
    }

    @Test
    @DisplayName("q6.4's totals follow the powers of two, for 100 students")
    void roundingTaxFollowsPowersOfTwo() {
        IntStream.range(0, 100).mapToObj(Ch06QuestionsTest::student).forEach(v -> {
            long[] s = RoundingTax.sizes(v);
            long allocated = 0;
            for (long size = 1; size <= 1L << s[0]; size++) allocated += pow2AtLeast(size);
            assertThat(number(new RoundingTax(), v, "q6.4.a.block")).isEqualTo(pow2AtLeast(s[1]));
            assertThat(number(new RoundingTax(), v, "q6.4.b.allocated")).isEqualTo(allocated);
            double waste = 1 - (double) ((1L << s[0]) * ((1L << s[0]) + 1) / 2) / allocated;
            assertThat(waste).as(v.toString()).isBetween(0.20, 0.26);
            assertThat(solution(new RoundingTax(), v, "q6.4.c.waste")).isEqualTo("ABOUT_25_PERCENT");
        });
    }

    static long pow2AtLeast(long n) {
        long p = 1;
        while (p < n) p *= 2;
        return p;
    }

    @Test
    @DisplayName("q6.6's block tables follow a FIFO free queue with reverse frees, for 200 students")
    void anyFreeBlockFollowsTheFreeQueue() {
        IntStream.range(0, 200).mapToObj(Ch06QuestionsTest::student).forEach(v -> {
            AnyFreeBlock.Setup s = AnyFreeBlock.setup(v);
            Deque<Integer> queue = new ArrayDeque<>();
            for (int b = 1; b < s.blocks(); b++) queue.add(b);
            List<List<Integer>> tables = new ArrayList<>();
            for (int len : s.lengths()) {
                List<Integer> t = new ArrayList<>();
                for (int i = 0; i < (len + s.blockSize() - 1) / s.blockSize(); i++) t.add(queue.poll());
                tables.add(t);
            }
            List<Integer> freed = new ArrayList<>(tables.get(s.finished()));
            // vLLM's free_blocks (block_pool.py at c59cb794): freed in reverse, and blocks with no
            // hash go to the front of the queue, so the request's last block ends up first
            for (int b : freed) queue.addFirst(b);
            List<Integer> next = new ArrayList<>();
            for (int i = 0; i < (s.next() + s.blockSize() - 1) / s.blockSize(); i++) next.add(queue.poll());
            assertThat(next).as(v.toString()).doesNotContainNull();
            assertThat(number(new AnyFreeBlock(), v, "q6.6.a.first")).isEqualTo((long) next.get(0));
            assertThat(number(new AnyFreeBlock(), v, "q6.6.b.last")).isEqualTo((long) next.get(next.size() - 1));
        });
    }

    @Test
    @DisplayName("q6.6's reason holds on a workload: paged blocks never wait with enough bytes free")
    void pagedNeverWaitsWithFreeBytes() {
        Workload w = new Workload(3, 60, 0.3, LengthDist.uniform(32, 512), LengthDist.uniform(16, 256), 32);
        Result paged = new Comparison(w, ModelShape.LLAMA_3_8B, gib(1), List.of(KvContender.paged(16))).run(false).get(0);
        assertThat(paged.admissionFailures()).as("the workload must put the pool under pressure").isPositive();
        assertThat(paged.failuresWithEnoughFree()).isZero();
    }

    @Test
    @DisplayName("labs/answers/ch06.txt is the blank sheet for the practice numbers")
    void shippedSheet() throws Exception {
        Path root = KitPaths.root();
        assumeFalse(Files.exists(root.resolve("labs/STUDENT_COPY")), "a student's copy: the sheet is theirs");
        QuestionContract.shippedSheetIsTemplate(root.resolve("labs/answers/ch06.txt"), "ch06", QUESTIONS);
    }
}
