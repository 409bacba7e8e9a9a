package vramlab.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import vramlab.alloc.DeviceTrace;
import vramlab.alloc.PyTorchPolicy;
import vramlab.kit.RealSnapshotsFolder;
import vramlab.replay.SnapshotReplay;

/**
 * Real memory snapshots that PyTorch wrote in real runs (2.0 to 2.11), from
 * ../shared/real-snapshots: each replays under the policy and settings that recorded it to its
 * own recorded end state. The expected figures are the files' own (their segments and their
 * {@code oom} entries) and those of the set's manifest.json, never the kit's output.
 *
 * <p>Plain {@code mvn test} replays a fast subset that covers every layout and both OOMs;
 * {@code mvn test -Preal-snapshots} (what {@code .ci/run} also runs) replays all of them.
 */
@DisplayName("real PyTorch snapshots replay to their own recorded end state")
public class RealSnapshotsTest {
    /** One file of each kind, small enough for every build. */
    public static final Set<String> FAST = Set.of(
            "nesta-discrete-diffusion.oom.pickle",              // complete history, a real OOM, empty_cache
            "constructor-sun.device1-as-0.derived.pickle",      // expandable segments, an OOM after unmaps
            "silmont2000.mem_snapshot.derived.json",            // the JSON path
            "magma27.memory_snapshot.pickle",                   // 2.11 keys, a history begun mid-run
            "yiyi.oom_snapshot.legacy.pickle",                  // the 2.0 layout
            "muduard.memory_snapshot.segment-list.pkl",         // torch.cuda.memory_snapshot()'s list
            "maphsge4.snapshot.device1-only.pickle");           // segments on device 1 only, no history

    /**
     * The set's folder (-Dvramlab.realSnapshots.dir, else ../shared/real-snapshots beside the kit);
     * every test here skips with one line when it is missing, and fails instead where CI requires it.
     */
    static Path folder() {
        Optional<Path> dir = RealSnapshotsFolder.find();
        assumeTrue(dir.isPresent(), RealSnapshotsFolder.MISSING);
        return dir.get();
    }

