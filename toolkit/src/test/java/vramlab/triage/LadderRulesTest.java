package vramlab.triage;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Each rung's test exactly at its threshold and just beside it, as {@link Ladder} states them:
 * a figure is "significant" from a twentieth of the card (1 GiB when the card is unknown);
 * fragmentation when the unallocated cache covers the request, or is significant and covers it
 * with the free bytes; other processes when they hold a significant share that, freed, would
 * cover it; for formats without a process list, a gap of max(2 GiB, a tenth of the card) that is
 * neither free nor PyTorch's; NCCL from 1 GiB of non-PyTorch memory in this process; graph
 * pools when the private pools cover the request or are significant; a request over the card or
 * of 1 EiB first of all. Figures are in MiB; a blank cell is a figure the message lacked.
 */
@DisplayName("The ladder's thresholds, rung by rung")
class LadderRulesTest {
    private static final long MiB = 1L << 20;

    /** A reading built from MiB figures; {@code null} leaves a figure out. */
    static final class R {
        final Map<Figure, Long> f = new EnumMap<>(Figure.class);
        final Map<Integer, Long> procs = new LinkedHashMap<>();
        final Set<Clue> clues = EnumSet.noneOf(Clue.class);
        final List<String> missing = new ArrayList<>();
        Family family = Family.SENTENCE;

        R put(Figure k, Long mib) {
            if (mib != null) f.put(k, mib * MiB);
            return this;
        }

        R proc(int pid, long mib) {
            procs.put(pid, mib * MiB);
            f.merge(Figure.OTHER_PROCESSES, mib * MiB, Long::sum);
            return this;
        }

        Diagnosis climb() {
            return Ladder.climb(new Reading(family, "CUDA", "", f, procs, clues, missing, List.of()), List.of());
        }
    }

    static R card(Long capacityMib, Long freeMib, Long triedMib) {
        return new R().put(Figure.CAPACITY, capacityMib).put(Figure.FREE, freeMib).put(Figure.REQUESTED, triedMib);
    }

    static String last(Diagnosis d) { return d.evidence().get(d.evidence().size() - 1); }

    @Nested
    @DisplayName("before the ladder: a request no GPU can serve")
    class Front {
        @ParameterizedTest(name = "tried {1} MiB on a {0} MiB card -> {2}")
        @CsvSource(delimiter = '|', textBlock = """
                20480 | 20480 | false
                20480 | 20481 | true
                      | 40960 | false
                """)
        @DisplayName("more than the whole card goes straight to 'full'; exactly the card does not")
        void biggerThanCard(Long cap, long tried, boolean straight) {
            Diagnosis d = card(cap, 1L, tried).put(Figure.RESERVED_BUT_UNALLOCATED, 0L).climb();
            assertThat(d.evidence().get(0).startsWith("The request alone"))
                    .as(d.evidence().toString()).isEqualTo(straight);
            if (straight) assertThat(d.cause()).isEqualTo(Cause.FULL_OR_DRIVER_RESERVE);
        }

        @Test
        @DisplayName("1 EiB exactly is refused at the front door, whatever else the message says")
        void oneEiB() {
            R r = card(20480L, 1L, null).put(Figure.RESERVED_BUT_UNALLOCATED, 30000L);
            r.f.put(Figure.REQUESTED, Sizes.ONE_EB);
            Diagnosis d = r.climb();
            assertThat(d.cause()).isEqualTo(Cause.FULL_OR_DRIVER_RESERVE);
            assertThat(d.evidence()).singleElement().asString().startsWith("The request is at least 1 EiB");
            r.f.put(Figure.REQUESTED, Sizes.ONE_EB - 1);
            assertThat(r.climb().evidence().get(0)).as("just under 1 EiB it is only bigger than the card")
                    .startsWith("The request alone");
        }
    }

    @Nested
    @DisplayName("rung 1: fragmentation")
    class Fragmentation {
        @ParameterizedTest(name = "card {0}, free {1}, tried {2}, unallocated {3} -> fragmentation {4}")
        @CsvSource(delimiter = '|', textBlock = """
                20480 | 1   | 2048 | 1024 | false
                20480 | 1   | 1025 | 1024 | true
                20480 | 0   | 1024 | 1024 | true
                20480 | 500 | 1523 | 1023 | false
                      | 1   | 1025 | 1024 | true
                      | 1   | 1024 | 1023 | false
                0     | 1   | 1024 | 1023 | false
                """)
        @DisplayName("significant unallocated bytes plus the free ones covering the request")
        void coverWithFree(Long cap, long free, long tried, long unalloc, boolean frag) {
            Diagnosis d = card(cap, free, tried).put(Figure.RESERVED_BUT_UNALLOCATED, unalloc).climb();
            assertThat(d.cause() == Cause.FRAGMENTATION).as(String.join("\n", d.evidence())).isEqualTo(frag);
        }

