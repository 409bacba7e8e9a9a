package vramlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code replay --memory-fraction} in a JVM of its own, as the launcher runs it: a bad value is
 * one line on standard error and status 2 (no stack trace) on both parse paths, and the fast
 * path, which takes {@code --memory-fraction 0.5} and {@code 1.5} alike, never loads picocli.
 * Process launches: under -Pgrading-fixtures.
 */
@Tag("grading-fixtures")
@DisplayName("replay --memory-fraction, launched")
class ReplayMemoryFractionLaunchTest {
    @TempDir Path tmp;

    private record Launch(int status, String out, String err) {}

    private Launch launch(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xlog:class+load=info:file=" + tmp.resolve("classes.log"), "-cp", System.getProperty("java.class.path"),
                "vramlab.cli.Main"));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                .redirectError(tmp.resolve("err.txt").toFile()).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return new Launch(p.exitValue(), out, Files.readString(tmp.resolve("err.txt")));
    }

    private boolean picocliLoaded() throws IOException {
        return Files.readString(tmp.resolve("classes.log")).contains("picocli.CommandLine ");
    }

    @Test
    @DisplayName("a bad value: one line, status 2, on the fast path and on picocli's")
    void badValueOneLine() throws Exception {
        String t = Files.writeString(tmp.resolve("t.txt"), "alloc a 512MiB\nalloc b 2MiB\n").toString();
        for (String value : List.of("1.5", "-0.5")) {
            Launch l = launch("replay", "--policy", "pytorch", "--memory-fraction", value, t);
            assertThat(l.status()).isEqualTo(2);
            assertThat(l.err()).isEqualTo("error: replay: --memory-fraction '" + value + "': expected a number from"
                    + " 0 to 1, as torch.cuda.set_per_process_memory_fraction takes (the limit is that fraction of the card)\n");
            assertThat(l.out()).isEmpty();
            assertThat(picocliLoaded()).as("picocli for %s", value).isEqualTo(value.startsWith("-"));
        }
        Launch ok = launch("replay", "--policy", "pytorch", "--device", "1GiB", "--memory-fraction", "0.5", t);
        assertThat(ok.status()).as(ok.err()).isZero();
        assertThat(ok.out()).contains("events: 2, OOMs: 1").contains("512.00 MiB allowed");
        assertThat(picocliLoaded()).as("the fast path stays without picocli").isFalse();
    }
}
