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
 * The ladder's rules on the edges of their thresholds, figures in MiB on a 20480 MiB card with
 * 1 MiB free unless the row says otherwise. A blank cell is a figure the message lacked.
 */
@DisplayName("The ladder picks the first step whose test holds")
class LadderTest {
    private static final long MiB = 1L << 20;

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
        # case                                   | tried | unalloc | self  | reserved | others | private | clues       | cause
        unallocated equals the request            | 512   | 512     | 19900 | 19000    | 0      | 0       |             | FRAGMENTATION
        unallocated one MiB short, small           | 512   | 511     | 19900 | 19000    | 0      | 0       |             | FULL_OR_DRIVER_RESERVE
        unallocated 5% of the card + free cover it | 1025  | 1024    | 19900 | 19000    | 0      | 0       |             | FRAGMENTATION
        ... and one MiB more does not              | 1026  | 1024    | 19900 | 19000    | 0      | 0       |             | FULL_OR_DRIVER_RESERVE
        a co-tenant with 5% of the card            | 512   | 0       | 18000 | 17500    | 1024   | 0       |             | OTHER_PROCESSES
        a co-tenant just under 5%                  | 512   | 0       | 18000 | 17500    | 1023   | 0       |             | FULL_OR_DRIVER_RESERVE
        fragmentation outranks a co-tenant         | 512   | 600     | 18000 | 17500    | 4096   | 0       |             | FRAGMENTATION
        1 GiB outside PyTorch in this process      | 512   | 0       | 20024 | 19000    | 0      | 0       |             | NCCL_BUFFERS
        just under 1 GiB outside PyTorch           | 512   | 0       | 20023 | 19000    | 0      | 0       | DISTRIBUTED | FULL_OR_DRIVER_RESERVE
        private pools larger than the request      | 512   | 0       | 19900 | 19000    | 0      | 600     |             | CUDA_GRAPH_POOLS
        small private pools, a convolution         | 512   | 0       | 19900 | 19000    | 0      | 100     | CUDNN       | CUDNN_WORKSPACE
        graph pools outrank cuDNN                  | 512   | 0       | 19900 | 19000    | 0      | 600     | CUDNN       | CUDA_GRAPH_POOLS
        a co-tenant outranks 1 GiB outside PyTorch | 512   | 0       | 20024 | 19000    | 1024   | 0       |             | OTHER_PROCESSES
        1 GiB outside PyTorch outranks graph pools | 512   | 0       | 20024 | 19000    | 0      | 600     |             | NCCL_BUFFERS
        a co-tenant outranks graph pools           | 512   | 0       | 18000 | 17500    | 1024   | 600     |             | OTHER_PROCESSES
        nothing: a full card                       | 512   | 0       | 19900 | 19000    | 0      | 0       |             | FULL_OR_DRIVER_RESERVE
        a request larger than the card             | 40960 | 50000   | 19900 | 19000    | 0      | 0       |             | FULL_OR_DRIVER_RESERVE
        no unallocated figure, graphs in the paste | 512   |         |       | 19000    |        |         | CUDA_GRAPHS | CUDA_GRAPH_POOLS
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
        assertThat(rungs(d)).as("the rungs climbed, in the ladder's order, up to the one that held\n"
                + String.join("\n", d.evidence())).isEqualTo(climbedTo(tried > 20480 ? 0 : cause.step()));
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

    /** The ladder's order (its class comment): every rung from 1 up to {@code step}; none for 0. */
    static List<Integer> climbedTo(int step) {
        List<Integer> out = new ArrayList<>();
        for (int i = 1; i <= step; i++) out.add(i);
        return out;
    }

    private static void put(Map<Figure, Long> f, Figure key, Long mib) {
        if (mib != null) f.put(key, mib * MiB);
    }
}
