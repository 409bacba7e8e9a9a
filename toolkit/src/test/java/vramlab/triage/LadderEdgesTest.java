package vramlab.triage;

import static org.assertj.core.api.Assertions.assertThat;
import static vramlab.triage.LadderRulesTest.card;
import static vramlab.triage.LadderRulesTest.last;
import static vramlab.triage.LadderRulesTest.rung;

import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

import vramlab.triage.LadderRulesTest.R;

/**
 * The ladder's edges that the rung tables leave open: the near-full margin, the order of the
 * middle rungs, the nearest partial cause of a full card, the order of the ranking, figures of
 * 0 bytes (PyTorch's format_size prints "0 bytes", and cudaMemGetInfo can report 0 free), a
 * card whose capacity reads 0, and the limit of this process's own. Every threshold is the
 * kit's rule of thumb as {@link Ladder} states it; figures are in MiB unless a column says
 * bytes.
 */
@DisplayName("The ladder at its edges")
class LadderEdgesTest {
    private static final long MiB = 1L << 20;

    static String all(Diagnosis d) { return String.join("\n", d.evidence()); }

    static List<Cause> order(Diagnosis d) {
        return d.ranked().stream().map(Candidate::cause).toList();
    }

    @Nested
    @DisplayName("the shortfall: free memory within max(64 MiB, 1% of the card) of the request is none")
    class Margin {
        // 1% of 20 GiB is 214748364 bytes (integer division), more than 64 MiB; 1% of 4 GiB is
        // less, so there the margin is 64 MiB = 67108864 bytes. free = tried + extra.
        @ParameterizedTest(name = "card {0} MiB, tried {1} MiB, free = tried + {2} bytes -> shortfall {3}")
        @CsvSource(delimiter = '|', textBlock = """
                20480 | 512 | 214748364  | 536870912
                20480 | 512 | 214748365  | -1
                4096  | 512 | 67108864   | 536870912
                4096  | 512 | 67108865   | -1
                4096  | 512 | 0          | 536870912
                4096  | 512 | -1         | 1
                4096  | 512 | -536870912 | 536870912
                4096  | 0   | 0          | 0
                4096  | 0   | 67108864   | 0
                4096  | 0   | 67108865   | -1
                """)
        @DisplayName("exactly at the margin is a full card whose shortfall is the whole request; one byte more is room")
        void margin(long cardMib, long triedMib, long extra, long shortfall) {
            R r = card(cardMib, null, null);
            r.f.put(Figure.REQUESTED, triedMib * MiB);
            r.f.put(Figure.FREE, triedMib * MiB + extra);
            Diagnosis d = r.climb();
            assertThat(d.shortfall()).as(all(d)).isEqualTo(shortfall);
            if (shortfall < 0) {
                assertThat(last(d)).startsWith("6. The card itself had room: ");
            } else {
                assertThat(d.evidence()).anySatisfy(e -> assertThat(e).startsWith("Shortfall: "));
            }
        }
    }

    @Nested
    @DisplayName("a twentieth of the card is the line on every card; 1 GiB when the card is unknown")
    class Twentieth {
        // On an 80 GiB card a twentieth is 4 GiB, not the 1 GiB of an unknown card. The free
        // bytes let the figure cover the request without being as large as the request. The
        // figures are printed with two decimals (Rounded): a figure within about 5 MiB of the
        // line stays in the running, marked, so the rows below it stand clear of the rounding.
        @ParameterizedTest(name = "card {0}, free {1}, tried {2}, {3} {4} MiB + {5} bytes -> named {6}")
        @CsvSource(delimiter = '|', textBlock = """
                81920 | 4200 | 8192 | pools  | 4096 | 0  | true
                81920 | 4200 | 8192 | pools  | 4080 | 0  | false
                81920 | 7200 | 8192 | pools  | 1024 | 0  | false
                      | 1100 | 2048 | pools  | 1024 | 0  | true
                      | 1100 | 2048 | pools  | 1018 | 0  | false
                81920 | 4200 | 8192 | others | 4096 | 0  | true
                81920 | 4200 | 8192 | others | 4080 | 0  | false
                81920 | 7200 | 8192 | others | 1024 | 0  | false
                """)
        @DisplayName("other processes and graph pools count from 5% of the card, exactly")
        void line(Long cap, long free, long tried, String which, long mib, long extra, boolean named) {
            R r = card(cap, free, tried).put(Figure.RESERVED_BUT_UNALLOCATED, 0L).put(Figure.RESERVED, 1000L)
                    .put(Figure.THIS_PROCESS, 1500L);
            Cause cause;
            if (which.equals("pools")) {
                r.put(Figure.OTHER_PROCESSES, 0L);
                r.f.put(Figure.PRIVATE_POOLS, mib * MiB + extra);
                cause = Cause.CUDA_GRAPH_POOLS;
            } else {
                r.procs.put(4242, mib * MiB + extra);
                r.f.put(Figure.OTHER_PROCESSES, mib * MiB + extra);
                cause = Cause.OTHER_PROCESSES;
            }
            Diagnosis d = r.climb();
            assertThat(d.cause() == cause).as(all(d)).isEqualTo(named);
        }
    }

