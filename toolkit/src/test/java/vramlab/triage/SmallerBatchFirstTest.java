package vramlab.triage;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Fragmentation's "smaller batch" rung comes first where the message's own figures put the live
 * tensors plus the request past the card, or past the cap a memory fraction prints ("X allowed",
 * c10/cuda/CUDACachingAllocator.cpp @001074d: allowed_info, printed only when
 * set_per_process_memory_fraction was called); where the rounding of those figures alone could
 * flip that, the rung says so. The messages are written for this test in 2.x's wording.
 */
class SmallerBatchFirstTest {
    private static final String LEAD = "a lead, not a finding";
    private static final String BATCH = "Lower the batch size.";

    private static String message(String tried, String cap, String free, String self, String allowed,
                                  String alloc, String unalloc) {
        return "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate " + tried + ". GPU 0 has a total "
                + "capacity of " + cap + " of which " + free + " is free. Including non-PyTorch memory, this process "
                + "has " + self + " memory in use. " + (allowed == null ? "" : allowed + " allowed; ")
                + "Of the allocated memory " + alloc + " is allocated by PyTorch, and " + unalloc
                + " is reserved by PyTorch but unallocated.\n";
    }

    @Test
    @DisplayName("live tensors plus the request well inside the card: the ladder as FixLadder states it")
    void inside() {
        Diagnosis d = Triage.of(message("1.00 GiB", "20.00 GiB", "200.00 MiB", "19.60 GiB", null, "15.00 GiB",
                "4.00 GiB"));
        assertThat(d.cause()).as(d.text()).isEqualTo(Cause.FRAGMENTATION);
        assertThat(d.fixes()).isEqualTo(Cause.FRAGMENTATION.fixes());
    }

    @Test
    @DisplayName("18.61 GiB live + 1.40 GiB asked on a 20.00 GiB card: past it as printed, within the rounding: first, as a lead")
    void pastAsPrinted() {
        // 20.01 GiB against 20.00 GiB, each figure give or take 5.12 MiB; 930 MiB of holes and 500 MiB
        // free are within the rounding of the 1.40 GiB asked, so fragmentation is decided (as a lead)
        Diagnosis d = Triage.of(message("1.40 GiB", "20.00 GiB", "500.00 MiB", "19.52 GiB", null, "18.61 GiB",
                "930.00 MiB"));
        assertThat(d.cause()).as(d.text()).isEqualTo(Cause.FRAGMENTATION);
        assertThat(d.fixes().get(0)).isEqualTo(BATCH + " First here: the message's 18.61 GiB of live tensors plus"
                + " the 1.40 GiB asked make 20.01 GiB ± 0.01 GiB, more than the 20.00 GiB card as printed; within the"
                + " rounding of the message's figures they may fit or not: " + LEAD + ".");
        assertThat(d.fixes().subList(1, d.fixes().size()))
                .isEqualTo(withoutBatch(Cause.FRAGMENTATION.fixes()));
    }

    @Test
    @DisplayName("18.60 GiB live + 1.40 GiB asked on a 20.00 GiB card: inside it as printed, within the rounding: in place, as a lead")
    void insideAsPrinted() {
        Diagnosis d = Triage.of(message("1.40 GiB", "20.00 GiB", "473.60 MiB", "19.54 GiB", null, "18.60 GiB",
                "960.00 MiB"));
        assertThat(d.cause()).as(d.text()).isEqualTo(Cause.FRAGMENTATION);
        List<String> ladder = Cause.FRAGMENTATION.fixes();
        int at = ladder.indexOf(batchRung());
        assertThat(d.fixes()).hasSameSizeAs(ladder);
        assertThat(d.fixes().get(at)).isEqualTo(batchRung() + " Here the message's 18.60 GiB of live tensors plus"
                + " the 1.40 GiB asked make 20.00 GiB ± 0.01 GiB, within the rounding of the 20.00 GiB card: whether"
                + " they exceed it, which would put this rung first, is " + LEAD + ".");
        assertThat(withoutBatch(d.fixes())).isEqualTo(withoutBatch(ladder));
    }

    @Test
    @DisplayName("18.65 GiB live + 1.40 GiB asked on a 20.00 GiB card: past it whatever the rounding: first, as a finding")
    void surelyPast() {
        Diagnosis d = Triage.of(message("1.40 GiB", "20.00 GiB", "473.60 MiB", "19.59 GiB", null, "18.65 GiB",
                "960.00 MiB"));
        List<String> fixes = Fix.texts(FixLadder.fragmentationFixes(d.reading()));
        assertThat(fixes.get(0)).isEqualTo(BATCH + " First here: the message's 18.65 GiB of live tensors plus the"
                + " 1.40 GiB asked make 20.05 GiB ± 0.01 GiB, more than the 20.00 GiB card, so no arrangement of the"
                + " cache, and no allocator setting, makes room for the request.");
        assertThat(fixes.subList(1, fixes.size())).isEqualTo(withoutBatch(Cause.FRAGMENTATION.fixes()));
    }

