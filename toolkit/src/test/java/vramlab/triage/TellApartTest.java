package vramlab.triage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import vramlab.kit.RealSnapshotsFolder;
import vramlab.snapshot.SnapshotFile;

/**
 * The check that tells fragmentation from its runner-up is one a practitioner can follow: a
 * snapshot dumped after the step that raised the OOM is never written, so the recipe dumps it in
 * the except around the step; and a triage of a snapshot points at that snapshot, not at
 * recording another.
 */
@DisplayName("Telling fragmentation apart: a recipe that leaves a snapshot, or the snapshot given")
class TellApartTest {
    /** A real message, 1.67 GiB reserved but unallocated, 96 MiB short (2KangHo/vdsr_pytorch#2). */
    static final String VDSR = "RuntimeError: CUDA out of memory. Tried to allocate 512.00 MiB (GPU 0; 15.90 GiB"
            + " total capacity; 13.13 GiB already allocated; 415.88 MiB free; 14.80 GiB reserved in total by"
            + " PyTorch)";

    @Test
    @DisplayName("a pasted message: the snapshot is dumped where the OOM is caught, not after the workload")
    void pastedMessage() {
        Diagnosis d = Triage.of(VDSR);
        assertThat(d.cause()).isEqualTo(Cause.FRAGMENTATION);
        assertThat(d.tellApart()).contains("_dump_snapshot(\"oom.pickle\") in an except torch.OutOfMemoryError"
                + " around the step", "advise oom.pickle").doesNotContain("the workload, then");
    }

    @Test
    @DisplayName("a snapshot with holes: advise on that very file, no recipe to record one")
    void constructedSnapshot() {
        Diagnosis d = SnapshotTriage.of(Snapshots.holes(), "holes.pickle", -1);
        assertThat(d.cause()).isEqualTo(Cause.FRAGMENTATION);
        assertThat(d.tellApart()).as(d.text()).contains("Run ./vramlab advise holes.pickle: it replays this"
                + " recorded run").doesNotContain("Record a snapshot", "oom.pickle");
        assertThat(d.json()).contains("./vramlab advise holes.pickle");
    }

    @Test
    @DisplayName("a snapshot read from standard input: advise on the same bytes, not on a file named <stdin>")
    void snapshotFromStandardInput() {
        Diagnosis d = SnapshotTriage.of(Snapshots.holes(), "<stdin>", -1);
        assertThat(d.tellApart()).as(d.text()).contains("Run ./vramlab advise - with the same snapshot on its"
                + " standard input: it replays this recorded run").doesNotContain("advise <stdin>");
    }

    @Test
    @DisplayName("the real OOM snapshot (full card, fragmentation runner-up): advise on that file")
    void realSnapshot() throws Exception {
        Path dir = Snapshots.realDir();
        assumeTrue(dir != null, RealSnapshotsFolder.MISSING);
        Path f = dir.resolve("nesta-discrete-diffusion.oom.pickle.gz");
        Diagnosis d = SnapshotTriage.of(SnapshotFile.dict(Files.readAllBytes(f), f.toString()), f.toString(), -1);
        assertThat(d.runnerUp()).isEqualTo(Cause.FRAGMENTATION);
        assertThat(d.tellApart()).startsWith("To tell FULL_OR_DRIVER_RESERVE from FRAGMENTATION: Run ./vramlab"
                + " advise " + f).doesNotContain("Record a snapshot");
    }
}