        @Test
        @DisplayName("an unallocated figure of 0 is read, not taken as missing; a missing one cannot be checked")
        void zeroIsAFigure() {
            Diagnosis zero = card(20480L, 1L, 512L).put(Figure.RESERVED_BUT_UNALLOCATED, 0L).climb();
            assertThat(zero.evidence().get(0)).startsWith("1. Fragmentation: only 0 bytes is reserved");
            Diagnosis none = card(20480L, 1L, 512L).climb();
            assertThat(none.evidence().get(0)).startsWith("1. Fragmentation: cannot check");
            Diagnosis noRequest = card(20480L, 1L, null).put(Figure.RESERVED_BUT_UNALLOCATED, 10L).climb();
            assertThat(noRequest.evidence().get(0)).startsWith("1. Fragmentation: cannot check");
        }
    }

    @Nested
    @DisplayName("rung 2: other processes")
    class Others {
        @ParameterizedTest(name = "card {0}, free {1}, tried {2}, others {3} -> {4}")
        @CsvSource(delimiter = '|', textBlock = """
                20480 | 0 | 1024 | 1024 | true
                20480 | 0 | 1025 | 1024 | false
                20480 | 1 | 1025 | 1024 | true
                20480 | 0 | 512  | 1023 | false
                      | 0 | 512  | 1024 | true
                      | 0 | 512  | 1023 | false
                """)
        @DisplayName("a significant share that, freed, would cover the request")
        void share(Long cap, long free, long tried, long others, boolean blamed) {
            Diagnosis d = card(cap, free, tried).put(Figure.RESERVED_BUT_UNALLOCATED, 0L).proc(4242, others).climb();
            assertThat(d.cause() == Cause.OTHER_PROCESSES).as(String.join("\n", d.evidence())).isEqualTo(blamed);
        }

        @Test
        @DisplayName("the sentence names each process and its bytes, and says 'holds' for one, 'hold' for several")
        void sentences() {
            Diagnosis one = card(20480L, 0L, 512L).put(Figure.RESERVED_BUT_UNALLOCATED, 0L).proc(7, 2048).climb();
            assertThat(last(one)).isEqualTo("2. Other processes: process 7 (2.00 GiB) holds 2.00 GiB of the card; "
                    + "without them 2.00 GiB would be free, enough for the 512.00 MiB.");
            Diagnosis two = card(20480L, 0L, 512L).put(Figure.RESERVED_BUT_UNALLOCATED, 0L).proc(7, 1024).proc(8, 1024)
                    .climb();
            assertThat(last(two)).startsWith("2. Other processes: processes 7 (1024.00 MiB), 8 "
                    + "(1024.00 MiB) hold 2.00 GiB");
            Diagnosis little = card(20480L, 0L, 512L).put(Figure.RESERVED_BUT_UNALLOCATED, 0L).proc(7, 10).climb();
            assertThat(little.evidence().get(1)).isEqualTo("2. Other processes: process 7 (10.00 MiB) holds only "
                    + "10.00 MiB, too little to explain it.");
            Diagnosis few = card(20480L, 0L, 512L).put(Figure.RESERVED_BUT_UNALLOCATED, 0L).proc(7, 10).proc(8, 10)
                    .climb();
            assertThat(few.evidence().get(1)).contains(" hold only ");
            Diagnosis listsNone = card(20480L, 0L, 512L).put(Figure.RESERVED_BUT_UNALLOCATED, 0L)
                    .put(Figure.OTHER_PROCESSES, 0L).climb();
            assertThat(listsNone.evidence().get(1)).isEqualTo("2. Other processes: the message lists none.");
        }

        @ParameterizedTest(name = "card {0}, free {1}, reserved {2}, distributed {3} -> {4}")
        @CsvSource(delimiter = '|', textBlock = """
                20480 | 100 | 18332 | false | OTHER_PROCESSES
                20480 | 100 | 18333 | false | FULL_OR_DRIVER_RESERVE
                20480 | 100 | 18332 | true  | NCCL_BUFFERS
                40960 | 100 | 36764 | false | OTHER_PROCESSES
                40960 | 100 | 36765 | false | FULL_OR_DRIVER_RESERVE
                """)
        @DisplayName("without a process list: a gap of max(2 GiB, a tenth of the card) is someone else's")
        void unattributed(long cap, long free, long reserved, boolean distributed, Cause cause) {
            R r = card(cap, free, 512L).put(Figure.RESERVED_BUT_UNALLOCATED, 0L).put(Figure.RESERVED, reserved);
            r.family = Family.RESERVED_IN_TOTAL;
            if (distributed) r.clues.add(Clue.DISTRIBUTED);
            Diagnosis d = r.climb();
            assertThat(d.cause()).as(String.join("\n", d.evidence())).isEqualTo(cause);
        }

