package vramlab.triage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static vramlab.units.Bytes.GiB;
import static vramlab.units.Bytes.MiB;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import vramlab.kit.RealSnapshotsFolder;
import vramlab.snapshot.SnapshotFile;

@DisplayName("Triage from a snapshot's recorded OOM")
class SnapshotTriageTest {
    @Test
    @DisplayName("gives the exact figures of the moment and names fragmentation when the holes would have fitted it")
    void holes() {
        Diagnosis d = SnapshotTriage.of(Snapshots.holes(), "holes.pickle", -1);
        assertThat(d.reading().family()).isEqualTo(Family.SNAPSHOT);
        assertThat(d.reading().get(Figure.REQUESTED)).isEqualTo(12 * MiB);
        assertThat(d.reading().get(Figure.FREE)).isEqualTo(5 * MiB);
        assertThat(d.reading().get(Figure.RESERVED)).isEqualTo(22 * MiB);
        assertThat(d.reading().get(Figure.RESERVED_BUT_UNALLOCATED)).isEqualTo(14 * MiB);
        assertThat(d.shortfall()).isEqualTo(7 * MiB);
        assertThat(d.cause()).as(d.text()).isEqualTo(Cause.FRAGMENTATION);
        assertThat(d.reading().notes()).anyMatch(n -> n.contains("largest free block was 8.00 MiB"));
    }

    @Test
    @DisplayName("heads its notes 'About the snapshot', since there is no message to speak of")
    void notesAboutTheSnapshot() {
        String text = SnapshotTriage.of(Snapshots.holes(), "holes.pickle", -1).text();
        assertThat(text).contains("\nAbout the snapshot:\n  - ").doesNotContain("About the message");
    }

    @Test
    @DisplayName("with the card's size given, memory that is neither free nor PyTorch's is weighed too")
    void withCapacity() {
        Diagnosis d = SnapshotTriage.of(Snapshots.holes(), "holes.pickle", 8 * GiB);
        assertThat(d.reading().get(Figure.CAPACITY)).isEqualTo(8 * GiB);
        assertThat(d.cause()).as(d.text()).isEqualTo(Cause.OTHER_PROCESSES);
        assertThat(d.text()).contains("belongs to someone else");
    }

    @Test
    @DisplayName("--device no more than reserved + free at the OOM is PyTorch's share (replay's meaning), not a"
            + " card's total: the report says so, and reads the value as given")
    void shareGivenForTotal() {
        // holes: 22 MiB reserved and 5 MiB free at the OOM, so a card's total is more than 27 MiB
        for (long given : new long[] {27 * MiB, 26 * MiB, 1 * MiB}) {
            Diagnosis d = SnapshotTriage.of(Snapshots.holes(), "holes.pickle", given);
            assertThat(d.reading().get(Figure.CAPACITY)).isEqualTo(given);
            assertThat(d.reading().notes()).as(d.text()).anyMatch(n -> n.startsWith("--device "
                    + vramlab.units.Bytes.formatSize(given) + " is no more than what PyTorch reserved and what was"
                    + " free at the OOM (22.00 MiB + 5.00 MiB = 27.00 MiB), which leaves nothing for the CUDA"
                    + " context: it looks like PyTorch's share of the card, what replay's and advise's --device"
                    + " take. triage's --device is the card's total"));
            assertThat(d.json()).contains("it looks like PyTorch's share of the card");
        }
        for (long given : new long[] {27 * MiB + 1, 28 * MiB, 8 * GiB}) {
            Diagnosis d = SnapshotTriage.of(Snapshots.holes(), "holes.pickle", given);
            assertThat(d.text()).as(d.text()).doesNotContain("PyTorch's share of the card");
        }
        assertThat(SnapshotTriage.of(Snapshots.holes(), "holes.pickle", -1).text())
                .doesNotContain("PyTorch's share of the card");
    }

