package vramlab.advise;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static vramlab.units.Bytes.GiB;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import net.razorvine.pickle.Pickler;
import vramlab.kit.RealSnapshotsFolder;
import vramlab.snapshot.SnapshotFile;
import vramlab.triage.Snapshots;

@DisplayName("What advise replays, and on which card")
class WorkloadTest {
    @Test
    @DisplayName("a text trace replays on --device, or on 80 GiB said to be assumed")
    void text() {
        byte[] t = "alloc a 3MiB\nfree a\n".getBytes(StandardCharsets.UTF_8);
        Workload w = Workload.read(t, "t.trace", -1);
        assertThat(w.events()).hasSize(2);
        assertThat(w.card()).isEqualTo(80 * GiB);
        assertThat(w.cardFrom()).startsWith("assumed");
        assertThat(Workload.read(t, "t.trace", 6 * GiB).card()).isEqualTo(6 * GiB);
    }

    @Test
    @DisplayName("a snapshot with an OOM replays on the card the run had: reserved at the OOM plus free")
    void oomCard() throws Exception {
        byte[] pickle = new Pickler().dumps(Snapshots.holes());
        Workload w = Workload.read(gzip(pickle), "holes.pickle.gz", -1);
        assertThat(w.where()).isEqualTo("trace entry");
        assertThat(w.replayable()).isTrue();
        Advice a = Advice.of(w, "f", Setting.standard().subList(0, 1), null);
        assertThat(a.cardKnown()).isTrue();
        // what replay infers: reserved at the OOM plus device_free, in whole 2 MiB pages
        assertThat(a.card()).isEqualTo(((22L + 5) << 20) / (2 << 20) * (2 << 20));
        assertThat(a.cardFrom()).contains("inferred from the oom entry");
    }

    @Test
    @DisplayName("on a card the recorded start state does not fit, advise recommends nothing: no row replays the run")
    void startDoesNotFit() throws Exception {
        // a 20 MiB segment the history found already there (4 MiB of it allocated), on an 8 MiB card
        Map<String, Object> s = new Snapshots().segment(100, 20, false, new long[] {100, 4, 1},
                new long[] {104, 16, 0}).entry("alloc", 104, 2).entry("free_completed", 104, 2).build();
        Workload w = Workload.read(new Pickler().dumps(s), "start.pickle", 8L << 20);
        Advice a = Advice.of(w, "f", Setting.standard().subList(0, 2), null);
        assertThat(a.outcomes()).allMatch(o -> !o.whatIf().startFits());
        assertThat(a.text()).contains("Recommendation: none from this replay: the state the recorded history starts from")
                .contains("does not fit on 8.00 MiB under any setting")
                .doesNotContain("no setting makes this workload fit")
                .endsWith(" Compare the settings on a card that state fits (a larger --device), or record a snapshot"
                        + " from the start of the run (torch.cuda.memory._record_memory_history(max_entries=N) before"
                        + " its first CUDA allocation, N above the trace entries the run writes, one per allocation,"
                        + " two per free and one per segment reserved or released, so that its ring buffer, which keeps the last N, drops none) and advise that.\n");
    }

    @Test
    @DisplayName("a history that starts mid-run: advise says every row keeps the rebuilt start as recorded"
            + " (a simplification a practitioner acting on a row must know), and a complete one says nothing")
    void midRunStartSaid() throws Exception {
        // a 20 MiB segment the history found already there (4 MiB of it allocated), on a 64 MiB card
        Map<String, Object> s = new Snapshots().segment(100, 20, false, new long[] {100, 4, 1},
                new long[] {104, 16, 0}).entry("alloc", 104, 2).entry("free_completed", 104, 2).build();
        Advice a = Advice.of(Workload.read(new Pickler().dumps(s), "start.pickle", 64L << 20), "f",
                Setting.standard().subList(0, 2), null);
        assertThat(a.text()).contains("\nstart: the history is incomplete: it starts after memory was already in use")
                .contains("Every row keeps that rebuilt state as it was recorded (the kit's simplification: a run"
                        + " started under another setting would have laid it out its own way)");
        Map<String, Object> whole = new Snapshots().segment(100, 20, false, new long[] {100, 20, 0})
                .entry("segment_alloc", 100, 20).entry("alloc", 100, 2).entry("free_completed", 100, 2).build();
        assertThat(Advice.of(Workload.read(new Pickler().dumps(whole), "whole.pickle", 64L << 20), "f",
                Setting.standard().subList(0, 2), null).text()).doesNotContain("\nstart: ");
    }

    @Test
    @DisplayName("a bare list of segments (torch.cuda.memory_snapshot()) has nothing to replay and says what it holds")
    void bareList() throws Exception {
        Map<String, Object> s = new Snapshots().segment(100, 20, false, new long[] {100, 4, 1},
                new long[] {104, 16, 0}).build();
        Workload w = Workload.read(new Pickler().dumps(s.get("segments")), "list.pkl", -1);
        assertThat(w.replayable()).isFalse();
        assertThat(w.state()).contains("1 segments hold 20.00 MiB, 4.00 MiB of it allocated");
    }

    @Test
    @DisplayName("a JSON log line is not a snapshot; a JSON dict with device_traces is")
    void json() {
        assertThat(SnapshotFile.looksLikeSnapshot("{\"msg\": \"CUDA out of memory.\"}".getBytes(StandardCharsets.UTF_8)))
                .isFalse();
        assertThat(SnapshotFile.looksLikeSnapshot("{\"device_traces\": [], \"segments\": []}"
                .getBytes(StandardCharsets.UTF_8))).isTrue();
    }

    /** Every real snapshot; without the set, one null whose test skips saying why. */
    static Stream<Path> real() throws Exception {
        Path dir = Snapshots.realDir();
        if (dir == null) return Stream.of((Path) null);
        try (Stream<Path> s = Files.list(dir)) {
            return s.sorted().toList().stream();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("real")
    @DisplayName("every real snapshot is read, and advise's table stays consistent on it (defaults and expandable segments)")
    void everyRealSnapshot(Path f) throws Exception {
        assumeTrue(f != null, RealSnapshotsFolder.MISSING);
        Workload w = Workload.read(Files.readAllBytes(f), f.getFileName().toString(), -1);
        if (!w.replayable()) {
            assertThat(w.state()).contains("segments hold");
            return;
        }
        // two settings keep mvn test short; ./vramlab advise runs all of them (timed in the report)
        Advice a = Advice.of(w, "f", Setting.standard().subList(0, 2), null);
        for (Outcome o : a.outcomes()) {
            assertThat(o.peakReserved()).isPositive();
            assertThat(o.fragmentationAtPeak()).isBetween(0L, o.peakReserved());
        }
        assertThat(a.text()).contains("Recommendation: ");
        // a history that starts mid-run says that every row keeps its rebuilt start as recorded
        boolean midRun = a.outcomes().get(0).whatIf().main().start().stream()
                .anyMatch(n -> n.startsWith("the history is incomplete"));
        assertThat(a.text().contains("\nstart: the history is incomplete")).as(f.toString()).isEqualTo(midRun);
    }

    private static byte[] gzip(byte[] b) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream z = new GZIPOutputStream(out)) {
            z.write(b);
        }
        return out.toByteArray();
    }
}
