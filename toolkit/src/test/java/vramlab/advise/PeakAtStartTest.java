package vramlab.advise;

import static org.assertj.core.api.Assertions.assertThat;
import static vramlab.units.Bytes.MiB;

import java.util.List;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import vramlab.alloc.CachingAllocator;
import vramlab.alloc.MemorySnapshot;
import vramlab.alloc.PyTorchPolicy;
import vramlab.driver.Gpu;
import vramlab.snapshot.Snapshot;
import vramlab.snapshot.SnapshotReader;
import vramlab.snapshot.SnapshotWriter;

/**
 * A snapshot whose history never reserves more than the segments it starts with compares no
 * settings: each row replays those same recorded segments, so each row's peak is the start's. Four
 * of the real snapshots are such (two with a history of one entry or none, a 5,398-step forward
 * pass inside 48.29 GiB made before it); advise recommended "keep the recorded settings" there, as
 * if it had found no setting better.
 */
@DisplayName("advise on a history that never reserves more than its start: no recommendation, and why")
class PeakAtStartTest {
    static final long CARD = 1L << 30;

    /** A 20 MiB segment made and emptied before the history; the history then allocates {@code sizes}. */
    static Snapshot startingWithASegment(long... sizes) {
        CachingAllocator a = new CachingAllocator(new Gpu(CARD).openToyProcess(), new PyTorchPolicy(""));
        a.free(a.alloc(2 * MiB, 0));
        a.trace().record(true, Long.MAX_VALUE);
        for (long size : sizes) a.alloc(size, 0);
        return SnapshotReader.read(SnapshotWriter.pickle(MemorySnapshot.of(a)), "run.pickle");
    }

    static Advice advise(Snapshot s) {
        List<Outcome> rows = Advisor.compare(s, s.device(0), CARD, Setting.standard(), null);
        return new Advice("run.pickle", CARD, "--device", null, "trace entry", rows, true);
    }

    @Test
    @DisplayName("16 MiB allocated inside the 20 MiB the history starts with: every row peaks at the start,"
            + " and the recommendation says the snapshot cannot tell the settings apart")
    void historyInsideItsStart() {
        Advice a = advise(startingWithASegment(8 * MiB, 8 * MiB));
        assertThat(a.outcomes()).allMatch(o -> o.peakReserved() == 20 * MiB);
        assertThat(a.recommendation()).isEqualTo("Recommendation: none from this replay: under every setting the"
                + " peak is the state the recorded history starts from (the snapshot's segments, 20.00 MiB"
                + " reserved), and its 2 steps never reserve more, so this snapshot cannot tell the settings apart."
                + " To compare them, record a snapshot from the start of the run"
                + " (torch.cuda.memory._record_memory_history(max_entries=N) before its first CUDA allocation, N"
                + " above the trace entries the run writes, one per allocation, two per free and one per segment reserved or released, so that its ring"
                + " buffer, which keeps the last N, drops none) and advise that.\n");
    }

    @Test
    @DisplayName("a history that makes a segment of its own is compared as before")
    void historyBeyondItsStart() {
        Advice a = advise(startingWithASegment(8 * MiB, 8 * MiB, 30 * MiB));
        assertThat(a.outcomes()).anyMatch(o -> o.peakReserved() > 20 * MiB);
        assertThat(a.recommendation()).doesNotContain("cannot tell the settings apart");
    }
}