        @Test
        @DisplayName("without a process list or the figures to infer one, the rung cannot be checked")
        void cannotInfer() {
            R r = card(20480L, null, 512L).put(Figure.RESERVED_BUT_UNALLOCATED, 0L).put(Figure.RESERVED, 100L);
            assertThat(r.climb().evidence().get(1)).startsWith("2. Other processes: cannot check");
            R async = card(20480L, 100L, 512L).put(Figure.ALLOCATED_BY_PYTORCH, 18332L);
            async.family = Family.MALLOC_ASYNC;
            assertThat(async.climb().cause()).as("the async backend's allocated figure stands in for reserved")
                    .isEqualTo(Cause.OTHER_PROCESSES);
            R sentence = card(20480L, 100L, 512L).put(Figure.ALLOCATED_BY_PYTORCH, 18332L);
            assertThat(sentence.climb().evidence().get(1)).as("only the async backend gets that stand-in")
                    .startsWith("2. Other processes: cannot check");
        }
    }

    @Nested
    @DisplayName("rung 3: NCCL")
    class Nccl {
        @Test
        @DisplayName("NCCL's own allocation failure, and a raw CUDA failure in a distributed run, are NCCL's")
        void families() {
            R nccl = new R();
            nccl.family = Family.NCCL_ERROR;
            assertThat(nccl.climb().cause()).isEqualTo(Cause.NCCL_BUFFERS);
            R raw = new R();
            raw.family = Family.CUDA_ERROR;
            raw.clues.add(Clue.DISTRIBUTED);
            assertThat(raw.climb().cause()).isEqualTo(Cause.NCCL_BUFFERS);
            R alone = new R();
            alone.family = Family.CUDA_ERROR;
            Diagnosis d = alone.climb();
            assertThat(d.cause()).isEqualTo(Cause.FULL_OR_DRIVER_RESERVE);
            assertThat(d.evidence()).anySatisfy(e -> assertThat(e).isEqualTo("3. NCCL: cannot measure non-PyTorch "
                    + "memory in this process."));
            assertThat(last(d)).endsWith("(Without figures this is the fallback, not a finding.)");
        }

        @Test
        @DisplayName("1 GiB outside PyTorch: suspect NCCL, with or without a distributed run in the paste")
        void outside() {
            R r = card(20480L, 1L, 512L).put(Figure.RESERVED_BUT_UNALLOCATED, 0L).put(Figure.OTHER_PROCESSES, 0L)
                    .put(Figure.THIS_PROCESS, 20024L).put(Figure.RESERVED, 19000L);
            assertThat(last(r.climb()))
                    .startsWith("3. NCCL: this process holds 19.55 GiB but PyTorch reserved 18.55 GiB")
                    .endsWith("also suspect another library that allocates on its own.");
            r.clues.add(Clue.DISTRIBUTED);
            assertThat(last(r.climb())).endsWith(", and the paste shows a distributed run.");
            R below = card(20480L, 1L, 512L).put(Figure.RESERVED_BUT_UNALLOCATED, 0L).put(Figure.OTHER_PROCESSES, 0L)
                    .put(Figure.THIS_PROCESS, 18000L).put(Figure.RESERVED, 19000L);
            assertThat(below.climb().evidence().get(2)).isEqualTo("3. NCCL: this process's non-PyTorch memory is "
                    + "0 bytes, about a context's worth.");
        }
    }

    @Nested
    @DisplayName("rung 4: graph pools")
    class GraphPools {
        @ParameterizedTest(name = "card {0}, tried {1}, private pools {2} -> {3}")
        @CsvSource(delimiter = '|', textBlock = """
                20480 | 512  | 512  | true
                20480 | 512  | 511  | false
                20480 | 4096 | 1024 | true
                20480 | 4096 | 1023 | false
                20480 | 0    | 0    | false
                """)
        @DisplayName("private pools covering the request, or significant on their own")
        void pools(long cap, long tried, long priv, boolean blamed) {
            Diagnosis d = card(cap, 1L, tried).put(Figure.RESERVED_BUT_UNALLOCATED, 0L).put(Figure.OTHER_PROCESSES, 0L)
                    .put(Figure.THIS_PROCESS, 19900L).put(Figure.RESERVED, 19000L).put(Figure.PRIVATE_POOLS, priv)
                    .climb();
            assertThat(d.cause() == Cause.CUDA_GRAPH_POOLS).as(String.join("\n", d.evidence())).isEqualTo(blamed);
        }

