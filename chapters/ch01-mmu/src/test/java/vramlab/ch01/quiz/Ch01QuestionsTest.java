package vramlab.ch01.quiz;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static vramlab.units.Bytes.GiB;
import static vramlab.units.Bytes.KiB;
import static vramlab.units.Bytes.MiB;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.function.BiConsumer;
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

/** Chapter 1's questions as specifications: keys, variants and sheets. */
class Ch01QuestionsTest {
    static final List<Question> QUESTIONS = StreamSupport
            .stream(ServiceLoader.load(Question.class).spliterator(), false)
            .filter(q -> q.chapter().equals("ch01")).toList();

    static Variant student(int i) { return Variant.of("ch01", "student-" + i, Salt.PRACTICE); }

    /** Every blank's solution for {@code v}: one replay per question and variant. */
    static Map<String, String> key(Question q, Variant v) {
        Map<String, String> out = new HashMap<>();
        for (Part p : q.parts(v)) for (Blank b : p.blanks()) out.put(b.key(), b.solution());
        return out;
    }

    static long number(Map<String, String> key, String blank) {
        String s = key.get(blank);
        if (s == null) throw new AssertionError("no blank " + blank + " in " + key.keySet());
        return Long.parseLong(s);
    }

    @Test
    @DisplayName("the chapter registers its six questions, in order, well formed, each graded at its worth")
    void registered() {
        assertThat(QUESTIONS).extracting(Question::id)
                .containsExactly("q1.1", "q1.2", "q1.3", "q1.4", "q1.5", "q1.6");
        QuestionContract.wellFormed(QUESTIONS, Variant.seed("ch01"), student(1));
        QuestionContract.gradedPointsMatch(Ch01QuizTest.class, QUESTIONS);
    }

    @ParameterizedTest(name = "seeded student-{0}")
    @ValueSource(ints = {1, 2, 3, 5, 8, 13, 21, 34})
    @DisplayName("for every student, the key's sheet scores full marks and the blank sheet zero")
    void keyAndBlank(int i) {
        QuestionContract.keyFullBlankZero("ch01", QUESTIONS, student(i));
    }

    @Test
    @DisplayName("the practice variant scores the same way: key full, blank zero")
    void seedKeyAndBlank() {
        QuestionContract.keyFullBlankZero("ch01", QUESTIONS, Variant.seed("ch01"));
    }

    @Test
    @DisplayName("two students get different numbers in every question")
    void studentsDiffer() {
        for (Question q : QUESTIONS) {
            String first = q.prompt(student(1));
            boolean differs = IntStream.range(2, 6).anyMatch(i -> !first.equals(q.prompt(student(i))));
            assertThat(differs).as(q.id() + " gives students 1..5 the same prompt").isTrue();
        }
    }

    @Test
    @DisplayName("labs/answers/ch01.txt is the blank sheet for the practice numbers")
    void shippedSheet() throws Exception {
        Path root = KitPaths.root();
        assumeFalse(Files.exists(root.resolve("labs/STUDENT_COPY")), "a student's copy: the sheet is theirs");
        QuestionContract.shippedSheetIsTemplate(root.resolve("labs/answers/ch01.txt"), "ch01", QUESTIONS);
    }

    /** The keys against models written from the chapter's rules, without the simulator. */
    @Nested
    @DisplayName("the keys agree with the rules written out by hand, for the practice variant and 60 seeded students")
    class Models {
        @Test
        @DisplayName("q1.1: each index is the VA's bits [hi:lo]: PDE3 48:47, PDE2 46:38, PDE1 37:29, "
                + "PDE0 28:21, PT_4K 20:12")
        void walkIndices() {
            Question q = new WalkIndices();
            Map<String, int[]> bits = Map.of("a.pde3", new int[] {48, 47}, "b.pde2", new int[] {46, 38},
                    "b.pde1", new int[] {37, 29}, "b.pde0", new int[] {28, 21}, "c.pt4k", new int[] {20, 12});
            forStudents(q, (v, k) -> {
                long va = WalkIndices.va(v);
                bits.forEach((key, hl) -> assertThat(number(k, "q1.1." + key)).as(v + " " + key)
                        .isEqualTo((va >>> hl[1]) & ((1L << (hl[0] - hl[1] + 1)) - 1)));
            });
        }

        @Test
        @DisplayName("q1.2: span 2^lo; entries 2^(hi-lo+1); a table is entries x 8 bytes, 16 in PDE0")
        void levelSpan() {
            Question q = new LevelSpan();
            Map<String, long[]> model = Map.of(                 // {span, entries, table bytes}
                    "PDE2", new long[] {256 * GiB, 512, 4 * KiB}, "PDE1", new long[] {512 * MiB, 512, 4 * KiB},
                    "PDE0", new long[] {2 * MiB, 256, 4 * KiB}, "PT_64K", new long[] {64 * KiB, 32, 256},
                    "PT_4K", new long[] {4 * KiB, 512, 4 * KiB});
            forStudents(q, (v, k) -> {
                long[] want = model.get(LevelSpan.levelName(v));
                assertThat(new long[] {number(k, "q1.2.a.span"), number(k, "q1.2.b.entries"),
                    number(k, "q1.2.c.table")}).as(v.toString()).containsExactly(want);
            });
            assertThat(LevelSpan.levelName(Variant.seed("ch01"))).isEqualTo("PDE1");
        }