    @Nested
    @DisplayName("the middle rungs: other processes (2), NCCL (3), graph pools (4), in that order")
    class MiddleRungs {
        // 20 GiB card, 1 MiB free, 512 MiB asked. This process holds 1 GiB outside PyTorch: NCCL
        // gives back what lies beyond a 512 MiB context, 512 MiB.
        // The paste shows a distributed run: without one the same gap is not put on NCCL.
        R base() {
            R r = card(20480L, 1L, 512L).put(Figure.RESERVED_BUT_UNALLOCATED, 0L).put(Figure.RESERVED, 19000L)
                    .put(Figure.THIS_PROCESS, 20024L);
            r.clues.add(Clue.DISTRIBUTED);
            return r;
        }

        @Test
        @DisplayName("without a distributed run the same 512 MiB is OUTSIDE_ALLOCATOR, step 3, its holders named")
        void noDistributedRunIsNotNccl() {
            R r = card(20480L, 1L, 512L).put(Figure.RESERVED_BUT_UNALLOCATED, 0L).put(Figure.RESERVED, 19000L)
                    .put(Figure.THIS_PROCESS, 20024L).put(Figure.OTHER_PROCESSES, 0L).put(Figure.PRIVATE_POOLS, 600L);
            Diagnosis d = r.climb();
            assertThat(d.cause()).as(all(d)).isEqualTo(Cause.OUTSIDE_ALLOCATOR);
            assertThat(d.runnerUp()).isEqualTo(Cause.CUDA_GRAPH_POOLS);
            assertThat(Cause.OUTSIDE_ALLOCATOR.step()).isEqualTo(Cause.NCCL_BUFFERS.step());
            assertThat(rung(d, 3)).startsWith("3. Outside PyTorch: ").contains("not NCCL by default")
                    .contains("cudaMalloc").contains("cuBLAS or cuDNN").contains("context");
            assertThat(String.join("\n", Cause.OUTSIDE_ALLOCATOR.fixes()) + Cause.OUTSIDE_ALLOCATOR.check())
                    .contains("NCCL_DEBUG=INFO").contains("CUBLAS_WORKSPACE_CONFIG")
                    .contains("torch.backends.cudnn").contains("torch.cuda.init()").contains("a run without");
        }

        @Test
        @DisplayName("a co-tenant of 1 GiB ties NCCL's 512 MiB (within a factor of two): step 2 is named")
        void othersBeforeNccl() {
            Diagnosis d = base().put(Figure.PRIVATE_POOLS, 0L).proc(4242, 1024).climb();
            assertThat(d.cause()).as(all(d)).isEqualTo(Cause.OTHER_PROCESSES);
            assertThat(d.runnerUp()).isEqualTo(Cause.NCCL_BUFFERS);
        }

        @Test
        @DisplayName("NCCL's 512 MiB ties 600 MiB of graph pools: step 3 is named")
        void ncclBeforeGraphPools() {
            Diagnosis d = base().put(Figure.OTHER_PROCESSES, 0L).put(Figure.PRIVATE_POOLS, 600L).climb();
            assertThat(d.cause()).as(all(d)).isEqualTo(Cause.NCCL_BUFFERS);
            assertThat(d.runnerUp()).isEqualTo(Cause.CUDA_GRAPH_POOLS);
        }

