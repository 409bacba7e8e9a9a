package vramlab.triage;

import static org.assertj.core.api.Assertions.assertThat;
import static vramlab.units.Bytes.GiB;
import static vramlab.units.Bytes.MiB;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * A memory fraction's cap where the card was short as well: PyTorch's alloc_block refuses a segment
 * once {@code total_allocated_memory + size > allowed_memory_maximum}, before it asks the device
 * (c10/cuda/CUDACachingAllocator.cpp @001074d), so reserved plus the request past the printed
 * "X allowed" names the cap whatever the card had free; bytes outside PyTorch's reserve (other
 * processes) then make no room, and a private pool's cache must cover the cap's excess too. Also:
 * 2.4+'s "allocated by PyTorch" includes the private pools' free blocks, which are no live tensors.
 * The messages are written for this test in 2.x's wording.
 */
class CapWhileShortTest {
    private static final String LEAD = "a lead, not a finding";

    private static String message(String free, String others, String allowed, String alloc, String pools) {
        return "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of "
                + "24.00 GiB of which " + free + " is free. " + (others == null ? "" : "Process 4242 has " + others
                + " memory in use. ") + "Including non-PyTorch memory, this process has 14.30 GiB memory in use. "
                + (allowed == null ? "" : allowed + " allowed; ") + "Of the allocated memory " + alloc
                + " is allocated by PyTorch, " + (pools == null ? "" : "with " + pools
                + " allocated in private pools (e.g., CUDA Graphs), ") + "and 300.00 MiB is reserved by PyTorch but unallocated.\n";
    }

    private static Candidate row(Diagnosis d, Cause c) {
        return d.ranked().stream().filter(x -> x.cause() == c).findFirst().orElseThrow();
    }

    @Test
    @DisplayName("13.79 GiB reserved + 2.00 GiB asked past 15.00 GiB allowed, 1.50 GiB free: the cap is named, not a full card")
    void capNamedWhileCardShort() {
        Diagnosis d = Triage.of(message("1.50 GiB", null, "15.00 GiB", "13.50 GiB", null));
        assertThat(d.cause()).as(d.text()).isEqualTo(Cause.FULL_OR_DRIVER_RESERVE);
        assertThat(d.finding()).as(d.text()).isEqualTo(Finding.MEMORY_FRACTION);
        assertThat(d.evidence()).anyMatch(s -> s.startsWith("6. The memory fraction's cap refused the request"
                + " before the card was asked: PyTorch holds 13.79 GiB ± 0.01 GiB reserved"));
        assertThat(d.ranked().get(0).cause()).isEqualTo(Cause.FULL_OR_DRIVER_RESERVE);
        assertThat(d.json()).contains("\"finding\":\"MEMORY_FRACTION\"");
        // no cap printed: the same figures are a full card
        assertThat(Triage.of(message("1.50 GiB", null, null, "13.50 GiB", null)).finding()).isNull();
    }

    @Test
    @DisplayName("the cap refused the request: the ranking measures against its 0.79 GiB excess, not the card's 0.50 GiB shortfall")
    void rankingMeasuresTheCapsExcess() {
        Diagnosis d = Triage.of(message("1.50 GiB", "4.00 GiB", "15.00 GiB", "13.50 GiB", null));
        long excess = 13 * GiB + GiB / 2 + 300 * MiB + 2 * GiB - 15 * GiB;
        assertThat(d.text()).as(d.text()).contains("\nEach cause against what refused the request, the memory fraction's cap:"
                + " 0.79 GiB ± 0.02 GiB past the 15.00 GiB allowed (the card was 0.50 GiB ± 0.01 GiB short too):\n");
        assertThat(row(d, Cause.FRAGMENTATION).share()).isEqualTo((int) (300 * MiB * 100 / excess));
        assertThat(d.json()).contains("\"shortfall\":" + GiB / 2 + ",").endsWith(",\"shareOfBytes\":" + excess + "}");
        // no cap printed: the card's shortfall, as before
        Diagnosis card = Triage.of(message("1.50 GiB", "4.00 GiB", null, "13.50 GiB", null));
        assertThat(card.text()).contains("\nEach cause against the shortfall of 0.50 GiB ± 0.01 GiB:\n");
        assertThat(row(card, Cause.FRAGMENTATION).share()).isEqualTo(58);
        assertThat(card.json()).endsWith(",\"shareOfBytes\":" + GiB / 2 + "}");
    }

