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