        @Test
        @DisplayName("beyond a factor of two the larger wins whatever its step")
        void largerWins() {
            Diagnosis pools = base().put(Figure.OTHER_PROCESSES, 0L).put(Figure.PRIVATE_POOLS, 1025L).climb();
            assertThat(pools.cause()).as(all(pools)).isEqualTo(Cause.CUDA_GRAPH_POOLS);
            R ncclRun = card(20480L, 1L, 512L).put(Figure.RESERVED_BUT_UNALLOCATED, 0L)
                    .put(Figure.RESERVED, 17000L).put(Figure.THIS_PROCESS, 19561L).put(Figure.PRIVATE_POOLS, 0L)
                    .proc(4242, 1024);
            ncclRun.clues.add(Clue.DISTRIBUTED);
            Diagnosis nccl = ncclRun.climb();
            assertThat(nccl.cause()).as("2049 MiB beyond a context outranks a 1 GiB co-tenant\n" + all(nccl))
                    .isEqualTo(Cause.NCCL_BUFFERS);
        }

        @Test
        @DisplayName("their sentences come in the ladder's order: 2, then 3, then 4")
        void sentences() {
            Diagnosis d = base().put(Figure.PRIVATE_POOLS, 600L).proc(4242, 1024).climb();
            List<String> e = d.evidence();
            assertThat(e.indexOf(rung(d, 2))).isLessThan(e.indexOf(rung(d, 3)));
            assertThat(e.indexOf(rung(d, 3))).isLessThan(e.indexOf(rung(d, 4)));
            assertThat(rung(d, 2)).startsWith("2. Other processes: ");
            assertThat(rung(d, 3)).startsWith("3. NCCL: ");
            assertThat(rung(d, 4)).startsWith("4. Graph pools: ");
        }
    }

    @Nested
    @DisplayName("a full card names the nearest cause: the significant one with the largest share")
    class Nearest {
        // 20 GiB card, nothing free, 4 GiB asked: no cause alone covers it. Holes of 1 GiB in
        // 3 GiB reserved are significant (a third) and give 25%; so does a co-tenant of 1 GiB.
        R base(long othersMib) {
            R r = card(20480L, 0L, 4096L).put(Figure.ALLOCATED_BY_PYTORCH, 2048L)
                    .put(Figure.RESERVED_BUT_UNALLOCATED, 1024L).put(Figure.RESERVED, 3072L);
            return othersMib > 0 ? r.proc(4242, othersMib) : r.put(Figure.OTHER_PROCESSES, 0L);
        }

        @ParameterizedTest(name = "co-tenant {0} MiB -> {1}")
        @CsvSource(delimiter = '|', textBlock = """
                1024 | the nearest is FRAGMENTATION (25%).
                1025 | the nearest is FRAGMENTATION (25%).
                2048 | the nearest is OTHER_PROCESSES (50%).
                1023 | the nearest is FRAGMENTATION (25%).
                """)
        @DisplayName("equal shares go to the earlier step; a larger share wins; a co-tenant under 5% does not count")
        void nearest(long othersMib, String words) {
            Diagnosis d = base(othersMib).climb();
            assertThat(d.cause()).isEqualTo(Cause.FULL_OR_DRIVER_RESERVE);
            assertThat(last(d)).contains(" No single cause explains the whole shortfall; " + words);
        }

        @Test
        @DisplayName("a significant cause that explains under 1% of the shortfall is not named")
        void underOnePercent() {
            // 30 MiB of holes in 1000 MiB reserved: exactly 3%, significant; 30 of 4096 is 0%.
            Diagnosis d = card(20480L, 0L, 4096L).put(Figure.ALLOCATED_BY_PYTORCH, 970L)
                    .put(Figure.RESERVED_BUT_UNALLOCATED, 30L).put(Figure.RESERVED, 1000L)
                    .put(Figure.OTHER_PROCESSES, 0L).climb();
            assertThat(d.cause()).isEqualTo(Cause.FULL_OR_DRIVER_RESERVE);
            assertThat(d.ranked()).anySatisfy(c -> assertThat(c).extracting(Candidate::cause, Candidate::share,
                    Candidate::significant).containsExactly(Cause.FRAGMENTATION, 0, true));
            assertThat(last(d)).doesNotContain("No single cause");
        }
    }