        @Test
        @DisplayName("a format without the pool figure says so, and blames graphs only when the paste shows them")
        void noFigure() {
            R r = card(20480L, 1L, 512L).put(Figure.RESERVED_BUT_UNALLOCATED, 0L).put(Figure.OTHER_PROCESSES, 0L);
            Diagnosis d = r.climb();
            assertThat(d.evidence()).contains("4. Graph pools: cannot check, this format has no private-pool figure.");
            R small = card(20480L, 1L, 512L).put(Figure.RESERVED_BUT_UNALLOCATED, 0L).put(Figure.OTHER_PROCESSES, 0L)
                    .put(Figure.PRIVATE_POOLS, 10L);
            assertThat(small.climb().evidence())
                    .contains("4. Graph pools: 10.00 MiB in private pools, too little to matter.");
            R nothingAsked = card(20480L, 1L, 0L).put(Figure.OTHER_PROCESSES, 0L).put(Figure.PRIVATE_POOLS, 0L);
            assertThat(nothingAsked.climb().cause())
                    .as("empty pools are never the cause").isNotEqualTo(Cause.CUDA_GRAPH_POOLS);
        }
    }

    @Nested
    @DisplayName("rung 6: the card is full")
    class Full {
        @Test
        @DisplayName("names PyTorch's share of the card, the free bytes and what no process holds")
        void sentence() {
            R r = card(20480L, 100L, 512L).put(Figure.RESERVED_BUT_UNALLOCATED, 0L).put(Figure.OTHER_PROCESSES, 300L)
                    .put(Figure.THIS_PROCESS, 19000L).put(Figure.ALLOCATED_BY_PYTORCH, 18000L);
            assertThat(last(r.climb())).isEqualTo("6. Otherwise the card is simply full: PyTorch has 17.58 GiB of "
                    + "20.00 GiB, 100.00 MiB is free. 1.05 GiB is held by no process: the driver's reserve (ECC, "
                    + "display, driver structures).");
        }

        @Test
        @DisplayName("leaves out each clause whose figures are missing, and says when it is only the fallback")
        void partial() {
            R noAllocated = card(20480L, 100L, 512L).put(Figure.RESERVED_BUT_UNALLOCATED, 0L);
            assertThat(last(noAllocated.climb()))
                    .startsWith("6. Otherwise the card is simply full, 100.00 MiB is free.")
                    .doesNotContain("held by no process");
            R noCard = card(null, null, 512L).put(Figure.RESERVED_BUT_UNALLOCATED, 0L).put(Figure.ALLOCATED_BY_PYTORCH, 10L);
            assertThat(last(noCard.climb())).isEqualTo("6. Otherwise the card is simply full.");
            R cut = card(20480L, 100L, 512L).put(Figure.RESERVED_BUT_UNALLOCATED, 0L);
            cut.missing.add("free");
            Diagnosis d = cut.climb();
            assertThat(d.evidence().get(0)).isEqualTo("The message lacks free (cut or mangled); the ladder works with "
                    + "what is there.");
            assertThat(last(d)).endsWith("(Figures are missing, so earlier steps could not all be ruled out: this is "
                    + "the fallback, not a finding.)");
            R legacy = new R();
            legacy.family = Family.THC_LEGACY;
            assertThat(last(legacy.climb())).endsWith("(Without figures this is the fallback, not a finding.)");
            R overHeld = card(20480L, 100L, 512L).put(Figure.RESERVED_BUT_UNALLOCATED, 0L).put(Figure.OTHER_PROCESSES, 0L)
                    .put(Figure.THIS_PROCESS, 21000L);
            assertThat(last(overHeld.climb())).contains(" 0 bytes is held by no process");
        }
    }

    @Test
    @DisplayName("messages from elsewhere are not climbed: no message, a look-alike, another device")
    void notPyTorchCuda() {
        R none = new R();
        none.family = Family.UNRECOGNIZED;
        assertThat(none.climb().cause()).isEqualTo(Cause.NOT_PYTORCH_OOM);
        R look = new R();
        look.family = Family.LOOK_ALIKE;
        assertThat(last(look.climb())).contains("not from PyTorch's CUDA caching allocator");
        Diagnosis xpu = Ladder.climb(new Reading(Family.SENTENCE, "XPU", "", Map.of(), Map.of(), Set.of(), List.of(),
                List.of()), List.of("earlier"));
        assertThat(xpu.cause()).isEqualTo(Cause.NOT_PYTORCH_OOM);
        assertThat(xpu.evidence()).containsExactly("earlier", "This is PyTorch's allocator on a XPU device, not CUDA; "
                + "its figures are shown as read, without a guess.");
        assertThat(Family.SENTENCE.isPyTorchCuda()).isTrue();
        assertThat(Family.LOOK_ALIKE.isPyTorchCuda()).isFalse();
        assertThat(Family.UNRECOGNIZED.isPyTorchCuda()).isFalse();
    }
}
