package vramlab.ch05.quiz;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static vramlab.units.Bytes.MiB;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.stream.IntStream;
import java.util.stream.StreamSupport;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
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

/**
 * Chapter 5's questions as specifications: keys, variants and sheets, and the keys checked
 * against the chapter's rules written out here as arithmetic, independently of the simulator
 * (512 B rounding; cudaMalloc'd large segments rounded to 2 MiB, split only when more than
 * 1 MiB remains; expandable pages of 2 MiB small and 20 MiB large; a reservation of 1 1/8 of
 * the card).
 */
@DisplayName("chapter 5's quiz questions")
class Ch05QuestionsTest {
    static final List<Question> QUESTIONS = StreamSupport.stream(ServiceLoader.load(Question.class).spliterator(), false)
            .filter(q -> q.chapter().equals("ch05")).toList();
    static final long PAGE = 20 * MiB;

    static Variant student(int i) { return Variant.of("ch05", "student-" + i, Salt.PRACTICE); }

    /** The key of every blank of {@code q} for {@code v}: one replay on the simulator. */
    static Map<String, String> keys(Question q, Variant v) {
        Map<String, String> m = new HashMap<>();
        for (Part p : q.parts(v)) for (Blank b : p.blanks()) m.put(b.key(), b.solution());
        return m;
    }

    static long number(Map<String, String> keys, String blank) {
        String s = keys.get(blank);
        if (s == null) throw new AssertionError("no blank " + blank);
        return Long.parseLong(s);
    }

    static long up(long n, long step) { return (n + step - 1) / step * step; }

    @Test
    @DisplayName("the chapter registers its five questions, in order, well formed, worth what their tests say")
    void registered() {
        assertThat(QUESTIONS).extracting(Question::id).containsExactly("q5.1", "q5.2", "q5.3", "q5.4", "q5.5");
        QuestionContract.wellFormed(QUESTIONS, Variant.seed("ch05"), student(1));
        QuestionContract.gradedPointsMatch(Ch05QuizTest.class, QUESTIONS);
    }

    @ParameterizedTest(name = "seeded student-{0}")
    @ValueSource(ints = {1, 2, 3, 5, 8, 13, 21, 34})
    @DisplayName("for every student, the key's sheet scores full marks and the blank sheet zero")
    void keyAndBlank(int i) {
        QuestionContract.keyFullBlankZero("ch05", QUESTIONS, student(i));
    }

    @Test
    @DisplayName("two students get different numbers in every question")
    void studentsDiffer() {
        for (Question q : QUESTIONS) {
            assertThat(q.prompt(student(1))).as(q.id()).isNotEqualTo(q.prompt(student(2)));
        }
    }

    @Test
    @DisplayName("the practice prompts carry the chapter's own numbers")
    void seedNumbers() {
        Variant seed = Variant.seed("ch05");
        assertThat(QUESTIONS.get(0).prompt(seed)).contains("alloc(100)", "alloc(1572864)", "card of 1024 MiB");
        assertThat(QUESTIONS.get(1).prompt(seed)).contains("(25 MiB)");
        assertThat(QUESTIONS.get(2).prompt(seed)).contains("(100 MiB)");
        assertThat(QUESTIONS.get(3).prompt(seed)).contains("(x: 60 MiB)");
        assertThat(QUESTIONS.get(4).prompt(seed)).contains("card of 80 MiB", "4 times", "alloc(9 MiB)", "alloc(16 MiB)");
    }

    @Nested
    @DisplayName("the keys match the rules written out as arithmetic, for 200 students")
    class AgainstTheRules {
        final List<Variant> variants = IntStream.range(0, 200).mapToObj(Ch05QuestionsTest::student).toList();

        @Test
        @DisplayName("q5.1: one 2 MiB small page, whole 20 MiB large pages, a reservation of 9/8 of the card")
        void twoPools() {
            Question q = new TwoPools();
            for (Variant v : variants) {
                Map<String, String> k = keys(q, v);
                long[] n = TwoPools.numbers(v);
                long large = up(up(n[2], 512), PAGE);
                assertThat(number(k, "q5.1.b.small")).as(v.toString()).isEqualTo(2 * MiB);
                assertThat(number(k, "q5.1.b.large")).as(v.toString()).isEqualTo(large);
                assertThat(number(k, "q5.1.a.reserved")).as(v.toString()).isEqualTo(2 * MiB + large);
                assertThat(number(k, "q5.1.c.span")).as(v.toString()).isEqualTo(up(n[0] + n[0] / 8, PAGE));
            }
        }

