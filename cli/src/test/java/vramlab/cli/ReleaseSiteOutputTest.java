package vramlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./vramlab release DIR > release.log 2>&1}, as an instructor keeps a release's output:
 * the site's render printed Maven's terminal escape codes ({@code ESC[0m}) and the site's own
 * {@code index.html} path into it, on the release's standard output, because the render
 * inherited the console. It now runs as {@code ./vramlab site} runs its build: Maven's lines on
 * standard error, without escape codes when no terminal watches. A shell script stands in for
 * Maven here (a process: {@code -Pgrading-fixtures}).
 */
@Tag("grading-fixtures")
@DisabledOnOs(OS.WINDOWS)
class ReleaseSiteOutputTest {
    @TempDir Path root;

    @Test
    @DisplayName("release's site render writes Maven's lines to standard error, without escape codes, and nothing to standard output")
    void renderOutput() throws Exception {
        ProcessBuilder fakeMaven = new ProcessBuilder(List.of("sh", "-c",
                "printf '\\033[0m\\033[0mlabs regenerated: 31 steps\\n'; mkdir -p site/target/site;"
                        + " touch site/target/site/index.html; echo \"$PWD/site/target/site/index.html\""))
                .directory(root.toFile());
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        Io io = new Io(new ByteArrayInputStream(new byte[0]), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));

        Path site = ReleaseCommand.renderStudentSite(root, fakeMaven, io);

        assertThat(site).isEqualTo(root.resolve("site/target/site"));
        assertThat(out.toString(StandardCharsets.UTF_8)).as("the release's standard output").isEmpty();
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("labs regenerated: 31 steps")
                .contains("site/target/site/index.html").doesNotContain("\u001b");
    }
}