    @Nested
    @DisplayName("the ranking: the decided cause, then those enough alone, then those large enough, by share")
    class Ranking {
        @Test
        @DisplayName("the live tensors are enough alone only when freeing them covers the shortfall, as every cause")
        void enoughAloneFirst() {
            // 4 GiB asked, none free: 4 GiB of holes cover it; the live tensors (2 GiB, 50%) do
            // not, so they rank below a 3277 MiB co-tenant (80%), large but not enough either.
            Diagnosis d = card(20480L, 0L, 4096L).put(Figure.ALLOCATED_BY_PYTORCH, 2048L)
                    .put(Figure.RESERVED_BUT_UNALLOCATED, 4096L).put(Figure.RESERVED, 6144L).proc(4242, 3277)
                    .climb();
            assertThat(order(d)).as(all(d)).containsExactly(Cause.FRAGMENTATION, Cause.OTHER_PROCESSES,
                    Cause.FULL_OR_DRIVER_RESERVE);
            assertThat(d.ranked().get(1).share()).isEqualTo(80);
            assertThat(d.ranked().get(2).share()).isEqualTo(50);
            assertThat(d.ranked()).extracting(Candidate::qualifies).containsExactly(true, false, false);
            // 4 GiB of live tensors do cover the 4 GiB: then they are enough alone, and rank second.
            Diagnosis more = card(20480L, 0L, 4096L).put(Figure.ALLOCATED_BY_PYTORCH, 4096L)
                    .put(Figure.RESERVED_BUT_UNALLOCATED, 4096L).put(Figure.RESERVED, 8192L).proc(4242, 3277)
                    .climb();
            assertThat(order(more)).as(all(more)).containsExactly(Cause.FRAGMENTATION, Cause.FULL_OR_DRIVER_RESERVE,
                    Cause.OTHER_PROCESSES);
            assertThat(more.ranked().get(1).qualifies()).isTrue();
        }

        @Test
        @DisplayName("among causes not enough alone, a large one ranks above a larger share too small to count")
        void significantNext() {
            // 1000 MiB asked, none free: 800 MiB of holes in 8000 MiB (10%) count but fall short
            // (80%); a 1010 MiB co-tenant would cover it but is under 5% of the card.
            Diagnosis d = card(20480L, 0L, 1000L).put(Figure.ALLOCATED_BY_PYTORCH, 7200L)
                    .put(Figure.RESERVED_BUT_UNALLOCATED, 800L).put(Figure.RESERVED, 8000L).proc(4242, 1010)
                    .climb();
            assertThat(order(d)).as(all(d)).containsExactly(Cause.FULL_OR_DRIVER_RESERVE, Cause.FRAGMENTATION,
                    Cause.OTHER_PROCESSES);
            assertThat(d.ranked().get(2).share()).isEqualTo(100);
            assertThat(last(d)).contains("the nearest is FRAGMENTATION (80%).");
        }

        @Test
        @DisplayName("a request larger than the card ranks the live tensors alone, and says how to confirm it")
        void alone() {
            Diagnosis d = card(20480L, 1L, 40960L).put(Figure.ALLOCATED_BY_PYTORCH, 19000L).climb();
            assertThat(d.ranked()).singleElement().satisfies(c -> {
                assertThat(c.cause()).isEqualTo(Cause.FULL_OR_DRIVER_RESERVE);
                assertThat(c.bytes()).isEqualTo(19000L * MiB);
            });
            assertThat(d.runnerUp()).isNull();
            assertThat(d.tellApart()).isEqualTo("To confirm it: " + Cause.FULL_OR_DRIVER_RESERVE.check());
        }
    }

    @Nested
    @DisplayName("figures of 0 bytes are figures")
    class Zeros {
        @Test
        @DisplayName("0 bytes free, no co-tenant: the full card says so, and what no process holds")
        void nothingFree() {
            Diagnosis d = card(20480L, 0L, 512L).put(Figure.ALLOCATED_BY_PYTORCH, 19000L)
                    .put(Figure.RESERVED_BUT_UNALLOCATED, 0L).put(Figure.RESERVED, 19000L)
                    .put(Figure.THIS_PROCESS, 19400L).put(Figure.OTHER_PROCESSES, 0L).climb();
            assertThat(d.shortfall()).isEqualTo(512 * MiB);
            assertThat(last(d)).startsWith("6. Otherwise the card is simply full: PyTorch has 18.55 GiB of 20.00 GiB, "
                    + "0 bytes is free. This process holds 0.39 GiB ± 0.01 GiB beyond what PyTorch reserved: its CUDA "
                    + "context and libraries.")
                    .contains(" 1.05 GiB ± 0.01 GiB of the total is held by no process the message lists");
        }

