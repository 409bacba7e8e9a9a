package vramlab.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.zip.GZIPInputStream;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import vramlab.alloc.AllocConf;
import vramlab.alloc.PyTorchRelease;
import vramlab.kit.RealSnapshotsFolder;
import vramlab.snapshot.RealSnapshotsTest;
import vramlab.snapshot.Snapshot;
import vramlab.snapshot.SnapshotReader;

/** The release a snapshot's fields imply, which {@code replay} and {@code advise} both follow. */
@DisplayName("the PyTorch release a snapshot implies")
class SnapshotReleaseTest {
    static Snapshot snapshot(Snapshot.Settings settings, Set<String> entryKeys) {
        return new Snapshot("f", "PyTorch 2.1+ layout (segments and device_traces)", List.of(), settings, entryKeys);
    }

    @Test
    @DisplayName("user_metadata on the entries, or a recorded string only 2.10 parses, implies 2.10; else 2.9")
    void rules() {
        Snapshot.Settings unset = new Snapshot.Settings("", AllocConf.defaults());
        assertThat(SnapshotRelease.implied(snapshot(unset, Set.of("action", "user_metadata"))).release())
                .isEqualTo(PyTorchRelease.V2_10);
        Snapshot.Settings twenty = new Snapshot.Settings("max_split_size_mb:20",
                AllocConf.parse("max_split_size_mb:20", PyTorchRelease.V2_10.rules()));
        assertThat(SnapshotRelease.implied(snapshot(twenty, Set.of("action"))).why()).contains("only by 2.10's rules");
        Snapshot.Settings fraction = new Snapshot.Settings("per_process_memory_fraction:0.5",    // a key 2.9 lacks
                AllocConf.parse("per_process_memory_fraction:0.5", PyTorchRelease.V2_10.rules()));
        assertThat(SnapshotRelease.implied(snapshot(fraction, Set.of("action"))).release()).isEqualTo(PyTorchRelease.V2_10);
        assertThat(SnapshotRelease.implied(snapshot(unset, Set.of("action", "time_us"))).release())
                .isEqualTo(PyTorchRelease.V2_9);
        assertThat(SnapshotRelease.implied(snapshot(null, Set.of("action"))).why())
                .contains("records no allocator_settings");
    }

    @Test
    @DisplayName("--pytorch-version wins, and says what the file implied where they differ")
    void given() {
        Snapshot s = snapshot(null, Set.of("action"));
        assertThat(SnapshotRelease.of(s, null)).isEqualTo(SnapshotRelease.implied(s));
        assertThat(SnapshotRelease.of(s, PyTorchRelease.V2_10).words())
                .startsWith("PyTorch 2.10's rules (--pytorch-version; the file implies 2.9, it records no");
        assertThat(SnapshotRelease.of(s, PyTorchRelease.V2_9).why()).isEqualTo("--pytorch-version; the file agrees");
    }

    /**
     * Every real snapshot: the three whose keys are set F of ../shared/real-snapshots/keys.md
     * (user_metadata on entries; lock files name 2.11) imply 2.10, every other one 2.9. Plain
     * {@code mvn test} reads RealSnapshotsTest's fast subset (one of set F, six others; the rules
     * themselves are {@link #rules}); {@code -Preal-snapshots}, which {@code .ci/run} runs, all twenty.
     */
    @Test
    @DisplayName("the real snapshots: set F (2.11 lock files, user_metadata) implies 2.10, the others 2.9")
    void realSnapshots() throws IOException {
        Optional<Path> dir = RealSnapshotsFolder.snapshots();
        assumeTrue(dir.isPresent(), RealSnapshotsFolder.MISSING);
        boolean all = RealSnapshotsTest.all();
        Set<String> setF = Set.of("magma27.memory_snapshot.pickle", "wedsonlin.medium_512_training.pickle",
                "bcrafton.memory_snapshot.pickle");
        List<Path> files;
        try (var list = Files.list(dir.get())) {
            files = list.filter(p -> p.toString().endsWith(".gz"))
                    .filter(p -> all || RealSnapshotsTest.FAST.contains(p.getFileName().toString().replaceFirst("\\.gz$", "")))
                    .sorted().toList();
        }
        assertThat(files).hasSize(all ? 20 : RealSnapshotsTest.FAST.size());
        Map<Boolean, Integer> seen = new java.util.HashMap<>();
        for (Path gz : files) {
            String name = gz.getFileName().toString().replaceFirst("\\.gz$", "");
            Snapshot s;
            try (InputStream in = new GZIPInputStream(Files.newInputStream(gz))) {
                s = SnapshotReader.read(in.readAllBytes(), name);
            }
            PyTorchRelease expected = setF.contains(name) ? PyTorchRelease.V2_10 : PyTorchRelease.V2_9;
            assertThat(SnapshotRelease.implied(s).release()).as(name).isEqualTo(expected);
            seen.merge(setF.contains(name), 1, Integer::sum);
        }
        assertThat(seen).containsEntry(true, all ? 3 : 1).containsEntry(false, all ? 17 : 6);
    }
}