    public static boolean all() { return "all".equals(System.getProperty("vramlab.realSnapshots")); }

    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> manifest() {
        Path m = folder().resolve("manifest.json");
        try {
            return (List<Map<String, Object>>) Json.parse(Files.readString(m, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The manifest's files; without the set, one placeholder whose test skips saying why. */
    static Stream<Arguments> files() {
        if (RealSnapshotsFolder.find().isEmpty()) return Stream.of(Arguments.of(NONE, Map.of()));
        List<Arguments> out = new ArrayList<>();
        for (Map<String, Object> entry : manifest()) {
            String file = (String) entry.get("file");
            if (all() || FAST.contains(file)) out.add(Arguments.of(file, entry));
        }
        return out.stream();
    }

    /** The placeholder's name, when the set is missing. */
    static final String NONE = "(no real snapshots here)";

    static Snapshot read(String file) {
        Path gz = folder().resolve("snapshots").resolve(file + ".gz");
        try (InputStream in = new GZIPInputStream(Files.newInputStream(gz))) {
            return SnapshotReader.read(in.readAllBytes(), file);
        } catch (IOException e) {
            throw new UncheckedIOException(gz + ": " + e.getMessage(), e);
        }
    }

    @Test
    @DisplayName("the set is there: 20 files, each named in the manifest")
    void setIsThere() {
        List<Map<String, Object>> m = manifest();
        assertThat(m).hasSize(20);
        for (Map<String, Object> e : m) {
            assertThat(folder().resolve("snapshots").resolve(e.get("file") + ".gz")).isRegularFile();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("files")
    @DisplayName("under its recording settings: the snapshot's own segments (count, sizes, addresses, reserved"
            + " bytes), its live blocks, its segment actions, and its OOM at the same entry")
    void replaysToItsOwnEndState(String file, Map<String, Object> entry) {
        Snapshot s = read(file);
        assertThat(s.devices()).as(file + ": devices").isNotEmpty();
        for (Snapshot.Device d : s.devices()) {
            String where = file + " device " + d.index();
            SnapshotReplay.Report r = SnapshotReplay.run(s, d, SnapshotReplay.Options.recorded(),
                    (step, e, result, bytes, a) -> { }, false);
            expectManifest(entry, d, where);
            assertThat(r.replayedSegments()).as(where + ": segments").hasSameSizeAs(r.recordedSegments());
            assertThat(r.replayedReserved()).as(where + ": reserved bytes").isEqualTo(d.reserved());
            assertThat(r.segmentsAgree()).as(where + ": segment sizes").isTrue();
            assertThat(r.addressesAgree()).as(where + ": segment addresses").isTrue();
            assertThat(r.liveBlocksMatched()).as(where + ": live blocks at the recorded address and size")
                    .isEqualTo(r.liveBlocks());
            assertThat(r.segmentActionDifference()).as(where + ": segment actions").isNull();
            assertThat(r.replayedOoms()).as(where + ": OOMs at the entries the file records them")
                    .isEqualTo(oomEntries(d));
            assertThat(r.skippedFrees()).as(where + ": frees of blocks the rebuilt state lacks").isZero();
            assertThat(String.join("\n", r.start())).as(where + ": the report says what it rebuilt")
                    .containsAnyOf("complete", "incomplete", "no history", "no allocator actions");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("files")
    @DisplayName("under another policy it answers \"would it have fitted\": peak reserved and the OOMs, if any")
    void whatIf(String file, Map<String, Object> entry) {
        Snapshot s = read(file);
        for (Snapshot.Device d : s.devices()) {
            boolean expandable = d.segments().stream().anyMatch(Snapshot.Segment::expandable);
            String other = expandable ? "expandable_segments:False" : "expandable_segments:True";
            SnapshotReplay.Report r = SnapshotReplay.run(s, d,
                    new SnapshotReplay.Options(new PyTorchPolicy(other), -1), (step, e, result, bytes, a) -> { }, false);
            assertThat(r.recordingPolicy()).isFalse();
            assertThat(r.policy()).contains("not the recording settings");
            assertThat(r.replayedPeak()).as(file + ": peak reserved").isGreaterThanOrEqualTo(r.replayedReserved());
            assertThat(vramlab.replay.SnapshotSummary.verdict(r)).contains("fitted").contains("peak reserved");
        }
    }

    @Test
    @DisplayName("the comparison can fail: replayed with roundup_power2_divisions:4 as if it had recorded"
            + " nesta's run, the segments disagree")
    void comparisonCanFail() {
        String file = "nesta-discrete-diffusion.oom.pickle";
        Snapshot s = read(file);
        SnapshotReplay.Report r = SnapshotReplay.run(s, s.device(0),
                new SnapshotReplay.Options(new PyTorchPolicy("roundup_power2_divisions:4"), -1),
                (step, e, result, bytes, a) -> { }, false);
        assertThat(r.segmentsAgree() && r.oomsAgree()).isFalse();
    }

    /** What the manifest says the device holds, compared with what the reader read. */
    @SuppressWarnings("unchecked")
    private static void expectManifest(Map<String, Object> entry, Snapshot.Device d, String where) {
        Object perDevice = entry.get("segments_per_device");
        if (!(perDevice instanceof Map<?, ?> segs)) return;      // the bare list records no counts
        Map<String, Object> reserved = (Map<String, Object>) entry.get("reserved_per_device_bytes");
        String key = String.valueOf(d.index());
        long count = segs.containsKey(key) ? ((Number) segs.get(key)).longValue() : 0;
        long bytes = reserved.containsKey(key) ? ((Number) reserved.get(key)).longValue() : 0;
        assertThat((long) d.segments().size()).as(where + ": segments in the manifest").isEqualTo(count);
        assertThat(d.reserved()).as(where + ": reserved bytes in the manifest").isEqualTo(bytes);
    }

    private static List<Integer> oomEntries(Snapshot.Device d) {
        return d.trace().stream().filter(e -> e.action() == DeviceTrace.Action.OOM).map(Snapshot.Entry::position).toList();
    }
}
