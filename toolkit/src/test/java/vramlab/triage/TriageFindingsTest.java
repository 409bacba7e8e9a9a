package vramlab.triage;

import static org.assertj.core.api.Assertions.assertThat;
import static vramlab.units.Bytes.GiB;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Messages whose card was not short of the request, or whose request no card could serve: the
 * report's headline, its table ("enough alone"), its Decision line and {@code --json} must tell
 * the same story, and that story must be what the figures show.
 */
@DisplayName("A card that was not short, or a request no card serves: headline, table and JSON agree")
class TriageFindingsTest {

    /** pytorch 1.x (before 1.4) as RenYurui/StructureFlow#35 pasted it: 8.20 GiB free, 8.13 GiB asked. */
    static final String NEAR_FULL = "RuntimeError: CUDA out of memory. Tried to allocate 8.13 GiB (GPU 0; "
            + "10.76 GiB total capacity; 643.57 MiB already allocated; 8.20 GiB free; 32.43 MiB cached)";

    /**
     * A 2.x message with a memory fraction, written for this test in the wording of
     * c10/cuda/CUDACachingAllocator.cpp (DeviceCachingAllocator::malloc: proc_info, then
     * allowed_info "X allowed; ", then "Of the allocated memory"): set_per_process_memory_fraction(0.25)
     * on an 80 GB card caps PyTorch at 19.79 GiB, it holds 19.60 GiB, and 2.00 GiB more pass the cap.
     */
    static final String FRACTION_2X = "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. "
            + "GPU 0 has a total capacity of 79.15 GiB of which 58.50 GiB is free. Including non-PyTorch "
            + "memory, this process has 20.13 GiB memory in use. 19.79 GiB allowed; Of the allocated memory "
            + "19.10 GiB is allocated by PyTorch, and 512.00 MiB is reserved by PyTorch but unallocated. If "
            + "reserved but unallocated memory is large try setting PYTORCH_CUDA_ALLOC_CONF="
            + "expandable_segments:True to avoid fragmentation.  See documentation for Memory Management  "
            + "(https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)";

    static final String FRACTION_1X = "RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; "
            + "23.69 GiB total capacity; 5.94 GiB already allocated; 17.39 GiB free; 6.00 GiB allowed; "
            + "5.95 GiB reserved in total by PyTorch)";

    static final String FRACTION_ASYNC = """
            torch.OutOfMemoryError: Allocation on device 0 would exceed allowed memory. (out of memory)
            Currently allocated     : 11.90 GiB
            Requested               : 256.00 MiB
            Device limit            : 23.64 GiB
            Free (according to CUDA): 10.93 GiB
            PyTorch limit (set by user-supplied memory fraction)
                                    : 12.00 GiB
            """;

    /** pytorch/pytorch#59778's figures: 3.03 GiB free for 2.26 GiB asked, no fraction printed. */
    static final String ROOM_1X = "RuntimeError: CUDA out of memory. Tried to allocate 2.26 GiB (GPU 0; "
            + "6.00 GiB total capacity; 781.59 MiB already allocated; 3.03 GiB free; 1.24 GiB reserved in "
            + "total by PyTorch)";

    static final String ROOM_2X = "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. "
            + "GPU 0 has a total capacity of 79.15 GiB of which 58.50 GiB is free. Including non-PyTorch "
            + "memory, this process has 20.13 GiB memory in use. Of the allocated memory 19.10 GiB is "
            + "allocated by PyTorch, and 512.00 MiB is reserved by PyTorch but unallocated.";

    static final String BIGGER_THAN_CARD = "RuntimeError: CUDA out of memory. Tried to allocate 55.57 GiB "
            + "(GPU 0; 12.00 GiB total capacity; 984.52 MiB already allocated; 9.95 GiB free; 1.02 GiB "
            + "reserved in total by PyTorch)";

