package vramlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A snapshot from a newer PyTorch may hold a trace action the kit does not know. Unknown keys are
 * read past (PyTorch adds them release by release), and so are unknown actions, but an action that
 * allocated or freed would change the run: replay and advise now say which entries they skipped,
 * where before they said nothing. An annotation ({@code user_defined}) moves no memory and is not
 * named.
 */
@DisplayName("replay and advise name the trace entries whose action they do not know")
class SkippedActionsTest {
    /** One 2 MiB segment, a 512-byte alloc, an annotation and a 'segment_defrag' the kit has never seen. */
    private static final String SNAPSHOT = """
            {"segments": [], "device_traces": [[
              {"action": "segment_alloc", "addr": 2097152, "size": 2097152, "stream": 0, "new_key_2_13": 1},
              {"action": "alloc", "addr": 2097152, "size": 512, "stream": 0},
              {"action": "user_defined", "addr": 0, "size": 0, "stream": 0},
              {"action": "segment_defrag", "addr": 2097152, "size": 2097152, "stream": 0},
              {"action": "free_requested", "addr": 2097152, "size": 512, "stream": 0},
              {"action": "free_completed", "addr": 2097152, "size": 512, "stream": 0}
            ]]}
            """;

    @Test
    @DisplayName("one line under the file's, naming the action and its entry; exit 0")
    void named(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("newer.json");
        Files.writeString(f, SNAPSHOT);
        String line = "1 trace entry has an action the kit does not know ('segment_defrag' at entry 4): skipped,"
                + " so whatever it did to memory is not replayed";
        CliRun replay = CliRun.of("replay", f.toString());
        assertThat(replay.status()).as(replay.err()).isZero();
        assertThat(replay.out()).contains("\nskipped:  device 0: " + line + "\n").doesNotContain("user_defined");
        CliRun advise = CliRun.of("advise", f.toString());
        assertThat(advise.status()).as(advise.err()).isZero();
        assertThat(advise.out()).startsWith("advise: " + f + ", device 0, 6 trace entries\nskipped: " + line + "\n");
    }
}
