package vramlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An empty paste is a mistake to name: ./vramlab triage with nothing on standard input, or an
 * empty file, printed a whole report of cause NOT_PYTORCH_OOM ("look up the memory settings of
 * the framework or library that printed this one") about a text nobody printed, exit 0.
 */
@DisplayName("triage of an empty paste: one line naming where nothing was, exit 2")
class TriageEmptyPasteTest {
    @TempDir
    Path dir;

    @Test
    @DisplayName("nothing on standard input")
    void emptyStdin() {
        CliRun r = CliRun.withInput("", "triage");
        assertThat(r.status()).isEqualTo(2);
        assertThat(r.out()).isEmpty();
        assertThat(r.err()).hasLineCount(1).startsWith("error: <stdin>: empty: expected the text of an"
                + " out-of-memory error");
    }

    @Test
    @DisplayName("an empty file, and one of blank lines, with --json too")
    void emptyFiles() throws IOException {
        Path empty = Files.writeString(dir.resolve("oom.txt"), "");
        Path blank = Files.writeString(dir.resolve("blank.txt"), "\n  \n\t\n");
        CliRun a = CliRun.of("triage", empty.toString());
        assertThat(a.status()).isEqualTo(2);
        assertThat(a.err()).hasLineCount(1).startsWith("error: " + empty + ": empty: ");
        CliRun b = CliRun.of("triage", "--json", blank.toString());
        assertThat(b.status()).isEqualTo(2);
        assertThat(b.out()).isEmpty();
        assertThat(b.err()).hasLineCount(1).startsWith("error: " + blank + ": only blank space: ");
    }

    @Test
    @DisplayName("a text that is not an OOM is still read and answered, exit 0")
    void otherTextStillAnswered() {
        CliRun r = CliRun.withInput("Segmentation fault (core dumped)\n", "triage");
        assertThat(r.status()).isZero();
        assertThat(r.out()).contains("NOT_PYTORCH_OOM");
    }
}
