package vramlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A snapshot saved as JSON that has no {@code device_traces} key (the bare segment list of
 * {@code torch.cuda.memory_snapshot()}, which replay and advise read, or a dump cut short before
 * that key) was taken by triage for a pasted message: "NOT_PYTORCH_OOM ... look up the memory
 * settings of the framework or library that printed this one", exit 0.
 */
@DisplayName("triage reads a JSON snapshot without device_traces as a snapshot, not as a pasted message")
class TriageJsonSnapshotTest {
    static final String SEGMENT = "{\"device\": 0, \"address\": 1048576, \"total_size\": 2097152, \"stream\": 0,"
            + " \"segment_type\": \"large\", \"blocks\": [{\"address\": 1048576, \"size\": 2097152,"
            + " \"requested_size\": 2097152, \"state\": \"active_allocated\", \"frames\": []}]}";

    @Test
    @DisplayName("torch.cuda.memory_snapshot()'s segment list as JSON: the snapshot's peak, as for the same list pickled")
    void segmentList(@TempDir Path dir) throws Exception {
        Path f = Files.writeString(dir.resolve("segments.json"), "[" + SEGMENT + "]", StandardCharsets.UTF_8);
        CliRun r = CliRun.of("triage", f.toString());
        assertThat(r.status()).as(r.err()).isZero();
        assertThat(r.out()).contains("Format: a PyTorch memory snapshot").doesNotContain("NOT_PYTORCH_OOM");
    }

    @Test
    @DisplayName("a JSON snapshot cut short before device_traces: error FILE:LINE:COLUMN and exit 2, as advise says")
    void cutShort(@TempDir Path dir) throws Exception {
        Path f = Files.writeString(dir.resolve("run.json"), "{\"segments\": [" + SEGMENT, StandardCharsets.UTF_8);
        CliRun r = CliRun.of("triage", f.toString());
        assertThat(r.status()).isEqualTo(2);
        assertThat(r.out()).isEmpty();
        assertThat(r.err()).startsWith("error: " + f + ":1:").contains("bad JSON");
    }
}
