package vramlab.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import vramlab.kit.RealSnapshotsFolder;
import vramlab.snapshot.Snapshot;
import vramlab.snapshot.SnapshotFile;

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
}