    @Test
    @DisplayName("the card had room and the cap refused the request: the ranking measures against the cap's 0.79 GiB excess too")
    void cardHadRoomMeasuresTheCapsExcess() {
        Diagnosis d = Triage.of(message("3.00 GiB", null, "15.00 GiB", "13.50 GiB", null));
        long excess = 13 * GiB + GiB / 2 + 300 * MiB + 2 * GiB - 15 * GiB;
        assertThat(d.finding()).as(d.text()).isEqualTo(Finding.MEMORY_FRACTION);
        assertThat(d.text()).contains("\nEach cause against what refused the request, the memory fraction's cap:"
                + " 0.79 GiB ± 0.02 GiB past the 15.00 GiB allowed (the card had room: 3.00 GiB free for the 2.00 GiB"
                + " asked):\n  FULL_OR_DRIVER_RESERVE 100%  13.50 GiB ");
        assertThat(row(d, Cause.FULL_OR_DRIVER_RESERVE).share()).isEqualTo(100);
        assertThat(d.json()).contains("\"shortfall\":null,").endsWith(",\"shareOfBytes\":" + excess + "}");
        // reached within the kit's margin, not proven past the cap: no excess to measure, as before
        Diagnosis near = Triage.of(message("3.00 GiB", null, "15.85 GiB", "13.50 GiB", null));
        assertThat(near.finding()).as(near.text()).isEqualTo(Finding.MEMORY_FRACTION);
        assertThat(near.text()).contains("\nEach cause against the shortfall:\n  FULL_OR_DRIVER_RESERVE    -  ");
        assertThat(near.json()).endsWith(",\"shareOfBytes\":null}");
    }

    @Test
    @DisplayName("a CUDA-graph capture under way and the cap proven to refuse: the cap leads, the capture is the runner-up")
    void provenCapLeadsANamedSubsystem() {
        String capture = "  File \"train.py\", line 88, in step\n    with torch.cuda.graph(g):\n";
        for (String free : new String[] {"1.50 GiB", "3.00 GiB"}) {   // the card short too, and the card with room
            Diagnosis d = Triage.of(capture + message(free, null, "15.00 GiB", "13.50 GiB", null));
            assertThat(d.finding()).as(d.text()).isEqualTo(Finding.MEMORY_FRACTION);
            assertThat(d.ranked().get(0).cause()).isEqualTo(Cause.FULL_OR_DRIVER_RESERVE);
            assertThat(d.runnerUp()).isEqualTo(Cause.CUDA_GRAPH_POOLS);
            assertThat(d.evidence()).anyMatch(s -> s.startsWith("4. Graph capture:"))
                    .last().asString().endsWith("the cap leads, and CUDA_GRAPH_POOLS is the runner-up.");
        }
        // the cap within the rounding (15.79 GiB ± 0.01 GiB against 15.79 GiB): the words still name the capture
        Diagnosis lead = Triage.of(capture + message("1.50 GiB", null, "15.79 GiB", "13.50 GiB", null));
        assertThat(lead.cause()).as(lead.text()).isEqualTo(Cause.CUDA_GRAPH_POOLS);
        assertThat(lead.finding()).isNull();
        // no cap printed: the capture, as before
        assertThat(Triage.of(capture + message("1.50 GiB", null, null, "13.50 GiB", null)).cause()).isEqualTo(Cause.CUDA_GRAPH_POOLS);
    }

    @Test
    @DisplayName("the headline says the card was short too where it was, and 'spent, not the card' where the card had room")
    void headlineTrueEitherWay() {
        Diagnosis d = Triage.of(message("1.50 GiB", null, "15.00 GiB", "13.50 GiB", null));
        assertThat(d.text()).contains("filed under FULL_OR_DRIVER_RESERVE): this process's memory fraction is spent, and its"
                + " cap refused the request before the card was asked (the card was short too): ").doesNotContain("not the card");
        Diagnosis room = Triage.of(message("3.00 GiB", null, "15.00 GiB", "13.50 GiB", null));
        assertThat(room.finding()).as(room.text()).isEqualTo(Finding.MEMORY_FRACTION);
        assertThat(room.text()).contains("filed under FULL_OR_DRIVER_RESERVE): this process's memory fraction is spent, not the card: ");
    }

    @Test
    @DisplayName("'0 bytes allowed' (a fraction of 0) is a cap that refuses every segment: named whether the card was short or had room")
    void zeroAllowedIsACap() {
        // PyTorch prints allowed_info only when set_fraction; a fraction of 0 is valid and caps at 0 bytes
        Diagnosis shortToo = Triage.of(message("1.50 GiB", null, "0 bytes", "13.50 GiB", null));
        Diagnosis room = Triage.of(message("3.00 GiB", null, "0 bytes", "13.50 GiB", null));
        Account a = Account.of(shortToo.reading());
        assertThat(a.hasCap()).isTrue();
        assertThat(a.cardText()).isEqualTo("the 0 bytes this process's memory fraction allows");
        assertThat(FractionCap.of(a).binds()).isTrue();
        // before, the card-short case said FULL (the cap ignored) while the room case named the fraction
        assertThat(shortToo.finding()).as(shortToo.text()).isEqualTo(Finding.MEMORY_FRACTION);
        assertThat(room.finding()).as(room.text()).isEqualTo(Finding.MEMORY_FRACTION);
        assertThat(Account.of(Triage.of(message("1.50 GiB", null, null, "13.50 GiB", null)).reading()).hasCap()).isFalse();
    }

