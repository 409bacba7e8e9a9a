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
    @DisplayName("--json keeps its keys, in this order, and adds the ranking of causes against the shortfall")
    void jsonKeys() {
        assertThat(run(MESSAGE, "triage", "--json")).isEqualTo(0);
        String json = out().trim();
        String[] keys = {"cause", "step", "family", "backend", "source", "numbers", "processes", "evidence",
            "fixes", "missing", "notes", "shortfall", "ranked", "runnerUp", "tellApart", "assumption", "finding",
            "shortfallErrorBytes", "numbersErrorBytes"};
        int at = -1;
        for (String k : keys) {
            int i = json.indexOf("\"" + k + "\":");
            assertThat(i).as(k).isGreaterThan(at);
            at = i;
        }
        assertThat(json).contains("\"shortfall\":966367642")
                .contains("\"ranked\":[{\"cause\":\"OTHER_PROCESSES\",\"share\":100,\"bytes\":9663676416,"
                        + "\"enoughAlone\":true,\"evidence\":\"2. Other processes: process 5150 (9.00 GiB) holds 9.00 GiB");
    }

    @Test
    @DisplayName("reads a snapshot's recorded OOM (JSON or pickle), and --device gives the card's size")
    void snapshot(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("oom.json");
        Files.writeString(f, """
                {"segments": [{"device": 0, "address": 0, "total_size": 41943040, "is_expandable": false,
                  "blocks": [{"address": 0, "size": 8388608, "state": "active_allocated"},
                             {"address": 8388608, "size": 33554432, "state": "inactive"}]}],
                 "device_traces": [[{"action": "alloc", "addr": 0, "size": 8388608, "stream": 0},
                                    {"action": "oom", "size": 52428800, "device_free": 4194304, "stream": 0}]]}
                """);
        assertThat(run("", "triage", f.toString())).isEqualTo(0);
        assertThat(out()).contains("Format: a PyTorch memory snapshot").contains("Most likely cause: FULL_OR_DRIVER_RESERVE")
                .contains("the largest free block was 32.00 MiB, the request needed 50.00 MiB");
        out.reset();
        assertThat(run("", "triage", "--device", "8GiB", "--json", f.toString())).isEqualTo(0);
        assertThat(out()).contains("\"capacity\":8589934592");
        assertThat(run(MESSAGE, "triage", "--device", "8GiB")).isEqualTo(2);
    }

    @Test
    @DisplayName("a snapshot with nothing in it (no oom entry, no segments, no history) is a result, as replay's and"
            + " advise's: exit 0, nothing to triage, how to record the next failure")
    void snapshotWithNothingInIt(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("fine.json");
        Files.writeString(f, "{\"segments\": [], \"device_traces\": [[]]}");
        assertThat(run("", "triage", f.toString())).isEqualTo(0);
        assertThat(out()).contains("Nothing to triage: no 'oom' entry").contains("_record_memory_history(");
        assertThat(err.toString(StandardCharsets.UTF_8)).isEmpty();
    }

    /** https://github.com/huggingface/autotrain-advanced/issues/737 (PyTorch on ROCm, 2024). */
    private static final String HIP = "torch.OutOfMemoryError: HIP out of memory. Tried to allocate 124.00 MiB. "
            + "GPU 0 has a total capacity of 19.94 GiB of which 554.47 MiB is free. Of the allocated memory "
            + "15.87 GiB is allocated by PyTorch, and 165.29 MiB is reserved by PyTorch but unallocated. If "
            + "reserved but unallocated memory is large try setting PYTORCH_HIP_ALLOC_CONF=expandable_segments:True "
            + "to avoid fragmentation.  See documentation for Memory Management  "
            + "(https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)\n";

    @Test
    @DisplayName("a ROCm (HIP) message is triaged like CUDA's, in text and in --json")
    void rocm() {
        assertThat(run(HIP, "triage")).isEqualTo(0);
        assertThat(out()).doesNotContain("NOT_PYTORCH_OOM").contains("Most likely cause: ")
                .contains("'HIP out of memory' is PyTorch built for ROCm");
        out.reset();
        assertThat(run(HIP, "triage", "--json")).isEqualTo(0);
        String json = out().trim();
        assertThat(json).doesNotStartWith("{\"cause\":\"NOT_PYTORCH_OOM\"").contains("\"backend\":\"HIP\"");
    }

    @Test
    @DisplayName("a message with decimal commas gives its figures, and the report says the commas were read")
    void decimalCommas() {
        assertThat(run(MESSAGE.replaceAll("(\\d)\\.(\\d\\d) ([MG]iB)", "$1,$2 $3"), "triage")).isEqualTo(0);
        assertThat(out()).contains("Most likely cause: OTHER_PROCESSES").contains("Commas were read as decimal points")
                .doesNotContain("missing:");
    }

    @Test
    @DisplayName("--help names ROCm as read like CUDA, and decimal commas")
    void help() {
        assertThat(run("", "triage", "--help")).isEqualTo(0);
        assertThat(out()).contains("PyTorch on ROCm (\"HIP out of memory\")").contains("decimal comma")
                .contains("(1.024,00 MiB)").contains("a raw HIP error");
    }

    @Test
    @DisplayName("each command's --help says which --device it takes: PyTorch's share (replay, advise), the card's"
            + " total (triage of a snapshot's OOM)")
    void deviceHelp() {
        for (String command : new String[] {"replay", "advise"}) {
            CliRun h = CliRun.of(command, "--help");
            String words = h.out().replaceAll("\\s+", " ");
            assertThat(words).as(command).contains("the memory PyTorch's allocator can have on the card, its share: the"
                    + " card's total less the CUDA context and other processes").contains("which is what triage's"
                    + " --device takes");
        }
        String triage = CliRun.of("triage", "--help").out().replaceAll("\\s+", " ");
        assertThat(triage).contains("With an oom entry: the card's total as CUDA reports it"
                + " (torch.cuda.mem_get_info()[1], the 'total capacity' of PyTorch's OOM message)")
                .contains("not PyTorch's share that replay's and advise's --device take")
                .contains("Without an oom entry: the memory PyTorch may have in the replay of what would fail first,"
                        + " as replay's --device");
    }

    @Test
    @DisplayName("a look-alike is said to be one, with exit 0")
    void lookAlike() {
        assertThat(run("RuntimeError: MPS backend out of memory (MPS allocated: 9.00 GB)", "triage")).isEqualTo(0);
        assertThat(out()).contains("NOT_PYTORCH_OOM").contains("Apple MPS");
    }
}
