package vramlab.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import vramlab.alloc.CachingAllocator;
import vramlab.alloc.CudaOutOfMemoryError;
import vramlab.alloc.MemorySnapshot;
import vramlab.alloc.PoolKind;
import vramlab.alloc.PyTorchPolicy;
import vramlab.driver.Gpu;
import vramlab.kit.RealSnapshotsFolder;
import vramlab.snapshot.Snapshot;
import vramlab.snapshot.SnapshotFile;
import vramlab.snapshot.SnapshotReader;
import vramlab.snapshot.SnapshotWriter;
import vramlab.units.Bytes;

@DisplayName("who holds the memory")
class WhoHoldsTest {
    static Snapshot.Frame f(String file, int line, String name) { return new Snapshot.Frame(file, line, name); }

    @Test
    @DisplayName("a block's site is its first Python frame outside torch/, skipping C++ frames")
    void site() {
        List<Snapshot.Frame> stack = List.of(f("??", 0, "torch::unwind::unwind()"),
                f("CUDACachingAllocator.cpp", 0, "malloc"),
                f("/usr/lib/python3.10/site-packages/torch/nn/modules/linear.py", 116, "forward"),
                f("/home/me/train.py", 42, "step"), f("/home/me/train.py", 90, "<module>"));
        assertThat(WhoHolds.site(stack, false)).isEqualTo("/home/me/train.py:42 step");
        assertThat(WhoHolds.site(stack.subList(0, 3), false))
                .isEqualTo("/usr/lib/python3.10/site-packages/torch/nn/modules/linear.py:116 forward");
        assertThat(WhoHolds.site(stack.subList(0, 2), false)).isEqualTo(WhoHolds.NO_PYTHON);
        assertThat(WhoHolds.site(List.of(), true)).isEqualTo(WhoHolds.BEFORE_HISTORY);
        assertThat(WhoHolds.site(List.of(f("C:\\env\\Lib\\torch\\functional.py", 3, "f")), false))
                .as("Windows paths are torch's too").startsWith("C:\\env");
    }

