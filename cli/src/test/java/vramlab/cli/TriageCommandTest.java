package vramlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@DisplayName("vramlab triage")
class TriageCommandTest {
    private static final String MESSAGE = "[rank0]: torch.OutOfMemoryError: CUDA out of memory. Tried to "
            + "allocate 2.00 GiB. GPU 0 has a total capacity of 23.65 GiB of which 1.10 GiB is free.\n"
            + "[rank0]: Process 5150 has 9.00 GiB memory in use. Including non-PyTorch memory, this "
            + "process has 13.50 GiB memory in use. Of the allocated memory 12.70 GiB is allocated by "
            + "PyTorch, and 100.00 MiB is reserved by PyTorch but unallocated.\n";

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String stdin, String... args) {
        Io io = new Io(new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        return Main.run(args, io);
    }

    private String out() { return out.toString(StandardCharsets.UTF_8); }

    @Test
    @DisplayName("reads standard input with no FILE, and names the cause and its fixes")
    void stdin() {
        assertThat(run(MESSAGE, "triage")).isEqualTo(0);
        assertThat(out()).contains("Most likely cause: OTHER_PROCESSES")
                .contains("process 5150").contains("nvidia-smi --query-compute-apps");
    }

    @Test
    @DisplayName("reads a FILE, and - means standard input")
    void file(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("oom.txt");
        Files.writeString(f, MESSAGE);
        assertThat(run("", "triage", f.toString())).isEqualTo(0);
        String fromFile = out();
        out.reset();
        assertThat(run(MESSAGE, "triage", "-")).isEqualTo(0);
        assertThat(out()).isEqualTo(fromFile);
    }

    @Test
    @DisplayName("--json prints one object with cause, numbers in bytes, evidence and fixes")
    void json() {
        assertThat(run(MESSAGE, "triage", "--json")).isEqualTo(0);
        String json = out().trim();
        assertThat(json).startsWith("{\"cause\":\"OTHER_PROCESSES\"")
                .contains("\"numbers\":{\"requested\":2147483648,")
                .contains("\"otherProcesses\":9663676416")
                .contains("\"evidence\":[\"").contains("\"fixes\":[\"")
                .doesNotContain("\n");
    }

    @Test
    @DisplayName("a missing file exits 2 with one line naming it")
    void missingFile() {
        assertThat(run("", "triage", "/no/such/oom.txt")).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).isEqualTo("error: /no/such/oom.txt: no such file\n");
    }

    @Test
    @DisplayName("a look-alike is said to be one, with exit 0")
    void lookAlike() {
        assertThat(run("RuntimeError: MPS backend out of memory (MPS allocated: 9.00 GB)", "triage")).isEqualTo(0);
        assertThat(out()).contains("NOT_PYTORCH_OOM").contains("Apple MPS");
    }
}
