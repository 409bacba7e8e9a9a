package vramlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ReplayCommandTest {
    @TempDir Path dir;

    Path trace(String text) throws IOException {
        Path p = dir.resolve("t.trace");
        Files.writeString(p, text);
        return p;
    }

    @Nested
    @DisplayName("given the seed's fragmentation trace on a 40 MiB toy card")
    class Fragmentation {
        static final String TRACE = """
                # four 4 MiB and four 6 MiB blocks, alternating
                alloc a0 3145729
                alloc b0 5242881
                alloc a1 3145729
                alloc b1 5242881
                alloc a2 3145729
                alloc b2 5242881
                alloc a3 3145729
                alloc b3 5242881
                free a0
                free a1
                free a2
                free a3
                alloc big 8MiB   # free 16 MiB >= 8 MiB, and it fails
                free big         # skipped: the program would have died above
                empty_cache
                """;

        @Test
        @DisplayName("--csv prints one row per event with the counters after it")
        void csvRows() throws IOException {
            CliRun r = CliRun.of("replay", "--policy", "toy", "--device", "40MiB", "--csv", trace(TRACE).toString());
            assertThat(r.status()).as(r.err()).isZero();
            assertThat(r.out().lines()).hasSize(16).first().isEqualTo("step,op,handle,bytes,result,requested,allocated,reserved");
            assertThat(r.out().lines().toList().subList(8, 16)).containsExactly(
                    "8,alloc,b3,5242881,ok,33554440,41943040,41943040",
                    "9,free,a0,3145729,ok,30408711,37748736,41943040",
                    "10,free,a1,3145729,ok,27262982,33554432,41943040",
                    "11,free,a2,3145729,ok,24117253,29360128,41943040",
                    "12,free,a3,3145729,ok,20971524,25165824,41943040",
                    "13,alloc,big,8388608,oom,20971524,25165824,41943040",
                    "14,free,big,0,skipped,20971524,25165824,41943040",
                    "15,empty_cache,,0,ok,20971524,25165824,41943040");
        }

        @Test
        @DisplayName("the human summary prints the OOM's message, the peaks and the segment map")
        void summary() throws IOException {
            CliRun r = CliRun.of("replay", "--device", "40MiB", "--policy", "toy", trace(TRACE).toString());
            assertThat(r.status()).isZero();
            assertThat(r.out()).contains("OOM at step 13 (line 14, alloc big 8.00 MiB): CUDA out of memory. Tried to allocate 20 MiB")
                    .contains("events: 15, OOMs: 1, skipped frees: 1")
                    .contains("segment 0 (large, 20M): |....######....######|");
        }

        @Test
        @DisplayName("read ahead on a second thread (a trace over a megabyte), the same rows, handles and OOM")
        void readAhead() throws IOException {
            int pad = 30_000;
            CliRun small = CliRun.of("replay", "--policy", "toy", "--device", "40MiB", "--csv", trace(TRACE).toString());
            Path big = dir.resolve("big.trace");
            Files.writeString(big, "# padding, so that the trace is over a megabyte\n".repeat(pad) + TRACE);
            assertThat(Files.size(big)).isGreaterThan(1 << 20);
            CliRun ahead = CliRun.of("replay", "--policy", "toy", "--device", "40MiB", "--csv", big.toString());
            assertThat(ahead.status()).as(ahead.err()).isZero();
            assertThat(ahead.out()).as("every row, each handle named").isEqualTo(small.out());
            CliRun summary = CliRun.of("replay", "--device", "40MiB", "--policy", "toy", big.toString());
            assertThat(summary.out()).contains("OOM at step 13 (line " + (14 + pad) + ", alloc big 8.00 MiB): CUDA out of memory.");
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            unknown op          | alloc a 1MiB\\nmalloc b 2    | t.trace:2: unknown command 'malloc'
            bad size            | alloc a 12XB                  | t.trace:1: bad size '12XB'
            zero size           | alloc a 0                     | t.trace:1: bad size '0'
            missing size        | alloc a                       | t.trace:1: 'alloc a': expected alloc <handle> <size>
            double alloc        | alloc a 1\\nalloc a 2          | t.trace:2: alloc of handle 'a', which is still live
            free of unknown     | alloc a 1\\nfree b             | t.trace:2: free of unknown handle 'b'
            double free         | alloc a 1\\nfree a\\nfree a     | t.trace:3: free of unknown handle 'a'
            """)
    @DisplayName("bad traces exit 2 with error: FILE:LINE: what, and no stack trace")
    void badTraces(String name, String text, String message) throws IOException {
        Path p = trace(text.replace("\\n", "\n"));
        CliRun r = CliRun.of("replay", "--csv", p.toString());
        assertThat(r.status()).isEqualTo(2);
        assertThat(r.err()).startsWith("error: " + p.getParent() + "/" + message).doesNotContain("\tat ");
        assertThat(r.err().lines()).hasSize(1);

        // over a megabyte, the trace is read ahead on a second thread: the same error, in its place
        int pad = 30_000;
        Path big = dir.resolve("big.trace");
        Files.writeString(big, "# padding, so that the trace is over a megabyte\n".repeat(pad) + text.replace("\\n", "\n"));
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("^t\\.trace:(\\d+):").matcher(message);
        assertThat(m.find()).isTrue();
        String shifted = "big.trace:" + (Long.parseLong(m.group(1)) + pad) + ":" + message.substring(m.end());
        CliRun ahead = CliRun.of("replay", big.toString());
        assertThat(ahead.status()).isEqualTo(2);
        assertThat(ahead.err()).startsWith("error: " + big.getParent() + "/" + shifted).doesNotContain("\tat ");
        assertThat(ahead.err().lines()).hasSize(1);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            no file            | replay                                   | error: replay: expected one trace FILE
            missing file       | replay /no/such.trace                    | error: /no/such.trace: no such file
            unknown policy     | replay --policy best /x                  | error: replay: unknown policy 'best'
            bad device         | replay --device lots /x                  | error: replay: --device 'lots'
            unknown option     | replay --fast /x                         | error: replay: unknown option --fast
            unknown command    | rewind                                   | error: vramlab: unknown command 'rewind'
            unknown chapter    | lab 99                                   | error: lab: no chapter '99'
            """)
    @DisplayName("usage errors exit 2 with one line naming what was wrong")
    void usageErrors(String name, String args, String message) {
        CliRun r = CliRun.of(args.split(" "));
        assertThat(r.status()).isEqualTo(2);
        assertThat(r.err()).startsWith(message);
        assertThat(r.err().lines()).hasSize(1);
    }

    @Test
    @DisplayName("a trace can come from standard input, and every command has --help")
    void stdinAndHelp() {
        CliRun r = CliRun.withInput("alloc x 1KiB\nfree x\n", "replay", "--csv", "-");
        assertThat(r.out()).contains("1,alloc,x,1024,ok,1024,1024,2097152", "2,free,x,1024,ok,0,0,2097152");
        for (String c : Main.commands().keySet()) {
            CliRun h = CliRun.of(c, "--help");
            assertThat(h.status()).as(c).isZero();
            assertThat(h.out()).as(c).startsWith("usage: vramlab " + c);
        }
    }

    /** Where --export cannot write: the error comes before the replay, which prints nothing. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            a missing folder      | out/run.pickle     | no such directory {dir}/out, expected a file in an existing one
            a file as the folder  | t.trace/run.pickle | {dir}/t.trace is a file, expected a directory
            a folder as the file  | .                  | is a directory, expected a file
            """)
    @DisplayName("--export to a path that cannot be written exits 2 before the replay, naming the option and path")
    void exportChecked(String name, String target, String what) throws IOException {
        Path t = trace("alloc a 1MiB\nfree a\n");
        String path = dir.resolve(target).toString();
        String expected = "error: replay: --export " + path + ": " + what.replace("{dir}", dir.toString()) + "\n";
        for (String[] args : new String[][] {
                {"replay", "--export", path, t.toString()},                              // the plain reader's path
                {"replay", "--map", "--export", path, "--policy", "pytorch", t.toString()},
                {"replay", "--export", path, "--", t.toString()}}) {                    // picocli's
            CliRun r = CliRun.of(args);
            assertThat(r.status()).as(String.join(" ", args)).isEqualTo(2);
            assertThat(r.err()).isEqualTo(expected);
            assertThat(r.out()).isEmpty();
        }
        assertThat(dir.resolve("out")).doesNotExist();
    }

    @Test
    @DisplayName("--export into a folder the user cannot write exits 2 before the replay")
    void exportReadOnly() throws IOException {
        Path ro = Files.createDirectory(dir.resolve("ro"));
        assertThat(ro.toFile().setWritable(false, false)).isTrue();
        try {
            org.junit.jupiter.api.Assumptions.assumeFalse(Files.isWritable(ro), "root writes anywhere");
            Path out = ro.resolve("run.pickle");
            CliRun r = CliRun.of("replay", "--export", out.toString(), trace("alloc a 1MiB\n").toString());
            assertThat(r.status()).isEqualTo(2);
            assertThat(r.err()).isEqualTo("error: replay: --export " + out + ": cannot write in " + ro + "\n");
            assertThat(r.out()).isEmpty();
        } finally {
            ro.toFile().setWritable(true, false);
        }
    }

    @Test
    @DisplayName("--export into a folder that exists writes the snapshot after the summary")
    void exportWritten() throws IOException {
        Path out = dir.resolve("run.pickle");
        CliRun r = CliRun.of("replay", "--export", out.toString(), trace("alloc a 1MiB\n").toString());
        assertThat(r.status()).as(r.err()).isZero();
        assertThat(r.out()).endsWith("snapshot written to " + out + "\n");
        assertThat(out).isNotEmptyFile();
    }
}