    @Test
    @DisplayName("a memory fraction of 15.00 GiB on a 20.00 GiB card: 13.50 GiB live + 2.00 GiB asked pass the cap, not the card")
    void pastTheCap() {
        // PyTorch may not reserve past the cap (alloc_block), so no arrangement of the cache fits 15.50 GiB in it
        Diagnosis d = Triage.of(message("2.00 GiB", "20.00 GiB", "700.00 MiB", "15.50 GiB", "15.00 GiB",
                "13.50 GiB", "1.40 GiB"));
        assertThat(d.evidence()).anySatisfy(e -> assertThat(e).startsWith("1. Fragmentation: ").endsWith("but the"
                + " 13.50 GiB of live tensors plus the 2.00 GiB asked exceed the 15.00 GiB this process's memory"
                + " fraction allows: no arrangement of the cache makes it fit."));
        assertThat(d.ranked()).filteredOn(c -> c.cause() == Cause.FRAGMENTATION).singleElement()
                .satisfies(c -> assertThat(c.qualifies()).isFalse());
        assertThat(Fix.texts(FixLadder.fragmentationFixes(d.reading())).get(0)).isEqualTo(BATCH + " First here:"
                + " the message's 13.50 GiB of live tensors plus the 2.00 GiB asked make 15.50 GiB ± 0.01 GiB, more"
                + " than the 15.00 GiB this process's memory fraction allows, so no arrangement of the cache, and no"
                + " allocator setting, makes room for the request.");
    }

    @Test
    @DisplayName("a full card: 13.50 GiB live + 2.00 GiB asked on a 15.00 GiB card put its smaller batch first, by the same rule")
    void fullCardPastTheCard() {
        // 0.50 GiB free, 400 MiB of holes: no cause but the tensors, and they plus the request pass the card
        Diagnosis d = Triage.of(message("2.00 GiB", "15.00 GiB", "500.00 MiB", "14.60 GiB", null, "13.50 GiB",
                "400.00 MiB"));
        assertThat(d.cause()).as(d.text()).isEqualTo(Cause.FULL_OR_DRIVER_RESERVE);
        assertThat(d.finding()).isNull();
        List<String> ladder = Cause.FULL_OR_DRIVER_RESERVE.fixes();
        assertThat(d.fixes().get(0)).isEqualTo(ladder.get(1) + " First here: the message's 13.50 GiB of live tensors"
                + " plus the 2.00 GiB asked make 15.50 GiB ± 0.01 GiB, more than the 15.00 GiB card, so the tensors"
                + " themselves must shrink: budgeting for the driver's reserve and the context frees nothing.");
        assertThat(d.fixes().subList(1, d.fixes().size())).isEqualTo(withoutRung(ladder, 1));
        // inside the card: the ladder as Cause states it
        Diagnosis inside = Triage.of(message("2.00 GiB", "20.00 GiB", "500.00 MiB", "18.60 GiB", null, "17.90 GiB",
                "100.00 MiB"));
        assertThat(inside.cause()).as(inside.text()).isEqualTo(Cause.FULL_OR_DRIVER_RESERVE);
        assertThat(inside.fixes()).isEqualTo(ladder);
    }

    @Test
    @DisplayName("cuDNN's ladder keeps its order past the card: the request may be the workspace its first rung shrinks")
    void cudnnKeepsItsOrder() {
        String conv = "  File \"model.py\", line 12, in forward\n    return F.conv2d(x, self.weight)\n";
        Diagnosis d = Triage.of(conv + message("2.00 GiB", "15.00 GiB", "500.00 MiB", "14.60 GiB", null, "13.50 GiB",
                "400.00 MiB"));
        assertThat(d.cause()).as(d.text()).isEqualTo(Cause.CUDNN_WORKSPACE);
        assertThat(d.fixes()).isEqualTo(Cause.CUDNN_WORKSPACE.fixes());
    }

    private static List<String> withoutRung(List<String> fixes, int at) {
        List<String> out = new java.util.ArrayList<>(fixes);
        out.remove(at);
        return out;
    }

    private static String batchRung() {
        return Cause.FRAGMENTATION.fixes().stream().filter(f -> f.startsWith(BATCH)).findFirst().orElseThrow();
    }

    private static List<String> withoutBatch(List<String> fixes) {
        return fixes.stream().filter(f -> !f.startsWith(BATCH)).toList();
    }
}