    static String headline(Diagnosis d) {
        return d.text().lines().filter(l -> l.startsWith("Most likely cause: ")).findFirst().orElseThrow();
    }

    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> jsonRanked(Diagnosis d) {
        return (List<Map<String, Object>>) json(d).get("ranked");
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> json(Diagnosis d) {
        try {
            return (Map<String, Object>) JsonRoundTripTest.back(d.json());
        } catch (Exception e) {
            throw new AssertionError("triage --json is not JSON: " + d.json(), e);
        }
    }

    @Nested
    @DisplayName("free memory within the near-full margin of the request counts as none, on every rung")
    class NearFull {
        @Test
        @DisplayName("8.20 GiB free for 8.13 GiB: 32 MiB of holes are not enough alone, and nothing 'alone makes the request fit'")
        void noCauseRidesOnTheFreeBytes() {
            Diagnosis d = Triage.of(NEAR_FULL);
            assertThat(d.shortfall()).isEqualTo(d.reading().get(Figure.REQUESTED));
            assertThat(d.ranked()).as(d.text()).noneMatch(Candidate::qualifies);
            Candidate frag = d.ranked().stream().filter(c -> c.cause() == Cause.FRAGMENTATION).findFirst().orElseThrow();
            assertThat(frag.share()).isZero();
            assertThat(frag.sufficient()).isFalse();
            assertThat(d.text()).doesNotContainPattern("FRAGMENTATION +0% +32\\.43 MiB +enough alone")
                    .doesNotContain("alone makes the request fit");
            assertThat(jsonRanked(d)).allSatisfy(row -> assertThat(row.get("enoughAlone")).isEqualTo(false));
        }

        @Test
        @DisplayName("the verdict is the last rung, and the headline says the request needs all that is free, not that the card is full")
        void verdict() {
            Diagnosis d = Triage.of(NEAR_FULL);
            assertThat(d.cause()).isEqualTo(Cause.FULL_OR_DRIVER_RESERVE);
            assertThat(d.finding()).isEqualTo(Finding.FREE_BARELY_COVERS);
            assertThat(headline(d)).startsWith("Most likely cause: FREE_BARELY_COVERS (ladder step 6 of 6, filed "
                    + "under FULL_OR_DRIVER_RESERVE): ").doesNotContain("the card is full");
            assertThat(d.evidence().get(d.evidence().size() - 1)).startsWith("6. The request needs about all the "
                    + "free memory: 8.13 GiB asked with 8.20 GiB free").contains("75.6% of the 10.76 GiB card");
            assertThat(d.fixes()).isEqualTo(Cause.FULL_OR_DRIVER_RESERVE.fixes());
            assertThat(json(d)).containsEntry("cause", "FULL_OR_DRIVER_RESERVE").containsEntry("finding", "FREE_BARELY_COVERS");
        }

        @Test
        @DisplayName("one byte beyond the margin is room on the card, and the 1% margin is said in the shortfall line")
        void margin() {
            assertThat(Triage.of(NEAR_FULL).evidence()).anySatisfy(e -> assertThat(e).startsWith("Shortfall: 8.20 GiB "
                    + "free is barely more than the 8.13 GiB asked, and the allocation still failed; free memory that "
                    + "close to the request counts as none (the kit's rule: within 110.18 MiB)"));
        }
    }

    @Nested
    @DisplayName("a memory fraction that is spent is named, with its own fixes")
    class Fraction {
        @ParameterizedTest(name = "{0}")
        @CsvSource(delimiter = '|', textBlock = """
                2.x sentence form     | FRACTION_2X    | 19.79 GiB
                1.x parenthesized     | FRACTION_1X    | 6.00 GiB
                cudaMallocAsync limit | FRACTION_ASYNC | 12.00 GiB
                """)
        @DisplayName("the headline and the fix ladder name the fraction, never 'the card is full' or a bigger GPU")
        void named(String name, String which, String cap) throws Exception {
            String text = (String) TriageFindingsTest.class.getDeclaredField(which).get(null);
            Diagnosis d = Triage.of(text);
            assertThat(d.cause()).isEqualTo(Cause.FULL_OR_DRIVER_RESERVE);
            assertThat(d.finding()).as(d.text()).isEqualTo(Finding.MEMORY_FRACTION);
            assertThat(headline(d)).startsWith("Most likely cause: MEMORY_FRACTION (ladder step 6 of 6, filed under "
                    + "FULL_OR_DRIVER_RESERVE): ").contains("set_per_process_memory_fraction")
                    .doesNotContain("the card is full");
            assertThat(d.fixes().get(0)).startsWith("Raise the fraction or remove its call");
            assertThat(String.join("\n", d.fixes())).doesNotContain("GPU with more memory");
            assertThat(d.evidence()).anySatisfy(e -> assertThat(e).contains("memory fraction allows only " + cap)
                    .contains("the cap was hit, not the card"));
            assertThat(d.tellApart()).startsWith("To confirm it: ").contains("fraction raised");
            Map<String, Object> json = json(d);
            assertThat(json).containsEntry("cause", "FULL_OR_DRIVER_RESERVE").containsEntry("finding", "MEMORY_FRACTION")
                    .containsEntry("fixes", Fix.texts(Release.fixes(d.reading(), Finding.MEMORY_FRACTION.fixEntries())));
        }
    }

    @Nested
    @DisplayName("more free than asked, and no fraction spent: the headline says what the numbers show")
    class RoomOnCard {
        @Test
        @DisplayName("pytorch#59778 (1.x, 3.03 GiB free for 2.26 GiB): no 'the card is full'; this format would have printed a fraction")
        void parenthesized() {
            Diagnosis d = Triage.of(ROOM_1X);
            assertThat(d.finding()).as(d.text()).isEqualTo(Finding.ROOM_ON_CARD);
            assertThat(headline(d)).startsWith("Most likely cause: ROOM_ON_CARD (ladder step 6 of 6, filed under "
                    + "FULL_OR_DRIVER_RESERVE): the card had more free than asked").doesNotContain("the card is full");
            assertThat(d.evidence()).anySatisfy(e -> assertThat(e).startsWith("6. The card itself had room: 3.03 GiB "
                    + "free for 2.26 GiB; the message shows no memory fraction, and this format prints one when it is set"));
            assertThat(d.fixes()).isEqualTo(Finding.ROOM_ON_CARD.fixes());
            assertThat(json(d)).containsEntry("finding", "ROOM_ON_CARD");
        }

        @Test
        @DisplayName("a 2.x sentence without 'allowed': a fraction may still be the cause, since some releases leave it out")
        void sentence() {
            Diagnosis d = Triage.of(ROOM_2X);
            assertThat(d.finding()).as(d.text()).isEqualTo(Finding.ROOM_ON_CARD);
            assertThat(d.evidence()).anySatisfy(e -> assertThat(e).contains("some 2.x releases leave its 'allowed' figure out"));
        }

        @Test
        @DisplayName("a card that was short has no finding, and its headline is the cause's own")
        void noFindingWhenShort() {
            Diagnosis d = Triage.of("RuntimeError: CUDA out of memory. Tried to allocate 2.44 GiB (GPU 0; 31.75 GiB "
                    + "total capacity; 24.10 GiB already allocated; 1.37 GiB free; 29.02 GiB reserved in total by PyTorch)");
            assertThat(d.finding()).isNull();
            assertThat(headline(d)).isEqualTo("Most likely cause: " + d.cause().name() + " (ladder step "
                    + d.cause().step() + " of 6): " + d.cause().title());
            assertThat(json(d)).containsEntry("finding", null);
        }
    }

    @Test
    @DisplayName("a request larger than the whole card: no cause is enough alone, in the table or the JSON")
    void biggerThanCard() {
        Diagnosis d = Triage.of(BIGGER_THAN_CARD);
        assertThat(d.cause()).isEqualTo(Cause.FULL_OR_DRIVER_RESERVE);
        assertThat(d.evidence()).anySatisfy(e -> assertThat(e).contains("no ladder step helps"));
        assertThat(d.ranked()).isNotEmpty().noneMatch(Candidate::qualifies);
        assertThat(d.text()).containsPattern("FULL_OR_DRIVER_RESERVE +- +984\\.52 MiB +not enough alone");
        assertThat(jsonRanked(d)).allSatisfy(row -> assertThat(row.get("enoughAlone")).isEqualTo(false));
    }

    @Test
    @DisplayName("two process lines that could both hold what PyTorch reserved: the pick is called the smallest, a guess")
    void twoLinesCouldHoldReserved() {
        Diagnosis d = Triage.of("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a "
                + "total capacity of 79.15 GiB of which 1.06 GiB is free. Process 3120 has 38.20 GiB memory in use. "
                + "Process 4410 has 39.80 GiB memory in use. Of the allocated memory 36.90 GiB is allocated by "
                + "PyTorch, and 612.00 MiB is reserved by PyTorch but unallocated.");
        assertThat(d.selfSeenAs()).isEqualTo(3120);
        assertThat(d.evidence()).anySatisfy(e -> assertThat(e).startsWith("Process 3120 (38.20 GiB) is taken as this "
                + "process: there is no \"this process\" line, and of the 2 lines that could hold the 37.50 GiB "
                + "PyTorch reserved it is the smallest (a guess"));
        assertThat(d.evidence()).noneSatisfy(e -> assertThat(e).contains("only that line can hold"));
        Diagnosis one = Triage.of("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a "
                + "total capacity of 79.15 GiB of which 1.06 GiB is free. Process 3120 has 38.20 GiB memory in use. "
                + "Process 4410 has 30.80 GiB memory in use. Of the allocated memory 36.90 GiB is allocated by "
                + "PyTorch, and 612.00 MiB is reserved by PyTorch but unallocated.");
        assertThat(one.evidence()).anySatisfy(e -> assertThat(e).startsWith("Process 3120 (38.20 GiB) is this process: "
                + "there is no \"this process\" line, and only that line can hold the 37.50 GiB PyTorch reserved"));
    }

    @ParameterizedTest(name = "{0} reported -> sold as {1} GiB")
    @CsvSource(delimiter = '|', textBlock = """
            T4                 | 15837691904  | 16
            A10G               | 23609475072  | 24
            L4                 | 23653842944  | 24
            RTX 2080 Ti        | 11553462026  | 11
            RTX 3090           | 25437143040  | 24
            A100 40GB          | 42505273344  | 40
            A100 80GB / H100   | 84986691584  | 80
            A100 MIG 1g.5gb    | 5100273664   | 5
            exactly 20 GiB     | 21474836480  | 20
            RTX PRO 6000       | 102637871104 | 96
            H200               | 150754820096 | -1
            """)
    @DisplayName("the size a card is sold as is the next common size above its total, not the next whole GiB; none above 96 GiB")
    void soldAs(String card, long total, long gib) {
        assertThat(ContextReserve.soldAs(total)).as(card).isEqualTo(gib < 0 ? -1 : gib * GiB);
    }

    @Test
    @DisplayName("a full T4 (14.75 GiB) says it is an estimate: sold as 16 GiB, about 1.25 GiB of reserve")
    void reserveSentence() {
        Diagnosis d = Triage.of("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 512.00 MiB. GPU 0 "
                + "has a total capacity of 14.75 GiB of which 235.06 MiB is free. Including non-PyTorch memory, "
                + "this process has 14.51 GiB memory in use. Of the allocated memory 14.06 GiB is allocated by "
                + "PyTorch, and 112.00 MiB is reserved by PyTorch but unallocated.");
        assertThat(d.evidence()).anySatisfy(e -> assertThat(e).contains("if the card is sold as 16 GiB (the kit's "
                + "estimate: the next common size above the total), that reserve is about 1.25 GiB."));
    }
}
