package vramlab.triage;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The ladder's rules on the edges of their thresholds (the kit's rules of thumb: holes of 3% of
 * what PyTorch reserved, a co-tenant of 5% of the card, 1 GiB outside PyTorch, a factor of two
 * for a tie), figures in MiB on a 20480 MiB card with 1 MiB free. A blank cell is a figure the
 * message lacked; a process line, when the row has one, is pid 4242.
 */
@DisplayName("The ladder names the cause that gives back the most; a tie goes to the earlier step")
class LadderTest {
    private static final long MiB = 1L << 20;

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
        # case                                          | tried | unalloc | self  | reserved | others | private | clues       | cause
        holes of 3% of reserved that cover the request   | 512   | 570     | 19900 | 19000    | 0      | 0       |             | FRAGMENTATION
        ... one MiB less is ordinary slack: a full card   | 512   | 569     | 19900 | 19000    | 0      | 0       |             | FULL_OR_DRIVER_RESERVE
        holes and free together cover the request        | 1025  | 1024    | 19900 | 19000    | 0      | 0       |             | FRAGMENTATION
        ... and 15 MiB more, past rounding, do not       | 1040  | 1024    | 19900 | 19000    | 0      | 0       |             | FULL_OR_DRIVER_RESERVE
        a co-tenant with 5% of the card                  | 512   | 0       | 18000 | 17500    | 1024   | 0       |             | OTHER_PROCESSES
        a co-tenant just under 5%                        | 512   | 0       | 18000 | 17500    | 1023   | 0       |             | FULL_OR_DRIVER_RESERVE
        holes and a co-tenant alike: the ladder's order  | 512   | 2048    | 18000 | 17500    | 2048   | 0       |             | FRAGMENTATION
        a co-tenant exactly twice the holes still ties   | 512   | 1000    | 18000 | 17500    | 2000   | 0       |             | FRAGMENTATION
        a co-tenant more than twice the holes outranks   | 512   | 1000    | 18000 | 17500    | 2001   | 0       |             | OTHER_PROCESSES
        a lone line holding what PyTorch reserved is us  | 512   | 0       |       | 19000    | 19500  | 0       |             | FULL_OR_DRIVER_RESERVE
        a line smaller than PyTorch's share is a tenant  | 512   | 0       |       | 10000    | 9000   | 0       |             | OTHER_PROCESSES
        1 GiB outside PyTorch, no distributed run         | 512   | 0       | 20024 | 19000    | 0      | 0       |             | OUTSIDE_ALLOCATOR
        1 GiB outside PyTorch in a distributed run       | 512   | 0       | 20024 | 19000    | 0      | 0       | DISTRIBUTED | NCCL_BUFFERS
        under 1 GiB outside PyTorch, past rounding       | 512   | 0       | 20000 | 19000    | 0      | 0       | DISTRIBUTED | FULL_OR_DRIVER_RESERVE
        private pools larger than the request            | 512   | 0       | 19900 | 19000    | 0      | 600     |             | CUDA_GRAPH_POOLS
        small private pools, a convolution               | 512   | 0       | 19900 | 19000    | 0      | 100     | CUDNN       | CUDNN_WORKSPACE
        graph pools outrank cuDNN                        | 512   | 0       | 19900 | 19000    | 0      | 600     | CUDNN       | CUDA_GRAPH_POOLS
        a capture in progress outranks the figures       | 512   | 2048    | 19900 | 19000    | 0      | 0       | GRAPH_CAPTURE | CUDA_GRAPH_POOLS
        a co-tenant ties 1 GiB outside PyTorch: step 2   | 512   | 0       | 20024 | 19000    | 1024   | 0       |             | OTHER_PROCESSES
        1 GiB outside PyTorch ties graph pools: step 3   | 512   | 0       | 20024 | 19000    | 0      | 600     |             | OUTSIDE_ALLOCATOR
        ... and in a distributed run, NCCL's              | 512   | 0       | 20024 | 19000    | 0      | 600     | DISTRIBUTED | NCCL_BUFFERS
        a co-tenant ties graph pools: step 2             | 512   | 0       | 18000 | 17500    | 1024   | 600     |             | OTHER_PROCESSES
        nothing: a full card                             | 512   | 0       | 19900 | 19000    | 0      | 0       |             | FULL_OR_DRIVER_RESERVE
        a request larger than the card                   | 40960 | 50000   | 19900 | 19000    | 0      | 0       |             | FULL_OR_DRIVER_RESERVE
        no unallocated figure, graphs in the paste       | 512   |         |       | 19000    |        |         | CUDA_GRAPHS | CUDA_GRAPH_POOLS
        """)
    void ladder(String name, long tried, Long unalloc, Long self, Long reserved, Long others,
                Long priv, String clue, Cause cause) {
        Map<Figure, Long> f = new EnumMap<>(Figure.class);
        f.put(Figure.CAPACITY, 20480 * MiB);
        f.put(Figure.FREE, MiB);
        f.put(Figure.REQUESTED, tried * MiB);
        put(f, Figure.RESERVED_BUT_UNALLOCATED, unalloc);
        put(f, Figure.THIS_PROCESS, self);
        put(f, Figure.RESERVED, reserved);
        put(f, Figure.OTHER_PROCESSES, others);
        put(f, Figure.PRIVATE_POOLS, priv);
        Map<Integer, Long> procs = new LinkedHashMap<>();
        if (others != null && others > 0) procs.put(4242, others * MiB);
        Set<Clue> clues = clue == null ? EnumSet.noneOf(Clue.class) : EnumSet.of(Clue.valueOf(clue));
        Reading r = new Reading(Family.SENTENCE, "CUDA", "", f, procs, clues, List.of(), List.of());
        Diagnosis d = Ladder.climb(r, List.of());
        assertThat(d.cause()).as(String.join("\n", d.evidence())).isEqualTo(cause);
        List<Integer> rungs = rungs(d);
        assertThat(rungs).as("the rungs' sentences, in the ladder's order\n" + String.join("\n", d.evidence()))
                .isSorted();
        if (tried <= 20480) {
            assertThat(rungs).as("every rung is measured before the ladder decides\n"
                    + String.join("\n", d.evidence())).startsWith(1, 2, 3, 4);
        }
        assertThat(d.evidence()).last().asString().as("the last sentence says what was decided").startsWith(
                cause == Cause.FULL_OR_DRIVER_RESERVE ? tried > 20480 ? "The request alone" : "6. Otherwise"
                        : "Decision: " + cause.name());
    }

    /**
     * The rungs an evidence list shows, by the number each sentence starts with ("3. NCCL: ...");
     * a sentence without one (the request bigger than the card) shows no rung.
     */
    static List<Integer> rungs(Diagnosis d) {
        List<Integer> out = new ArrayList<>();
        for (String e : d.evidence()) {
            Matcher m = RUNG.matcher(e);
            if (m.find()) out.add(Integer.parseInt(m.group(1)));
        }
        return out;
    }

    static final Pattern RUNG = Pattern.compile("^(\\d)\\. ");

    // cudaMemGetInfo's total leaves the reserve out (NVML total vs cuDeviceTotalMem, ollama PR
    // #18201), so the reserve is the nominal size less the total, and total - free - processes
    // is no longer the reserve: it is zero when the message lists every process.
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
        # case                               | total MiB | free | self  | reserved | others | context words  | reserve words    | unlisted words
        a 24 GiB card 700 MiB short          | 23876     | 10   | 23866 | 23366    | 0      | 0.49 GiB ± 0.01 GiB | about 700.00 MiB |
        an 80 GiB card, 1 GiB unlisted       | 81050     | 10   | 78016 | 77500    | 2000   | 0.50 GiB ± 0.01 GiB | about 870.00 MiB | 1.00 GiB ± 0.02 GiB of the total is held by no process
        """)
    @DisplayName("a full card: context = this process beyond PyTorch's reserved; reserve = nominal - total")
    void fullCardEstimates(String name, long total, long free, long self, long reserved, long others,
                           String context, String reserve, String unlisted) {
        Map<Figure, Long> f = new EnumMap<>(Figure.class);
        f.put(Figure.CAPACITY, total * MiB);
        f.put(Figure.FREE, free * MiB);
        f.put(Figure.REQUESTED, 512 * MiB);
        f.put(Figure.RESERVED_BUT_UNALLOCATED, 0L);
        f.put(Figure.ALLOCATED_BY_PYTORCH, reserved * MiB);
        f.put(Figure.THIS_PROCESS, self * MiB);
        f.put(Figure.RESERVED, reserved * MiB);
        f.put(Figure.OTHER_PROCESSES, others * MiB);
        f.put(Figure.PRIVATE_POOLS, 0L);
        Map<Integer, Long> procs = new LinkedHashMap<>();
        if (others > 0) procs.put(4242, others * MiB);
        Reading r = new Reading(Family.SENTENCE, "CUDA", "", f, procs, EnumSet.noneOf(Clue.class),
                List.of(), List.of());
        Diagnosis d = Ladder.climb(r, List.of());
        String last = d.evidence().get(d.evidence().size() - 1);
        assertThat(d.cause()).as(last).isEqualTo(Cause.FULL_OR_DRIVER_RESERVE);
        assertThat(last).contains(context + " beyond what PyTorch reserved", "reserve is " + reserve);
        if (unlisted == null) assertThat(last).doesNotContain("held by no process");
        else assertThat(last).contains(unlisted);
    }

    private static void put(Map<Figure, Long> f, Figure key, Long mib) {
        if (mib != null) f.put(key, mib * MiB);
    }
}
