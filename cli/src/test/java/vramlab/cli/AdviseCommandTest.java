package vramlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@DisplayName("vramlab advise")
class AdviseCommandTest {
    private static final String FRAGMENTING = "alloc a 30MiB\nalloc b 1.5MiB\nfree a\nalloc c 46MiB\n";

    @Test
    @DisplayName("reads a trace from standard input and prints one table and the line to set")
    void stdin() {
        CliRun r = CliRun.withInput(FRAGMENTING, "advise", "--device", "64MiB", "-");
        assertThat(r.status()).as(r.err()).isZero();
        assertThat(r.out()).contains("card: 64.00 MiB (--device)")
                .containsPattern("(?m)^default +\\S+ \\S+ +\\S+ \\S+ \\([\\d.]+%\\) +1  event 4, line 4: alloc 46.00 MiB$")
                .contains("\n  PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True\n");
        assertThat(r.err()).isEmpty();
    }

    @Test
    @DisplayName("reads a file, and says when a snapshot records nothing to replay (exit 0)")
    void file(@TempDir Path dir) throws Exception {
        Path t = dir.resolve("t.trace");
        Files.writeString(t, FRAGMENTING);
        assertThat(CliRun.of("advise", "--device", "64MiB", t.toString()).out()).contains("advise: " + t);
        Path s = dir.resolve("empty.json");
        Files.writeString(s, "{\"device_traces\": [[]], \"segments\": []}");
        CliRun r = CliRun.of("advise", s.toString());
        assertThat(r.status()).isZero();
        assertThat(r.out()).contains("Nothing to replay");
    }

    @Test
    @DisplayName("bad input exits 2 with one line naming the file, line or option")
    void errors(@TempDir Path dir) throws Exception {
        CliRun missing = CliRun.of("advise", "/no/such.pickle");
        assertThat(missing.status()).isEqualTo(2);
        assertThat(missing.err()).isEqualTo("error: /no/such.pickle: no such file\n");
        CliRun device = CliRun.withInput(FRAGMENTING, "advise", "--device", "lots", "-");
        assertThat(device.status()).isEqualTo(2);
        assertThat(device.err()).startsWith("error: advise: --device 'lots'");
        CliRun trace = CliRun.withInput("alloc a 3MiB\nfree b\n", "advise", "-");
        assertThat(trace.status()).isEqualTo(2);
        assertThat(trace.err().lines()).singleElement().asString().startsWith("error: -:2:");
        assertThat(CliRun.of("advise").status()).isEqualTo(2);
    }

    @Test
    @DisplayName("is listed by the launcher and has --help")
    void listed() {
        assertThat(CliRun.of("--help").out()).contains("advise");
        assertThat(CliRun.of("advise", "--help").out()).contains("usage: vramlab advise");
    }
}