        @Test
        @DisplayName("q1.3: a reservation takes 0 B and leaves the root alone; a map takes its bytes and "
                + "root + PDE2 + PDE1 + one PDE0 per 512 MiB; a second fits only below 2^47 - 4 KiB")
        void reserveIsFree() {
            Question q = new ReserveIsFree();
            forStudents(q, (v, k) -> {
                long[] n = ReserveIsFree.numbers(v);
                // x86-64 user VA ends at (1 << 47) - 4096 (TASK_SIZE_MAX); the kit gives GPU 0 the
                // 7 TiB below that, the first reservation starting at 0x7f0a00000000
                long end = (1L << 47) - 4096, floor = end - 7 * 1024 * GiB;
                long left = Math.max(end - 0x7f0a00000000L - n[1], 0x7f0a00000000L - floor);
                assertThat(k.get("q1.3.e.second")).as(v.toString())
                        .isEqualTo(n[3] <= left ? "CUDA_SUCCESS" : "CUDA_ERROR_OUT_OF_MEMORY");
                // the reservation starts 512 MiB-aligned: one PDE0 table per started 512 MiB
                long tables = 3 + (n[2] + 512 * MiB - 1) / (512 * MiB);
                assertThat(number(k, "q1.3.a.taken")).isZero();
                assertThat(number(k, "q1.3.b.tables")).isEqualTo(1);
                assertThat(number(k, "q1.3.c.free")).isEqualTo(n[0] - n[2]);
                assertThat(number(k, "q1.3.d.tables")).as(v.toString()).isEqualTo(tables);
                assertThat(number(k, "q1.3.d.tableBytes")).isEqualTo(tables * 4 * KiB);
            });
        }

        @Test
        @DisplayName("q1.4: nvidia-smi is the 2 MiB-rounded mallocs plus the context, in whole MiB")
        void smiNumber() {
            Question q = new SmiNumber();
            forStudents(q, (v, k) -> {
                long[] n = SmiNumber.numbers(v);
                long first = n[0] / MiB + n[1] / MiB;
                long extra = (n[2] + 2 * MiB - 1) / (2 * MiB) * 2;
                assertThat(number(k, "q1.4.a.smiMiB")).isEqualTo(first);
                assertThat(number(k, "q1.4.b.free")).isEqualTo(80 * GiB - 512 * MiB - n[0] - n[1]);
                assertThat(number(k, "q1.4.c.smiMiB")).isEqualTo(first + extra);
            });
        }

        @Test
        @DisplayName("q1.5: one extra table per 2 MiB region (4 KiB, or 256 B for 64 KiB pages) and "
                + "one TLB entry per small page instead of one per region")
        void smallPagesCost() {
            Question q = new SmallPagesCost();
            forStudents(q, (v, k) -> {
                long regions = SmallPagesCost.region(v) / (2 * MiB);
                long page = SmallPagesCost.small(v).bytes();
                assertThat(number(k, "q1.5.a.tables")).isEqualTo(regions);
                long table = page == 4 * KiB ? 4 * KiB : 256;    // 512 x 8 B, or 32 x 8 B
                assertThat(number(k, "q1.5.b.tableBytes")).isEqualTo(regions * table);
                assertThat(number(k, "q1.5.c.tlbEntries")).isEqualTo(regions * (2 * MiB / page - 1));
            });
        }

        @Test
        @DisplayName("q1.6: PEER_MEMORY, code 1, the owner's position among the peers enabled, and the same frame")
        void peerAperture() {
            Question q = new PeerAperture();
            forStudents(q, (v, k) -> {
                PeerAperture.Machine m = PeerAperture.machine(v);
                assertThat(k.get("q1.6.a.aperture")).isEqualTo("PEER_MEMORY");
                assertThat(number(k, "q1.6.a.code")).isEqualTo(1);
                assertThat(number(k, "q1.6.b.slot")).isEqualTo(m.enables().indexOf(m.owner()));
                assertThat(k.get("q1.6.c.ownAperture")).isEqualTo("VIDEO_MEMORY");
                assertThat(k.get("q1.6.c.samePhysical")).isEqualTo("YES");
            });
        }

        /** The practice variant and 60 seeded students, each with the key the simulator gives it. */
        void forStudents(Question q, BiConsumer<Variant, Map<String, String>> check) {
            check.accept(Variant.seed("ch01"), key(q, Variant.seed("ch01")));
            IntStream.range(0, 60).mapToObj(Ch01QuestionsTest::student)
                    .forEach(v -> check.accept(v, key(q, v)));
        }
    }
}