    static Path real(String name) {
        Path dir = RealSnapshotsFolder.snapshots().orElse(null);
        assumeTrue(dir != null, RealSnapshotsFolder.MISSING);
        Path f = dir.resolve(name + ".gz");
        assumeTrue(Files.isRegularFile(f), "no real snapshot " + f.getFileName() + " in the set");
        return f;
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"nesta-discrete-diffusion.oom.pickle", "magma27.memory_snapshot.pickle"})
    @DisplayName("the bytes the history says live blocks asked for equal what the replayed allocator says they asked for, at the peak and"
            + " every 100th entry; sites are sorted, largest first, and add up")
    void agreesWithTheReplay(String name) throws Exception {
        Path file = real(name);
        Snapshot s = SnapshotFile.read(Files.readAllBytes(file), name);
        Snapshot.Device d = SnapshotFile.pickDevice(s);
        SnapshotReplay.Options o = SnapshotReplay.Options.recorded();
        SnapshotReplay.Report r = SnapshotReplay.run(s, d, o, (step, e, result, bytes, a) -> { }, false);
        WhoHolds peak = WhoHolds.atPeak(s, d, o, r);
        assertThat(peak.live()).as("live at the peak")
                .isEqualTo(SnapshotReplay.stateAt(s, d, o, peak.position()).allocator().requested());
        assertThat(peak.reserved()).as("reserved at the peak").isEqualTo(r.replayedPeak());
        check(peak);
        for (int p = 0; p <= d.trace().size(); p += 100) {
            WhoHolds w = WhoHolds.at(s, d, o, p, false, "entry " + p);
            long allocated = SnapshotReplay.stateAt(s, d, o, w.position()).allocator().requested();
            assertThat(w.live()).as(name + " entry " + p).isEqualTo(allocated);
            check(w);
        }
    }

    private static void check(WhoHolds w) {
        assertThat(w.sites().stream().mapToLong(WhoHolds.Site::bytes).sum()).isEqualTo(w.live());
        assertThat(w.sites().stream().mapToInt(WhoHolds.Site::count).sum()).isEqualTo(w.blocks());
        for (int i = 1; i < w.sites().size(); i++) {
            assertThat(w.sites().get(i).bytes()).isLessThanOrEqualTo(w.sites().get(i - 1).bytes());
        }
    }

    @Test
    @DisplayName("at a recorded OOM the failed request is not a holder, and the text names sites and holes")
    void atTheOom() throws Exception {
        Path file = real("nesta-discrete-diffusion.oom.pickle");
        Snapshot s = SnapshotFile.read(Files.readAllBytes(file), "nesta");
        Snapshot.Device d = SnapshotFile.pickDevice(s);
        SnapshotReplay.Options o = SnapshotReplay.Options.recorded();
        SnapshotReplay.Report r = SnapshotReplay.run(s, d, o, (step, e, result, bytes, a) -> { }, false);
        WhoHolds w = WhoHolds.atFirstOom(s, d, o, r);
        assertThat(w.position()).isEqualTo(1118);
        assertThat(w.live()).isEqualTo(SnapshotReplay.stateAt(s, d, o, 1117).allocator().requested());
        assertThat(w.text(3, true)).contains("who holds the memory at the OOM at entry 1118")
                .contains("more sites").contains("holes beside them (largest free block): small pool");
    }
    @Test
    @DisplayName("at an OOM whose retry released a cached segment (segment_free just before the oom), the reserved bytes"
            + " and holes are those PyTorch reported: after the release")
    void afterTheRetrysRelease() {
        CachingAllocator recorded = new CachingAllocator(new Gpu(Bytes.mib(256)).openToyProcess(), new PyTorchPolicy(""));
        recorded.trace().record(true, Long.MAX_VALUE);
        recorded.alloc(Bytes.mib(60), 0);                            // kept: its own 60 MiB segment
        recorded.free(recorded.alloc(Bytes.mib(100), 0));           // a 100 MiB segment, cached
        assertThatThrownBy(() -> recorded.alloc(Bytes.mib(200), 0))  // 96 MiB free: release the cache, retry, fail
                .isInstanceOf(CudaOutOfMemoryError.class);
        Snapshot s = SnapshotReader.read(SnapshotWriter.pickle(MemorySnapshot.of(recorded)), "retry.pickle");
        Snapshot.Device d = s.device(0);
        List<Snapshot.Entry> t = d.trace();
        assertThat(t.subList(t.size() - 2, t.size())).as("the history this test is about")
                .extracting(Snapshot.Entry::word, Snapshot.Entry::size)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("segment_free", Bytes.mib(100)),
                        org.assertj.core.groups.Tuple.tuple("oom", Bytes.mib(200)));

        SnapshotReplay.Options o = SnapshotReplay.Options.recorded();
        SnapshotReplay.Report r = SnapshotReplay.run(s, d, o, (step, e, result, bytes, a) -> { }, false);
        WhoHolds w = WhoHolds.atFirstOom(s, d, o, r);
        assertThat(w.position()).isEqualTo(t.size());
        assertThat(w.live()).as("the failed request is no holder").isEqualTo(Bytes.mib(60));
        assertThat(w.reserved()).as("the 100 MiB segment was released before the OOM").isEqualTo(Bytes.mib(60));
        assertThat(w.holes().get(PoolKind.LARGE)).as("nor is it a hole beside the live blocks").isZero();
        assertThat(r.oomMessages().get(0)).as("what PyTorch's message says of the same moment")
                .contains("Of the allocated memory 60.00 MiB is allocated by PyTorch, and 0 bytes is reserved");
        assertThat(w.text(10, false)).startsWith("who holds the memory at the OOM at entry " + t.size()
                + ": 60.00 MiB requested by 1 live blocks, 60.00 MiB reserved");

        SnapshotReplay.Options larger = new SnapshotReplay.Options(null, Bytes.gib(1));
        WhoHolds fitted = WhoHolds.at(s, d, larger, t.size(), true, "the recorded OOM");
        assertThat(fitted.reserved()).as("on a 1 GiB card the request fits: no retry, no release; the state before it")
                .isEqualTo(Bytes.mib(160));
        assertThat(fitted.holes().get(PoolKind.LARGE)).isEqualTo(Bytes.mib(100));
    }
}
