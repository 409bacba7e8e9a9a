package vramlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The launcher's contract for the formats it reads through libraries (issue 21). */
@DisplayName("the formats the launcher reads and writes")
class LibraryFormatsTest {
    @TempDir Path dir;

    @Nested
    @DisplayName("bad JSON")
    class BadJson {
        @ParameterizedTest(name = "{0}")
        @ValueSource(strings = {"replay", "advise"})
        @DisplayName("is one line error: FILE:LINE:COLUMN: ... and exit 2, no stack trace")
        void oneLine(String command) throws Exception {
            Path f = dir.resolve("snap.json");
            Files.writeString(f, "{\"device_traces\": [[]],\n  \"segments\": [1, 2,, 3]}\n", StandardCharsets.UTF_8);
            CliRun r = CliRun.of(command, f.toString());
            assertThat(r.status()).as(r.err()).isEqualTo(2);
            assertThat(r.err()).startsWith("error: " + f + ":2:21: bad JSON: Unexpected character (','")
                    .doesNotContain("\tat ");
            assertThat(r.err().lines()).hasSize(1);
        }
    }
}