        @Test
        @DisplayName("q5.2: a segment of its own rounded to 2 MiB, split only past 1 MiB; or pages and an exact block")
        void blockSizeTwoWays() {
            Question q = new BlockSizeTwoWays();
            for (Variant v : variants) {
                Map<String, String> k = keys(q, v);
                long rounded = up(BlockSizeTwoWays.request(v), 512);
                long segment = up(rounded, 2 * MiB);
                long block = segment - rounded > MiB ? rounded : segment;
                assertThat(number(k, "q5.2.a.block")).as(v.toString()).isEqualTo(block);
                assertThat(number(k, "q5.2.b.reserved")).as(v.toString()).isEqualTo(segment);
                assertThat(number(k, "q5.2.c.block")).as(v.toString()).isEqualTo(rounded);
                assertThat(number(k, "q5.2.d.reserved")).as(v.toString()).isEqualTo(up(rounded, PAGE));
            }
        }

        @Test
        @DisplayName("q5.3: no segment, whole pages reserved, one device allocation per mapping")
        void mappingsAreNotSegments() {
            Question q = new MappingsAreNotSegments();
            for (Variant v : variants) {
                Map<String, String> k = keys(q, v);
                long rounded = up(MappingsAreNotSegments.request(v), 512);
                assertThat(number(k, "q5.3.a.segments")).as(v.toString()).isZero();
                assertThat(number(k, "q5.3.b.reserved")).as(v.toString()).isEqualTo(up(rounded, PAGE));
                assertThat(number(k, "q5.3.c.device_allocs")).as(v.toString()).isEqualTo(1);
                assertThat(number(k, "q5.3.d.segments_default")).as(v.toString()).isEqualTo(1);
            }
        }

        @Test
        @DisplayName("q5.4: free keeps x's pages, empty_cache drops them, and keeps the pages y touches")
        void whenPagesGoBack() {
            Question q = new WhenPagesGoBack();
            for (Variant v : variants) {
                Map<String, String> k = keys(q, v);
                long[] s = WhenPagesGoBack.sizes(v);
                long x = up(s[0], 512);
                long y = up(s[1], 512);
                long kept = (up(x + y, PAGE) - x / PAGE * PAGE);
                assertThat(number(k, "q5.4.a.reserved")).as(v.toString()).isEqualTo(up(x, PAGE));
                assertThat(k.get("q5.4.b.when")).isEqualTo("ON_EMPTY_CACHE_OR_OOM_RETRY");
                assertThat(number(k, "q5.4.c.reserved")).as(v.toString()).isZero();
                assertThat(number(k, "q5.4.d.reserved")).as(v.toString()).isEqualTo(kept);
            }
        }

        @Test
        @DisplayName("q5.5: out of memory, no page to unmap, holes plus tail cached, the larger of hole and tail")
        void holesInsidePages() {
            Question q = new HolesInsidePages();
            for (Variant v : variants.subList(0, 60)) {
                Map<String, String> k = keys(q, v);
                HolesInsidePages.Fill f = HolesInsidePages.fill(v);
                long tail = f.device() - f.pairs() * (f.hole() + f.live());
                assertThat(tail).as(v.toString()).isBetween(0L, PAGE - 1);
                assertThat(f.request()).as(v.toString()).isGreaterThan(Math.max(f.hole(), tail));
                assertThat(k.get("q5.5.a.outcome")).as(v.toString()).isEqualTo("OUT_OF_MEMORY");
                assertThat(number(k, "q5.5.b.pages")).as(v.toString()).isZero();
                assertThat(number(k, "q5.5.c.cached")).as(v.toString()).isEqualTo(f.pairs() * f.hole() + tail);
                assertThat(number(k, "q5.5.d.largest")).as(v.toString()).isEqualTo(Math.max(f.hole(), tail));
            }
        }

        @Test
        @DisplayName("q5.5: the practice variant's largest request is served and one byte more is not")
        void largestIsTight() {
            HolesInsidePages.Fill f = HolesInsidePages.fill(Variant.seed("ch05"));
            assertThat(HolesInsidePages.succeeds(f, 9 * MiB)).isTrue();
            assertThat(HolesInsidePages.succeeds(f, 9 * MiB + 1)).isFalse();
            assertThat(HolesInsidePages.replay(f).reserved()).isEqualTo(80 * MiB);
        }
    }

    @Test
    @DisplayName("labs/answers/ch05.txt is the blank sheet for the practice numbers")
    void shippedSheet() throws Exception {
        Path root = KitPaths.root();
        assumeFalse(Files.exists(root.resolve("labs/STUDENT_COPY")), "a student's copy: the sheet is theirs");
        QuestionContract.shippedSheetIsTemplate(root.resolve("labs/answers/ch05.txt"), "ch05", QUESTIONS);
    }
}
