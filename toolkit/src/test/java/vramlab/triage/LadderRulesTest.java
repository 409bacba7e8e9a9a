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
 * Each rung's test exactly at its threshold and just beside it, as {@link Ladder} states them
 * (the kit's rules of thumb). A cause counts when it alone would make the request fit and is
 * significant: fragmentation when the unallocated cache is 3% of what PyTorch reserved and,
 * with the free bytes, covers the request on a card that can hold the live tensors plus it;
 * other processes from a twentieth of the card (1 GiB when the card is unknown); for formats
 * without a process list, a gap neither free nor PyTorch's of at least 1.5 GiB + 4% of the card,
 * of which what lies beyond a context (512 MiB + 1% of the card) is given back; NCCL from 1 GiB
 * of non-PyTorch memory in this process, of which what lies beyond a 512 MiB context is given
 * back; graph pools that cover the request or hold a twentieth of the card. A request over the
 * card or of 1 EiB comes first of all. Figures are in MiB; a blank cell is a figure the message
 * lacked.
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

    /** The sentence of rung {@code n} ("3. NCCL: ..."), the first if a rung speaks twice. */
    static String rung(Diagnosis d, int n) {
        return d.evidence().stream().filter(e -> e.startsWith(n + ". ")).findFirst()
                .orElseThrow(() -> new AssertionError("no rung " + n + " in " + d.evidence()));
    }

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
        @ParameterizedTest(name = "card {0}, free {1}, tried {2}, reserved {3}, unallocated {4} -> {5}")
        @CsvSource(delimiter = '|', textBlock = """
                20480 | 1   | 1025 | 10000 | 1024 | true
                20480 | 1   | 1040 | 10000 | 1024 | false
                20480 | 0   | 1024 | 10000 | 1024 | true
                20480 | 1   | 301  | 10000 | 300  | true
                20480 | 1   | 300  | 10000 | 299  | false
                20480 | 480 | 1480 | 20000 | 1000 | true
                20460 | 480 | 1480 | 20000 | 1000 | false
                      | 1   | 1025 | 10000 | 1024 | true
                20480 | 1   | 1025 | 0     | 1024 | false
                """)
        @DisplayName("holes of 3% of reserved that, with the free bytes, cover the request on a card that holds it")
        void coverWithFree(Long cap, long free, long tried, long reserved, long unalloc, boolean frag) {
            Diagnosis d = card(cap, free, tried).put(Figure.RESERVED, reserved).put(Figure.OTHER_PROCESSES, 0L)
                    .put(Figure.RESERVED_BUT_UNALLOCATED, unalloc).climb();
            assertThat(d.cause() == Cause.FRAGMENTATION).as(String.join("\n", d.evidence())).isEqualTo(frag);
        }

        @Test
        @DisplayName("an unallocated figure of 0 is read, not taken as missing; a missing one cannot be checked")
        void zeroIsAFigure() {
            Diagnosis zero = card(20480L, 1L, 512L).put(Figure.RESERVED, 10000L)
                    .put(Figure.RESERVED_BUT_UNALLOCATED, 0L).climb();
            assertThat(rung(zero, 1)).startsWith("1. Fragmentation: 0 bytes is reserved by PyTorch but unallocated "
                    + "(0.0% of the ");
            Diagnosis none = card(20480L, 1L, 512L).put(Figure.RESERVED, 10000L).climb();
            assertThat(rung(none, 1)).startsWith("1. Fragmentation: cannot check");
            Diagnosis noRequest = card(20480L, 1L, null).put(Figure.RESERVED, 10000L)
                    .put(Figure.RESERVED_BUT_UNALLOCATED, 10L).climb();
            assertThat(rung(noRequest, 1)).startsWith("1. Fragmentation: cannot check");
        }
    }

    @Nested
    @DisplayName("rung 2: other processes")
    class Others {
        @ParameterizedTest(name = "card {0}, free {1}, tried {2}, others {3} -> {4}")
        @CsvSource(delimiter = '|', textBlock = """
                20480 | 0 | 1024 | 1024 | true
                20480 | 0 | 1040 | 1024 | false
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
        @DisplayName("the sentence names each process, its bytes and share, and says 'holds' for one, 'hold' for"
                + " several")
        void sentences() {
            Diagnosis one = card(20480L, 0L, 512L).put(Figure.RESERVED_BUT_UNALLOCATED, 0L).proc(7, 2048).climb();
            assertThat(rung(one, 2)).isEqualTo("2. Other processes: process 7 (2.00 GiB) holds 2.00 GiB (10.0% of "
                    + "the card); without them 2.00 GiB would be free, enough for the 512.00 MiB.");
            Diagnosis two = card(20480L, 0L, 512L).put(Figure.RESERVED_BUT_UNALLOCATED, 0L).proc(7, 1024).proc(8, 1024)
                    .climb();
            assertThat(rung(two, 2)).startsWith("2. Other processes: processes 7 (1024.00 MiB), 8 "
                    + "(1024.00 MiB) hold 2.00 GiB");
            Diagnosis little = card(20480L, 0L, 512L).put(Figure.RESERVED_BUT_UNALLOCATED, 0L).proc(7, 10).climb();
            assertThat(rung(little, 2)).isEqualTo("2. Other processes: process 7 (10.00 MiB) holds 10.00 MiB (0.0% "
                    + "of the card), too little to make the 512.00 MiB fit.");
            Diagnosis few = card(20480L, 0L, 512L).put(Figure.RESERVED_BUT_UNALLOCATED, 0L).proc(7, 10).proc(8, 10)
                    .climb();
            assertThat(rung(few, 2)).contains(" hold 20.00 MiB");
            Diagnosis listsNone = card(20480L, 0L, 512L).put(Figure.RESERVED_BUT_UNALLOCATED, 0L)
                    .put(Figure.OTHER_PROCESSES, 0L).climb();
            assertThat(rung(listsNone, 2)).isEqualTo("2. Other processes: the message lists none.");
        }

        // On a 25 GiB card the gap must reach 1.5 GiB + 1 GiB = 2560 MiB, and gives back what lies
        // beyond 512 MiB + 256 MiB; on a 50 GiB card 1.5 GiB + 2 GiB = 3584 MiB.
        @ParameterizedTest(name = "card {0}, free {1}, reserved {2}, tried {3}, distributed {4} -> {5}")
        @CsvSource(delimiter = '|', textBlock = """
                25600 | 100 | 22940 | 512  | false | OTHER_PROCESSES
                25600 | 100 | 22960 | 512  | false | FULL_OR_DRIVER_RESERVE
                25600 | 100 | 22940 | 512  | true  | NCCL_BUFFERS
                25600 | 100 | 22940 | 1892 | false | OTHER_PROCESSES
                25600 | 100 | 22940 | 1910 | false | FULL_OR_DRIVER_RESERVE
                51200 | 100 | 47516 | 512  | false | OTHER_PROCESSES
                51200 | 100 | 47540 | 512  | false | FULL_OR_DRIVER_RESERVE
                """)
        @DisplayName("without a process list: a gap of 1.5 GiB + 4% of the card is someone else's, beyond a context")
        void unattributed(long cap, long free, long reserved, long tried, boolean distributed, Cause cause) {
            R r = card(cap, free, tried).put(Figure.RESERVED_BUT_UNALLOCATED, 0L).put(Figure.RESERVED, reserved);
            r.family = Family.RESERVED_IN_TOTAL;
            if (distributed) r.clues.add(Clue.DISTRIBUTED);
            Diagnosis d = r.climb();
            assertThat(d.cause()).as(String.join("\n", d.evidence())).isEqualTo(cause);
        }

        @Test
        @DisplayName("without a process list or the figures to infer one, the rung cannot be checked")
        void cannotInfer() {
            R r = card(20480L, null, 512L).put(Figure.RESERVED_BUT_UNALLOCATED, 0L).put(Figure.RESERVED, 100L);
            assertThat(rung(r.climb(), 2)).startsWith("2. Other processes: cannot check");
            R async = card(25600L, 100L, 512L).put(Figure.ALLOCATED_BY_PYTORCH, 22940L);
            async.family = Family.MALLOC_ASYNC;
            Diagnosis a = async.climb();
            assertThat(a.cause()).as("the async backend's allocated figure stands in for reserved")
                    .isEqualTo(Cause.OTHER_PROCESSES);
            assertThat(rung(a, 2)).contains(" is neither free nor allocated (the async pool's cache");
            R sentence = card(25600L, 100L, 512L).put(Figure.ALLOCATED_BY_PYTORCH, 22940L);
            assertThat(rung(sentence.climb(), 2)).as("only the async backend gets that stand-in")
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
            assertThat(d.cause()).as("no figure and no words: the text cannot tell").isEqualTo(Cause.CANNOT_TELL);
            assertThat(d.runnerUp()).isEqualTo(Cause.FULL_OR_DRIVER_RESERVE);
            assertThat(d.evidence()).anySatisfy(e -> assertThat(e).isEqualTo("3. NCCL: cannot measure non-PyTorch "
                    + "memory in this process."));
            assertThat(last(d)).startsWith("No figure in this text");
        }

        @Test
        @DisplayName("1 GiB outside PyTorch: NCCL in a distributed run; without one, the holders are named, not NCCL")
        void outside() {
            R r = card(20480L, 1L, 512L).put(Figure.RESERVED_BUT_UNALLOCATED, 0L).put(Figure.OTHER_PROCESSES, 0L)
                    .put(Figure.THIS_PROCESS, 20100L).put(Figure.RESERVED, 19000L);
            Diagnosis d = r.climb();
            assertThat(d.cause()).isEqualTo(Cause.OUTSIDE_ALLOCATOR);
            assertThat(rung(d, 3)).startsWith("3. Outside PyTorch: this process holds 19.63 GiB, PyTorch reserved "
                    + "18.55 GiB: 1.07 GiB ± 0.01 GiB is non-PyTorch memory, more than a context")
                    .endsWith("so not NCCL by default: a library's own cudaMalloc, cuBLAS or cuDNN workspaces "
                            + "outside PyTorch's cache, NCCL if a process group exists after all, or a larger context.");
            r.clues.add(Clue.DISTRIBUTED);
            Diagnosis distributed = r.climb();
            assertThat(distributed.cause()).isEqualTo(Cause.NCCL_BUFFERS);
            assertThat(rung(distributed, 3)).startsWith("3. NCCL: ").endsWith(", and the paste shows a distributed run.");
            R level = card(20480L, 1L, 512L).put(Figure.RESERVED_BUT_UNALLOCATED, 0L).put(Figure.OTHER_PROCESSES, 0L)
                    .put(Figure.THIS_PROCESS, 19000L).put(Figure.RESERVED, 19000L);
            assertThat(rung(level.climb(), 3)).isEqualTo("3. Outside PyTorch: this process holds 18.55 GiB, "
                    + "PyTorch reserved 18.55 GiB: 0.00 GiB ± 0.01 GiB is non-PyTorch memory, about a context's worth.");
        }

        // 1 GiB outside PyTorch is the line; what lies beyond a 512 MiB context is given back.
        @ParameterizedTest(name = "outside {0} MiB, tried {1} -> {2}")
        @CsvSource(delimiter = '|', textBlock = """
                1024 | 512 | true
                1000 | 511 | false
                1024 | 513 | true
                1024 | 530 | false
                """)
        @DisplayName("from 1 GiB outside PyTorch, when what lies beyond a context covers the request: NCCL only in a distributed run")
        void threshold(long outside, long tried, boolean blamed) {
            for (boolean distributed : new boolean[] {false, true}) {
                R r = card(20480L, 1L, tried).put(Figure.RESERVED_BUT_UNALLOCATED, 0L)
                        .put(Figure.OTHER_PROCESSES, 0L).put(Figure.THIS_PROCESS, 19000L + outside)
                        .put(Figure.RESERVED, 19000L);
                if (distributed) r.clues.add(Clue.DISTRIBUTED);
                Diagnosis d = r.climb();
                Cause holder = distributed ? Cause.NCCL_BUFFERS : Cause.OUTSIDE_ALLOCATOR;
                assertThat(d.cause() == holder).as(String.join("\n", d.evidence())).isEqualTo(blamed);
                assertThat(d.cause()).isNotEqualTo(distributed ? Cause.OUTSIDE_ALLOCATOR : Cause.NCCL_BUFFERS);
            }
        }
    }

    @Nested
    @DisplayName("rung 4: graph pools")
    class GraphPools {
        @ParameterizedTest(name = "card {0}, tried {1}, private pools {2} -> {3}")
        @CsvSource(delimiter = '|', textBlock = """
                20480 | 512  | 512  | true
                20480 | 512  | 511  | false
                20480 | 1025 | 1024 | true
                20480 | 1024 | 1018 | false
                20480 | 4096 | 4095 | true
                20480 | 4096 | 4080 | false
                20480 | 0    | 0    | false
                """)
        @DisplayName("private pools as large as the request or a twentieth of the card, that with free cover it")
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
            assertThat(rung(small.climb(), 4)).isEqualTo("4. Graph pools: 10.00 MiB sits cached in private pools "
                    + "(CUDA graphs), kept reserved while their graphs live and unusable for ordinary tensors; too "
                    + "little to explain the shortfall.");
            R nothingAsked = card(20480L, 1L, 0L).put(Figure.OTHER_PROCESSES, 0L).put(Figure.PRIVATE_POOLS, 0L);
            assertThat(nothingAsked.climb().cause())
                    .as("empty pools are never the cause").isNotEqualTo(Cause.CUDA_GRAPH_POOLS);
        }
    }

    @Nested
    @DisplayName("rung 6: the card is full")
    class Full {
        @Test
        @DisplayName("names PyTorch's share of the card, the free bytes, the reserve and what no process holds")
        void sentence() {
            R r = card(20480L, 100L, 512L).put(Figure.RESERVED_BUT_UNALLOCATED, 0L).put(Figure.OTHER_PROCESSES, 300L)
                    .put(Figure.THIS_PROCESS, 19000L).put(Figure.ALLOCATED_BY_PYTORCH, 18000L);
            assertThat(last(r.climb())).startsWith("6. Otherwise the card is simply full: PyTorch has 17.58 GiB of "
                    + "20.00 GiB, 100.00 MiB is free.")
                    .contains(" if the card is sold as 20 GiB (the kit's estimate: the next common size above the total), that reserve is about 0 bytes.")
                    .contains(" 1.05 GiB ± 0.01 GiB of the total is held by no process the message lists");
            R odd = card(23876L, 100L, 512L).put(Figure.RESERVED_BUT_UNALLOCATED, 0L).put(Figure.OTHER_PROCESSES, 0L)
                    .put(Figure.THIS_PROCESS, 23776L);
            assertThat(last(odd.climb())).as("cudaMemGetInfo's total is short of the nominal 24 GiB by the reserve")
                    .contains(" if the card is sold as 24 GiB (the kit's estimate: the next common size above the total), that reserve is about 700.00 MiB.");
        }

        @ParameterizedTest(name = "held by no process: {0} MiB -> said {1}")
        @CsvSource({"80, true", "64, false", "63, false", "-900, false"})
        @DisplayName("what no listed process holds is said from 64 MiB, and only where the figures' rounding"
                + " (about 10 MiB here) cannot make it")
        void heldByNoProcess(long nobody, boolean said) {
            R r = card(20480L, 100L, 512L).put(Figure.RESERVED_BUT_UNALLOCATED, 0L).put(Figure.OTHER_PROCESSES, 0L)
                    .put(Figure.THIS_PROCESS, 20480L - 100L - nobody);
            assertThat(last(r.climb()).contains(" of the total is held by no process")).as(last(r.climb()))
                    .isEqualTo(said);
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
            Diagnosis old = legacy.climb();
            assertThat(old.cause()).isEqualTo(Cause.CANNOT_TELL);
            assertThat(last(old)).startsWith("No figure in this text");
            assertThat(old.fixes()).anySatisfy(f -> assertThat(f).contains("_cuda_attach_out_of_memory_observer"));
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
        assertThat(xpu.evidence()).containsExactly("earlier", "This is PyTorch's allocator on a XPU device, not CUDA or ROCm; "
                + "its figures are shown as read, without a guess.");
        assertThat(Family.SENTENCE.isPyTorchCuda()).isTrue();
        assertThat(Family.LOOK_ALIKE.isPyTorchCuda()).isFalse();
        assertThat(Family.UNRECOGNIZED.isPyTorchCuda()).isFalse();
    }
}