    @Test
    @DisplayName("a 4.00 GiB co-tenant under a cap that binds: not enough alone, and the cap is named")
    void otherProcessesMakeNoRoomUnderTheCap() {
        Diagnosis d = Triage.of(message("1.50 GiB", "4.00 GiB", "15.00 GiB", "13.50 GiB", null));
        assertThat(d.finding()).as(d.text()).isEqualTo(Finding.MEMORY_FRACTION);
        assertThat(row(d, Cause.OTHER_PROCESSES).sufficient()).isFalse();
        assertThat(d.evidence()).anyMatch(s -> s.startsWith("2. Other processes:") && s.contains("enough for the 2.00 GiB")
                && s.contains("the memory fraction's cap, not the card, refused the request"));
        assertThat(d.json()).containsPattern("\\{\"cause\":\"OTHER_PROCESSES\",[^{}]*\"enoughAlone\":false");
    }

    @Test
    @DisplayName("15.79 GiB ± 0.01 GiB against 15.78 GiB allowed: the cap is a lead, and so is the co-tenant's fit")
    void capWithinTheRounding() {
        Diagnosis d = Triage.of(message("1.50 GiB", "4.00 GiB", "15.78 GiB", "13.50 GiB", null));
        assertThat(d.cause()).as(d.text()).isEqualTo(Cause.OTHER_PROCESSES);
        assertThat(d.finding()).isNull();
        assertThat(row(d, Cause.OTHER_PROCESSES).lead()).isTrue();
        assertThat(d.evidence()).anyMatch(s -> s.startsWith("6. The memory fraction:") && s.endsWith(LEAD + "."));
        assertThat(d.text()).containsPattern("\n  OTHER_PROCESSES +\\d+% +4\\.00 GiB +enough alone: " + LEAD + "\n");
        // well under the cap: the co-tenant is a finding
        Diagnosis under = Triage.of(message("1.50 GiB", "4.00 GiB", "18.00 GiB", "13.50 GiB", null));
        assertThat(row(under, Cause.OTHER_PROCESSES).lead()).as(under.text()).isFalse();
    }

    @Test
    @DisplayName("1.50 GiB of graph pools fit the card's 0.50 GiB shortfall, not the cap's 1.79 GiB excess")
    void graphPoolsMustCoverTheCapsExcess() {
        Diagnosis d = Triage.of(message("1.50 GiB", null, "14.00 GiB", "13.50 GiB", "1.50 GiB"));
        assertThat(row(d, Cause.CUDA_GRAPH_POOLS).sufficient()).as(d.text()).isFalse();
        assertThat(d.evidence()).anyMatch(s -> s.startsWith("4. Graph pools:") && s.contains("past it as well")
                && s.contains("enough for the card's shortfall of 0.50 GiB ± 0.01 GiB. Under the memory fraction's cap")
                && !s.contains("too little to explain"));
        // 2.00 GiB of pools covers both
        Diagnosis both = Triage.of(message("1.50 GiB", null, "14.00 GiB", "13.50 GiB", "2.00 GiB"));
        assertThat(row(both, Cause.CUDA_GRAPH_POOLS).sufficient()).as(both.text()).isTrue();
    }

    @Test
    @DisplayName("3.51 GiB of this process's non-PyTorch memory under a cap that binds: not enough alone")
    void nonPyTorchMemoryMakesNoRoomUnderTheCap() {
        String m = message("1.50 GiB", null, "15.00 GiB", "13.50 GiB", null).replace("has 14.30 GiB", "has 17.30 GiB");
        Diagnosis d = Triage.of(m);
        assertThat(d.finding()).as(d.text()).isEqualTo(Finding.MEMORY_FRACTION);
        assertThat(row(d, Cause.OUTSIDE_ALLOCATOR).sufficient()).as(d.text()).isFalse();
        assertThat(Triage.of(m.replace("15.00 GiB allowed; ", "")).cause()).isEqualTo(Cause.OUTSIDE_ALLOCATOR);
    }

    @Test
    @DisplayName("1.4 to 2.0's wording, no process lines: the gap beside a context is not enough alone under the cap")
    void gapMakesNoRoomUnderTheCap() {
        String m = "RuntimeError: CUDA out of memory. Tried to allocate 1.00 GiB (GPU 0; 23.69 GiB total capacity; "
                + "5.94 GiB already allocated; 500.00 MiB free; 6.00 GiB allowed; 5.95 GiB reserved in total by PyTorch)";
        Diagnosis d = Triage.of(m);
        assertThat(d.finding()).as(d.text()).isEqualTo(Finding.MEMORY_FRACTION);
        assertThat(row(d, Cause.OTHER_PROCESSES).sufficient()).as(d.text()).isFalse();
        assertThat(Triage.of(m.replace("6.00 GiB allowed; ", "")).cause()).isEqualTo(Cause.OTHER_PROCESSES);
    }

    @Test
    @DisplayName("2.4+: 10.50 GiB allocated by PyTorch with 1.00 GiB in private pools is 9.50 GiB of live tensors")
    void privatePoolsAreNoLiveTensors() {
        Diagnosis d = Triage.of(message("1.50 GiB", null, null, "10.50 GiB", "1.00 GiB"));
        assertThat(row(d, Cause.FULL_OR_DRIVER_RESERVE).bytes()).as(d.text()).isEqualTo(9 * GiB + GiB / 2);
        assertThat(Account.of(d.reading()).liveR().value()).isEqualTo(9 * GiB + GiB / 2);
    }
}