    /** 20 MiB held, all of it allocated, then an 8 MiB request with 2 MiB free: a full card. */
    static java.util.Map<String, Object> full() {
        return new Snapshots().segment(100, 20, false, new long[] {100, 20, 1})
                .entry("segment_alloc", 100, 20).entry("alloc", 100, 20).oom(8, 2).build();
    }

    /**
     * The full card's first rung read "Budget from the real total: the capacity in the message is
     * what cudaMemGetInfo reports", in the triage of a snapshot, where there is no message; it is
     * said with the snapshot's own figures. The rest of the ladder, and a message's, are as written.
     */
    @Test
    @DisplayName("a full card read from a snapshot: the first rung speaks of its figures, not of a message it lacks")
    void budgetRungWithoutMessage() throws Exception {
        Diagnosis d = SnapshotTriage.of(full(), "full.pickle", -1);
        assertThat(d.cause()).as(d.text()).isEqualTo(Cause.FULL_OR_DRIVER_RESERVE);
        java.util.List<String> ladder = Cause.FULL_OR_DRIVER_RESERVE.fixes();
        assertThat(d.fixes().get(0)).isEqualTo("Budget from what PyTorch could reach: at the OOM it held 20.00 MiB"
                + " and the oom entry's device_free (cudaMemGetInfo's free bytes) was 2.00 MiB, so 22.00 MiB was all"
                + " this run could have had there; the card's total, which the snapshot does not record"
                + " (torch.cuda.mem_get_info()[1] on the card says it), is already short of the card's nominal size"
                + " by the driver's reserve, and the context takes hundreds of MiB of it before the first tensor.");
        assertThat(d.fixes().subList(1, d.fixes().size())).isEqualTo(ladder.subList(1, ladder.size()));
        assertThat(d.text()).contains("  1. Budget from what PyTorch could reach").doesNotContain("in the message");
        assertThat(d.json()).doesNotContain("in the message");

        Diagnosis given = SnapshotTriage.of(full(), "full.pickle", 23 * MiB);
        assertThat(given.cause()).as(given.text()).isEqualTo(Cause.FULL_OR_DRIVER_RESERVE);
        // 20.00 MiB live + 8.00 MiB asked pass the 23.00 MiB card: the smaller batch first (FixLadder.fullCardFixes)
        assertThat(given.fixes().get(0)).startsWith("Lower the batch size").contains("the snapshot's 20.00 MiB of live tensors");
        assertThat(given.fixes().get(1)).contains("so 22.00 MiB was all this run could have had there; the card's"
                + " total (23.00 MiB as --device gives it) is already short").doesNotContain("message");

        Path msg = NotesExamplesTest.corpus().resolve("004-generateu.txt");
        Diagnosis pasted = Triage.of(Files.readString(msg));
        assertThat(pasted.cause()).isEqualTo(Cause.FULL_OR_DRIVER_RESERVE);
        assertThat(pasted.fixes().get(0)).isEqualTo(ladder.get(0)).startsWith("Budget from the real total: the"
                + " capacity in the message");
    }

    @Test
    @DisplayName("on the real OOM snapshot: a full card, 384 MiB asked and 252 MiB free, as the trace recorded")
    void real() throws Exception {
        Path dir = Snapshots.realDir();
        assumeTrue(dir != null, RealSnapshotsFolder.MISSING);
        Path f = dir.resolve("nesta-discrete-diffusion.oom.pickle.gz");
        Diagnosis d = SnapshotTriage.of(SnapshotFile.dict(Files.readAllBytes(f), f.toString()), f.toString(), -1);
        assertThat(d.reading().get(Figure.REQUESTED)).isEqualTo(402653184L);
        assertThat(d.reading().get(Figure.FREE)).isEqualTo(264634368L);
        assertThat(d.cause()).as(d.text()).isEqualTo(Cause.FULL_OR_DRIVER_RESERVE);
        assertThat(MiniJsonReader.isValid(d.json())).isTrue();
    }
}
