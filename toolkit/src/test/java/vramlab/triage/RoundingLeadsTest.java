package vramlab.triage;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * PyTorch prints every size with two decimals (format_size, c10/cuda/CUDACachingAllocator.cpp),
 * so a figure read back is within half a hundredth of its unit (about 5 MiB for GiB figures).
 * Where a rung's test, the near-full margin or a memory fraction's margin falls inside that
 * error, the report keeps the verdict the printed figures give and says it is a lead, not a
 * finding; figures clear of the error get no such sentence. The messages are written for this
 * test in 2.x's wording.
 */
class RoundingLeadsTest {
    private static final String LEAD = "a lead, not a finding";

    /** A 2.4+ message with these figures (RankingLeadTest reads the same messages). */
    static String message(String tried, String cap, String free, String self, String alloc,
                                  String pools, String unalloc) {
        return "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate " + tried + ". GPU 0 has a total "
                + "capacity of " + cap + " of which " + free + " is free. Including non-PyTorch memory, this process "
                + "has " + self + " memory in use. Of the allocated memory " + alloc + " is allocated by PyTorch, "
                + (pools == null ? "" : "with " + pools + " allocated in private pools (e.g., CUDA Graphs), ")
                + "and " + unalloc + " is reserved by PyTorch but unallocated.\n";
    }

    private static String rung(Diagnosis d, String start) {
        return d.evidence().stream().filter(e -> e.startsWith(start)).findFirst().orElseThrow();
    }

    @Test
    @DisplayName("graph pools: 1019 MiB for a 1.00 GiB request is within the rounding (kept, marked); 1010 MiB is not")
    void graphPools() {
        // 20 GiB card, 1 MiB free; 1.00 GiB is 1024 MiB give or take 5.12 MiB
        Diagnosis near = Triage.of(message("1.00 GiB", "20.00 GiB", "1.00 MiB", "19.99 GiB", "18.50 GiB",
                "1019.00 MiB", "10.00 MiB"));
        assertThat(near.cause()).as(near.text()).isEqualTo(Cause.CUDA_GRAPH_POOLS);
        assertThat(rung(near, "4. Graph pools: ")).contains("within that rounding the bytes may be under the request"
                + " and the kit's line of 5% of the card, and they may fall short of the request: " + LEAD);
        assertThat(near.evidence()).anySatisfy(e -> assertThat(e).startsWith("Decision: CUDA_GRAPH_POOLS")
                .endsWith("Its rung is within the rounding of the message's figures: check it before acting on it."));
        Diagnosis clear = Triage.of(message("1.00 GiB", "20.00 GiB", "1.00 MiB", "19.99 GiB", "18.50 GiB",
                "1010.00 MiB", "10.00 MiB"));
        assertThat(clear.cause()).as(clear.text()).isNotEqualTo(Cause.CUDA_GRAPH_POOLS);
        assertThat(rung(clear, "4. Graph pools: ")).endsWith("too little to explain the shortfall.");
    }

    @Test
    @DisplayName("fragmentation: live tensors plus the request within the rounding of the card's total are a lead")
    void liveTensorsPlusRequest() {
        // 18.60 GiB live + 1.40 GiB asked = 20.00 GiB on a 20.00 GiB card, either side within 15 MiB;
        // 960 MiB of holes and 473.60 MiB free make the 1.40 GiB
        Diagnosis near = Triage.of(message("1.40 GiB", "20.00 GiB", "473.60 MiB", "19.54 GiB", "18.60 GiB",
                null, "960.00 MiB"));
        assertThat(near.cause()).as(near.text()).isEqualTo(Cause.FRAGMENTATION);
        assertThat(rung(near, "1. Fragmentation: ")).endsWith(" of live tensors plus the request come within the"
                + " rounding of the 20.00 GiB card: whether any arrangement of the cache fits them is " + LEAD + ".");
        // 0.05 GiB more of live tensors is clear of the rounding: no arrangement fits
        Diagnosis over = Triage.of(message("1.40 GiB", "20.00 GiB", "473.60 MiB", "19.59 GiB", "18.65 GiB",
                null, "960.00 MiB"));
        assertThat(over.cause()).as(over.text()).isNotEqualTo(Cause.FRAGMENTATION);
        assertThat(rung(over, "1. Fragmentation: ")).endsWith("no arrangement of the cache makes it fit.");
    }