        @Test
        @DisplayName("PyTorch holding nothing: 0 bytes of live tensors, the context is the process's own")
        void nothingAllocated() {
            Diagnosis d = card(20480L, 100L, 512L).put(Figure.ALLOCATED_BY_PYTORCH, 0L)
                    .put(Figure.RESERVED_BUT_UNALLOCATED, 0L).put(Figure.RESERVED, 0L)
                    .put(Figure.THIS_PROCESS, 300L).put(Figure.OTHER_PROCESSES, 0L).climb();
            assertThat(d.cause()).isEqualTo(Cause.FULL_OR_DRIVER_RESERVE);
            assertThat(rung(d, 1)).startsWith("1. Fragmentation: cannot check");
            assertThat(rung(d, 3)).isEqualTo("3. Outside PyTorch: this process holds 300.00 MiB, PyTorch reserved 0 bytes: "
                    + "300.00 MiB is non-PyTorch memory, about a context's worth.");
            assertThat(last(d)).startsWith("6. Otherwise the card is simply full: PyTorch has 0 bytes of 20.00 GiB, "
                    + "100.00 MiB is free. This process holds 300.00 MiB beyond what PyTorch reserved");
            assertThat(d.ranked().get(0).evidence()).isEqualTo("0 bytes of live tensors: a smaller workload gives "
                    + "back what it no longer allocates.");
        }

        @ParameterizedTest(name = "this process {0} MiB, reserved {1} MiB")
        @CsvSource({"19000, 19000", "0, 0"})
        @DisplayName("this process holding just what PyTorch reserved holds 0 bytes beyond it")
        void selfEqualsReserved(long self, long reserved) {
            Diagnosis d = card(20480L, 100L, 512L).put(Figure.RESERVED_BUT_UNALLOCATED, 0L)
                    .put(Figure.RESERVED, reserved).put(Figure.THIS_PROCESS, self).put(Figure.OTHER_PROCESSES, 0L)
                    .climb();
            // two GiB figures are equal give or take their rounding; two "0 bytes" are exactly equal
            String none = self == 0 ? "0 bytes" : "0.00 GiB ± 0.01 GiB";
            assertThat(rung(d, 3)).contains(": " + none + " is non-PyTorch memory, about a context's worth.");
            assertThat(last(d)).contains(" This process holds " + none + " beyond what PyTorch reserved")
                    .contains(" of the total is held by no process the message lists");
        }

        @Test
        @DisplayName("PyTorch reserved nothing: fragmentation cannot be checked, however the free bytes fall")
        void nothingReserved() {
            Diagnosis d = card(20480L, 520L, 512L).put(Figure.RESERVED_BUT_UNALLOCATED, 0L)
                    .put(Figure.RESERVED, 0L).put(Figure.OTHER_PROCESSES, 0L).climb();
            assertThat(rung(d, 1)).startsWith("1. Fragmentation: cannot check");
            assertThat(d.cause()).as(all(d)).isEqualTo(Cause.FULL_OR_DRIVER_RESERVE);
        }

        @Test
        @DisplayName("a request of 0 bytes on a card that close to full: no share of a 0-byte shortfall is claimed")
        void zeroRequest() {
            Diagnosis d = card(20480L, 10L, 0L).put(Figure.RESERVED_BUT_UNALLOCATED, 0L).put(Figure.RESERVED, 18000L)
                    .proc(4242, 2048).climb();
            assertThat(d.shortfall()).isZero();
            assertThat(d.cause()).as(all(d)).isEqualTo(Cause.OTHER_PROCESSES);
            assertThat(last(d)).isEqualTo("Decision: OTHER_PROCESSES gives back 2.00 GiB, the most of any cause that "
                    + "alone makes the request fit (ties within a factor of two go to the earlier ladder step).");
        }
    }

