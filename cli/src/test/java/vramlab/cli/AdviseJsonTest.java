package vramlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * advise reads JSON as replay does. It took a JSON file for a snapshot only when the text named
 * "device_traces", so torch.cuda.memory_snapshot()'s segment list written as JSON (which replay
 * reads) and a JSON dict that is no snapshot were read as text traces: "unknown command
 * '[{"device":'" or "a line longer than 1 MiB", where replay said what the file is.
 */
@DisplayName("advise reads a JSON file as replay does: a segment list, or a dict that is no snapshot")
class AdviseJsonTest {
    @TempDir
    Path dir;

    /** One 20 MiB segment of torch.cuda.memory_snapshot()'s list, keys as PyTorch 2.1+ writes them. */
    static final String SEGMENT_LIST = """
            [{"device": 0, "address": 139987379027968, "total_size": 20971520, "allocated_size": 2621440,
              "active_size": 2621440, "requested_size": 2621440, "stream": 0, "segment_type": "large",
              "segment_pool_id": [0, 0], "is_expandable": false, "frames": [],
              "blocks": [{"address": 139987379027968, "size": 2621440, "requested_size": 2621440,
                          "state": "active_allocated"},
                         {"address": 139987381649408, "size": 18350080, "requested_size": 0,
                          "state": "inactive"}]}]
            """;

    @Test
    @DisplayName("a segment list as JSON: nothing to replay, and what its segments hold, as for the pickle")
    void segmentList() throws IOException {
        Path f = Files.writeString(dir.resolve("segments.json"), SEGMENT_LIST);
        assertThat(CliRun.of("replay", f.toString()).status()).isZero();
        CliRun r = CliRun.of("advise", f.toString());
        assertThat(r.status()).as(r.err()).isZero();
        assertThat(r.out()).contains("Nothing to replay: the file records no allocation history. 1 segments hold"
                + " 20.00 MiB, 2.50 MiB of it allocated");
    }

    @Test
    @DisplayName("a JSON dict that is no snapshot: the snapshot reader's error, as replay gives it, not a trace's")
    void notASnapshot() throws IOException {
        Path f = Files.writeString(dir.resolve("other.json"), "{\"a\": 1}\n");
        CliRun replay = CliRun.of("replay", f.toString());
        CliRun advise = CliRun.of("advise", f.toString());
        assertThat(advise.status()).isEqualTo(2);
        assertThat(advise.err()).hasLineCount(1).contains("not a memory snapshot: expected a dict with 'device_traces'")
                .doesNotContain("unknown command");
        assertThat(advise.err().replace("advise", "")).isEqualTo(replay.err().replace("replay", ""));
    }

    @Test
    @DisplayName("an empty snapshot dict: its sentence starts with a capital")
    void noDevice() throws IOException {
        Path f = Files.writeString(dir.resolve("empty.json"), "{\"segments\": [], \"device_traces\": []}\n");
        CliRun r = CliRun.of("advise", f.toString());
        assertThat(r.status()).isZero();
        assertThat(r.out()).contains("no allocation history. No device has segments or a history.");
    }
}
