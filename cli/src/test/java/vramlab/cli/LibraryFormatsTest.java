package vramlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;

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

    @Nested
    @DisplayName("replay --csv")
    class ReplayCsv {
        @Test
        @DisplayName("a handle with a comma and a quote is one quoted cell that a CSV reader reads back")
        void quotedHandle() throws Exception {
            Path f = dir.resolve("t.trace");
            Files.writeString(f, "alloc w,\"1\" 4MiB\nalloc plain 1MiB\nfree w,\"1\"\n", StandardCharsets.UTF_8);
            CliRun r = CliRun.of("replay", "--csv", f.toString());
            assertThat(r.status()).as(r.err()).isZero();
            List<CSVRecord> rows = CSVParser.parse(r.out(), CSVFormat.RFC4180).getRecords();
            assertThat(rows).hasSize(4).allSatisfy(row -> assertThat(row.size()).isEqualTo(8));
            assertThat(rows.get(0).toList()).containsExactly(
                    "step", "op", "handle", "bytes", "result", "requested", "allocated", "reserved");
            assertThat(rows.get(1).get(2)).isEqualTo("w,\"1\"");
            assertThat(rows.get(3).get(1)).isEqualTo("free");
            assertThat(rows.get(3).get(2)).isEqualTo("w,\"1\"");
            assertThat(r.out()).contains(",\"w,\"\"1\"\"\",");
        }
    }
}