    @Nested
    @DisplayName("a capacity that reads 0 bytes is no card: the diagnosis is that of an unknown card")
    class UnknownCard {
        static Stream<Arguments> readings() {
            return Stream.of(
                Arguments.of("a small co-tenant", card(0L, 1L, 512L).put(Figure.RESERVED_BUT_UNALLOCATED, 0L)
                        .put(Figure.ALLOCATED_BY_PYTORCH, 1000L).put(Figure.RESERVED, 1000L).proc(4242, 500)),
                Arguments.of("small graph pools", card(0L, 100L, 512L).put(Figure.RESERVED_BUT_UNALLOCATED, 0L)
                        .put(Figure.RESERVED, 1000L).put(Figure.OTHER_PROCESSES, 0L).put(Figure.PRIVATE_POOLS, 500L)),
                Arguments.of("holes that cover the request", card(0L, 1L, 1025L).put(Figure.ALLOCATED_BY_PYTORCH, 8976L)
                        .put(Figure.RESERVED_BUT_UNALLOCATED, 1024L).put(Figure.RESERVED, 10000L)
                        .put(Figure.OTHER_PROCESSES, 0L)),
                Arguments.of("nothing free, nothing reserved, no process list", family(card(0L, 0L, 512L)
                        .put(Figure.ALLOCATED_BY_PYTORCH, 0L).put(Figure.RESERVED, 0L)
                        .put(Figure.RESERVED_BUT_UNALLOCATED, 0L), Family.RESERVED_IN_TOTAL)));
        }

        static R family(R r, Family f) {
            r.family = f;
            return r;
        }

        @ParameterizedTest(name = "{0}")
        @MethodSource("readings")
        @DisplayName("cause, sentences, ranking, assumption: as without the capacity figure")
        void same(String name, R zero) {
            Diagnosis withZero = zero.climb();
            zero.f.remove(Figure.CAPACITY);
            Diagnosis without = zero.climb();
            assertThat(withZero.evidence()).isEqualTo(without.evidence());
            assertThat(withZero.cause()).isEqualTo(without.cause());
            assertThat(withZero.ranked()).isEqualTo(without.ranked());
            assertThat(withZero.shortfall()).isEqualTo(without.shortfall());
            assertThat(withZero.assumption()).isEqualTo(without.assumption())
                    .contains("on a card of unknown size a CUDA context and the libraries typically take "
                            + "512.00 MiB and at most 2.00 GiB");
        }
    }

    @Nested
    @DisplayName("rung 2 without a process list, and rung 4, say what they found")
    class Sentences {
        @Test
        @DisplayName("a card exactly filled by free and PyTorch's bytes leaves 0 bytes to anyone else")
        void noGap() {
            R r = card(20480L, 480L, 512L).put(Figure.RESERVED_BUT_UNALLOCATED, 0L).put(Figure.RESERVED, 20000L);
            r.family = Family.RESERVED_IN_TOTAL;
            assertThat(rung(r.climb(), 2)).isEqualTo("2. Other processes: 0.00 GiB ± 0.01 GiB of the card is neither free nor "
                    + "PyTorch's; a context, the libraries and a desktop take up to 2.30 GiB on this card: nothing "
                    + "points at another holder.");
        }

        @ParameterizedTest(name = "free {0} MiB, reserved {1} MiB -> {2}")
        @CsvSource(delimiter = '|', textBlock = """
                0   | 19000 | 2. Other processes: 1.45 GiB ± 0.01 GiB of the card is neither free nor PyTorch's;
                100 | 0     | 2. Other processes: 19.90 GiB ± 0.01 GiB of the card is neither free nor PyTorch's;
                """)
        @DisplayName("0 bytes free or 0 bytes reserved are figures: the gap is weighed")
        void zeroFreeOrReserved(long free, long reserved, String start) {
            R r = card(20480L, free, 512L).put(Figure.RESERVED_BUT_UNALLOCATED, 0L).put(Figure.RESERVED, reserved);
            r.family = Family.RESERVED_IN_TOTAL;
            assertThat(rung(r.climb(), 2)).startsWith(start);
        }

        @ParameterizedTest(name = "reserved {0} MiB, distributed {1} -> NCCL named as likely: {2}")
        @CsvSource({"22900, true, true", "22900, false, false", "23000, true, false"})
        @DisplayName("a large gap in a distributed run says NCCL's buffers are as likely as a co-tenant")
        void distributed(long reserved, boolean distributed, boolean said) {
            R r = card(25600L, 100L, 512L).put(Figure.RESERVED_BUT_UNALLOCATED, 0L).put(Figure.RESERVED, reserved);
            r.family = Family.RESERVED_IN_TOTAL;
            if (distributed) r.clues.add(Clue.DISTRIBUTED);
            assertThat(rung(r.climb(), 2).endsWith(" The paste shows a distributed run, so NCCL's buffers in this "
                    + "process are as likely as a co-tenant.")).as(rung(r.climb(), 2)).isEqualTo(said);
        }