    @Test
    @DisplayName("near-full margin: 1.06 GiB free for 1.00 GiB asked is 61 MiB give or take 10, against 64 MiB: a lead")
    void nearFullMargin() {
        String near = message("1.00 GiB", "5.80 GiB", "1.06 GiB", "4.60 GiB", "4.00 GiB", null, "100.00 MiB");
        Diagnosis d = Triage.of(near);
        assertThat(d.evidence()).anySatisfy(e -> assertThat(e).startsWith("Shortfall: ").endsWith("within that "
                + "rounding the free memory may lie within the kit's margin of the request or beyond it: " + LEAD + "."));
        Diagnosis room = Triage.of(near.replace("1.06 GiB is free", "1.07 GiB is free"));
        assertThat(room.finding()).as(room.text()).isEqualTo(Finding.ROOM_ON_CARD);
        assertThat(room.evidence().get(room.evidence().size() - 1)).startsWith("6. The card itself had room")
                .endsWith("the kit's margin of the request or beyond it: " + LEAD + ".");
        for (String free : new String[] {"1.02 GiB", "1.10 GiB"}) {
            Diagnosis clear = Triage.of(near.replace("1.06 GiB is free", free + " is free"));
            assertThat(String.join("\n", clear.evidence())).as(free).doesNotContain(LEAD);
        }
    }

    @Test
    @DisplayName("a smaller workload: live tensors plus free within the rounding of the request keep their verdict, as a lead")
    void liveTensorsEnoughAlone() {
        // 10.50 GiB live + 1.50 GiB free = 12.00 GiB asked, give or take 15 MiB: "enough alone" as printed
        String near = message("12.00 GiB", "23.65 GiB", "1.50 GiB", "22.13 GiB", "10.50 GiB", null, "11.20 GiB");
        Diagnosis d = Triage.of(near);
        assertThat(d.ranked()).filteredOn(c -> c.cause() == Cause.FULL_OR_DRIVER_RESERVE).singleElement()
                .satisfies(c -> assertThat(c.sufficient()).isTrue())
                .satisfies(c -> assertThat(c.evidence()).endsWith(" is " + LEAD + "."));
        assertThat(rung(d, "6. A smaller workload: ")).isEqualTo("6. A smaller workload: the 10.50 GiB of live"
                + " tensors plus 1.50 GiB free make 12.00 GiB ± 0.01 GiB, within the rounding of the message's figures"
                + " of the 12.00 GiB asked: whether freeing the live tensors alone makes room for it (the ranking's"
                + " \"enough alone\") is " + LEAD + ".");
        // 0.05 GiB fewer live tensors is clear of the rounding: not enough alone, and no lead
        Diagnosis clear = Triage.of(near.replace("10.50 GiB is allocated", "10.45 GiB is allocated"));
        assertThat(clear.ranked()).filteredOn(c -> c.cause() == Cause.FULL_OR_DRIVER_RESERVE).singleElement()
                .satisfies(c -> assertThat(c.sufficient()).isFalse());
        assertThat(clear.evidence()).noneSatisfy(e -> assertThat(e).startsWith("6. A smaller workload"));
    }

    /** FRACTION_2X's card and cap (19.79 GiB allowed, a margin of 1%: 202.65 MiB), PyTorch's bytes moved to the line. */
    @Test
    @DisplayName("memory fraction: reserved plus the request within the rounding of the cap's margin is a lead")
    void fractionMargin() {
        String atLine = TriageFindingsTest.FRACTION_2X.replace("19.10 GiB is allocated", "17.09 GiB is allocated");
        Diagnosis d = Triage.of(atLine);
        assertThat(d.finding()).as(d.text()).isEqualTo(Finding.ROOM_ON_CARD);
        assertThat(d.evidence().get(d.evidence().size() - 1)).contains("; within the rounding of the message's "
                + "figures the cap may be reached or not: " + LEAD + ".");
        Diagnosis spent = Triage.of(TriageFindingsTest.FRACTION_2X);
        assertThat(spent.finding()).isEqualTo(Finding.MEMORY_FRACTION);
        assertThat(String.join("\n", spent.evidence())).doesNotContain(LEAD);
        Diagnosis under = Triage.of(TriageFindingsTest.FRACTION_2X.replace("19.10 GiB is allocated", "16.90 GiB is allocated"));
        assertThat(under.finding()).isEqualTo(Finding.ROOM_ON_CARD);
        assertThat(String.join("\n", under.evidence())).doesNotContain(LEAD);
    }
}
