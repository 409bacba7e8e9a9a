package vramlab.playground;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPInputStream;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import vramlab.kit.RealSnapshotsFolder;

@DisplayName("The paste-a-snapshot page's replay")
class SnapshotRunTest {
    /** ../shared/real-snapshots/snapshots beside the kit; without it each case skips saying why. */
    static Path folder() {
        Path dir = RealSnapshotsFolder.snapshots().orElse(null);
        assumeTrue(dir != null, RealSnapshotsFolder.MISSING);
        return dir;
    }

    static byte[] gunzip(Path gz) throws IOException {
        try (InputStream in = new GZIPInputStream(Files.newInputStream(gz))) {
            return in.readAllBytes();
        }
    }

    @ParameterizedTest(name = "{0} under {1}")
    @CsvSource(delimiter = '|', value = {
        "maphsge4.snapshot.device1-only.pickle.gz|",
        "yiyi.oom_snapshot.legacy.pickle.gz|",
        "yiyi.oom_snapshot.legacy.pickle.gz|pytorch+expandable",
        "silmont2000.mem_snapshot.pickle.gz|",
        "silmont2000.mem_snapshot.pickle.gz|toy",
    })
    @DisplayName("prints what ./vramlab replay prints for the same real snapshot")
    void sameAsLauncher(String name, String policy) throws Exception {
        Path gz = folder().resolve(name);
        String p = policy == null ? "" : policy;
        String page = SnapshotRun.run(gunzip(gz), gz.toString(), p, "");
        Launcher.Run cli = p.isEmpty() ? Launcher.run("replay", gz.toString())
                : Launcher.run(("replay " + TraceRun.Choice.of(p).options() + " " + gz).split(" "));
        assertThat(cli.exit()).as(cli.err()).isZero();
        assertThat(page).isEqualTo(cli.out()).contains("peak reserved");
    }

    @Test
    @DisplayName("a file that is no snapshot is named in one error line")
    void notASnapshot() {
        assertThat(SnapshotRun.run("alloc a 1MiB\n".getBytes(), "trace.txt", "", ""))
                .isEqualTo("error: trace.txt: not a PyTorch memory snapshot (a pickle, or its dict as JSON)\n");
    }

    @Test
    @DisplayName("a snapshot saved as JSON is sent to ./vramlab replay (the bundle carries no JSON library)")
    void jsonGoesToTheLauncher() {
        assertThat(SnapshotRun.run("  {\"device_traces\": []}".getBytes(), "run.json", "", ""))
                .isEqualTo("error: run.json: this page reads pickled snapshots (torch.cuda.memory._dump_snapshot);"
                        + " for a snapshot saved as JSON, run ./vramlab replay run.json\n");
    }

    @Test
    @DisplayName("a broken pickle gives an error, not a stack trace")
    void broken() throws Exception {
        byte[] whole = gunzip(folder().resolve("yiyi.oom_snapshot.legacy.pickle.gz"));
        byte[] half = java.util.Arrays.copyOf(whole, whole.length / 2);
        assertThat(SnapshotRun.run(half, "half.pickle", "", "")).startsWith("error: ");
    }
}