        @ParameterizedTest(name = "tried {0}, pools {1}, free {2} -> {3}")
        @CsvSource(delimiter = '|', textBlock = """
                512  | 600  | 1   | kept reserved while their graphs live and unusable for ordinary tensors.
                4096 | 1024 | 1   | unusable for ordinary tensors; too little to explain the shortfall.
                512  | 500  | 100 | unusable for ordinary tensors; too little to explain the shortfall.
                """)
        @DisplayName("pools that are large and would cover the request end the sentence; others are too little")
        void pools(long tried, long pools, long free, String end) {
            Diagnosis d = card(20480L, free, tried).put(Figure.RESERVED_BUT_UNALLOCATED, 0L)
                    .put(Figure.OTHER_PROCESSES, 0L).put(Figure.PRIVATE_POOLS, pools).climb();
            assertThat(rung(d, 4)).endsWith(end);
        }

        @Test
        @DisplayName("a mention of CUDA graphs names them only where the format cannot show the pools")
        void graphWords() {
            R shown = card(20480L, 1L, 512L).put(Figure.RESERVED_BUT_UNALLOCATED, 0L).put(Figure.OTHER_PROCESSES, 0L)
                    .put(Figure.PRIVATE_POOLS, 0L);
            shown.clues.add(Clue.CUDA_GRAPHS);
            Diagnosis d = shown.climb();
            assertThat(d.cause()).as(all(d)).isEqualTo(Cause.FULL_OR_DRIVER_RESERVE);
            assertThat(d.evidence()).contains("4. Graph pools: no memory cached in private pools.",
                    "5. cuDNN: the paste shows no convolution.");
        }
    }

    @Nested
    @DisplayName("the card had room: the limit was this process's own")
    class OwnLimit {
        @ParameterizedTest(name = "allowed {0} MiB")
        @CsvSource(delimiter = '|', textBlock = """
                8192 | MEMORY_FRACTION | this process's memory fraction allows only 8.00 GiB, and PyTorch holds 7.81 GiB of it: the 512.00 MiB asked does not fit under that cap; the cap was hit, not the card.
                0    | MEMORY_FRACTION | this process's memory fraction allows only 0 bytes, and PyTorch holds 7.81 GiB of it: the 512.00 MiB asked does not fit under that cap; the cap was hit, not the card.
                8400 | MEMORY_FRACTION | this process's memory fraction allows only 8.20 GiB, and PyTorch holds 7.81 GiB of it: the 512.00 MiB asked does not fit under that cap;
                8580 | MEMORY_FRACTION | the 512.00 MiB asked reaches the cap within the kit's margin of 85.80 MiB
                8700 | ROOM_ON_CARD    | a memory fraction allows 8.50 GiB, yet PyTorch's 7.81 GiB plus the 512.00 MiB asked stay under it;
                     | ROOM_ON_CARD    | the message shows no memory fraction, but some 2.x releases leave its 'allowed' figure out
                """)
        @DisplayName("a memory fraction's 'allowed' figure is named, 0 bytes included; it is the finding when reserved plus the request reach it")
        void allowed(Long allowedMib, Finding finding, String words) {
            Diagnosis d = card(20480L, 4096L, 512L).put(Figure.RESERVED, 8000L).put(Figure.ALLOWED, allowedMib)
                    .climb();
            assertThat(d.cause()).isEqualTo(Cause.FULL_OR_DRIVER_RESERVE);
            assertThat(d.finding()).isEqualTo(finding);
            assertThat(last(d)).startsWith("6. The card itself had room: 4.00 GiB free for 512.00 MiB; ").contains(words);
        }

        @Test
        @DisplayName("a capture under way is still named when the card had room")
        void captureWithRoom() {
            R r = card(20480L, 4096L, 512L).put(Figure.RESERVED, 8000L);
            r.clues.add(Clue.GRAPH_CAPTURE);
            Diagnosis d = r.climb();
            assertThat(d.cause()).isEqualTo(Cause.CUDA_GRAPH_POOLS);
            assertThat(d.evidence()).hasSize(3);
            assertThat(d.evidence().get(0)).startsWith("6. The card itself had room: ");
            assertThat(d.evidence().get(1)).startsWith("4. Graph capture: ");
            assertThat(last(d)).isEqualTo("Decision: CUDA_GRAPH_POOLS, named by what failed.");
        }
    }
}
