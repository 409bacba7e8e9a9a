package vramlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
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

    @Nested
    @DisplayName("the command line (picocli)")
    class CommandLine {
        @Test
        @DisplayName("--version prints the kit's version, the one in the root POM")
        void version() throws Exception {
            String pom = Files.readString(Path.of(System.getProperty("user.dir")).resolve("../pom.xml"));
            Matcher m = Pattern.compile("<artifactId>vramlab</artifactId>\\s*<version>([^<]+)</version>").matcher(pom);
            assertThat(m.find()).isTrue();
            CliRun r = CliRun.of("--version");
            assertThat(r.status()).isZero();
            assertThat(r.out()).isEqualTo("vramlab " + m.group(1) + "\n");
        }

        @ParameterizedTest(name = "{0}")
        @CsvSource(delimiter = '|', textBlock = """
                replay --hepl /x     | error: replay: unknown option --hepl (did you mean --help?)
                replay --hepl        | error: replay: unknown option --hepl (did you mean --help?)
                triage --jsno        | error: triage: unknown option --jsno (did you mean --json?)
                grade --practise     | error: grade: unknown option --practise (did you mean --practice?)
                repaly x             | error: vramlab: unknown command 'repaly' (did you mean replay
                replay --dev=1GiB /x | error: replay: unknown option --dev=1GiB (did you mean
                replay --device      | error: replay: --device needs a value
                replay --device 0 /x | error: replay: --device '0': expected a size more than 0, such as 40MiB or 80GiB
                advise --device 2XB  | error: advise: --device '2XB': expected a size such as 40MiB or 80GiB
                replay --device 24 /x | error: replay: --device '24': a number without a unit: expected a size such as 40MiB or 80GiB (24B if bytes are meant)
                advise --device 24 /x | error: advise: --device '24': a number without a unit: expected a size such as 40MiB or 80GiB (24B if bytes are meant)
                triage --max-input 9 | error: triage: --max-input '9': a number without a unit: expected a size such as 40MiB or 80GiB (9B if bytes are meant)
                advise --device 1.5 /x | error: advise: --device '1.5': a number without a unit: expected a size such as 40MiB or 80GiB (1.5 is no whole number of bytes)
                advise --device -5GiB /x | error: advise: --device '-5GiB': expected a size more than 0, such as 40MiB or 80GiB
                replay --device 0B /x | error: replay: --device '0B': expected a size more than 0, such as 40MiB or 80GiB
                replay --device 5TiB /x | error: replay: --device '5TiB': expected a card of at most 4 TiB, the largest the kit simulates
                grade --jobs none    | error: grade: --jobs 'none': expected a whole number, at least 1
                """)
        @DisplayName("a usage error is one line, exit 2, with the close match for a typo")
        void typos(String args, String message) {
            CliRun r = CliRun.of(args.split(" "));
            assertThat(r.status()).isEqualTo(2);
            assertThat(r.err()).startsWith(message).doesNotContain("\tat ").doesNotContain("Exception");
            assertThat(r.err().lines()).hasSize(1);
            assertThat(r.out()).isEmpty();
        }

        @Test
        @DisplayName("a size option takes the kit's units, as --key value or --key=value; - is standard input")
        void sizes() {
            CliRun r = CliRun.withInput("alloc a 1KiB\n", "replay", "--csv", "--device=1.5GiB", "-");
            assertThat(r.status()).as(r.err()).isZero();
            assertThat(r.out()).startsWith("step,op,handle,bytes,result,requested,allocated,reserved\n");
            CliRun small = CliRun.withInput("alloc a 4MiB\n", "replay", "--csv", "--device", "2MiB", "-");
            assertThat(small.out()).contains(",oom,");
        }

        @Test
        @DisplayName("every command's --help is generated: synopsis first, then its options with their words")
        void help() {
            for (String c : Main.commands().keySet()) {
                CliRun h = CliRun.of(c, "--help");
                assertThat(h.status()).as(c).isZero();
                assertThat(h.out()).as(c).startsWith("usage: vramlab " + c).contains("-h, --help");
                CliRun viaHelp = CliRun.of("help", c);
                assertThat(viaHelp.out()).as(c).isEqualTo(h.out());
            }
            assertThat(CliRun.of("replay", "--help").out())
                    .contains("--device=SIZE", "the memory PyTorch's allocator can have on the card", "--csv", "--export=SNAPSHOT", "FILE");
        }

        @Test
        @DisplayName("the bash completion script is generated and knows every command and its options")
        void completion() {
            CliRun r = CliRun.of("completion");
            assertThat(r.status()).as(r.err()).isZero();
            assertThat(r.out()).startsWith("#!/usr/bin/env bash").contains("complete -F");
            for (String c : Main.commands().keySet()) assertThat(r.out()).as(c).contains(c);
            assertThat(r.out()).contains("--alloc-conf", "--device-index", "--instructor", "--visibility");
        }
    }
}
