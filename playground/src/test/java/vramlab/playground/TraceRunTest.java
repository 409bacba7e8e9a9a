package vramlab.playground;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

@DisplayName("A playground's replay")
class TraceRunTest {
    @TempDir Path dir;

    /** Every playground under every policy of the menu, on its own card. */
    static Stream<Object[]> cases() {
        List<Object[]> out = new ArrayList<>();
        for (Playground p : Playground.all()) {
            if (!p.hasTrace()) continue;
            for (TraceRun.Choice c : TraceRun.Choice.values()) out.add(new Object[] {p, c});
        }
        return out.stream();
    }

    @Nested
    @DisplayName("prints what the launcher prints")
    class SameAsLauncher {
        @TestFactory
        @DisplayName("run to the end: the summary is ./vramlab replay's output, the rows are --csv's")
        Stream<DynamicTest> wholeTrace() {
            return cases().map(c -> DynamicTest.dynamicTest(((Playground) c[0]).id() + " " + c[1], () -> {
                Playground p = (Playground) c[0];
                TraceRun.Choice choice = (TraceRun.Choice) c[1];
                TraceRun.Result r = TraceRun.run(p.trace(), choice.id(), p.card(), -1);
                Launcher.Run summary = Launcher.replay(dir, p.trace(), choice, p.card(), false);
                Launcher.Run csv = Launcher.replay(dir, p.trace(), choice, p.card(), true);
                assertThat(summary.exit()).as(summary.err()).isZero();
                assertThat(r.error()).isEmpty();
                assertThat(r.step()).isEqualTo(r.events()).isPositive();
                assertThat(r.summary()).isEqualTo(summary.out());
                assertThat(String.join("\n", r.csv()) + "\n").isEqualTo(csv.out());
            }));
        }

        @ParameterizedTest(name = "after step {0}")
        @CsvSource({"0", "1", "5", "8", "12", "13", "14"})
        @DisplayName("after step k: what the launcher prints for the trace's first k events")
        void prefix(int k) throws Exception {
            Playground p = Playground.of("ch04");
            String prefix = firstEvents(p.trace(), k);
            TraceRun.Result r = TraceRun.run(p.trace(), p.policy(), p.card(), k);
            assertThat(r.step()).isEqualTo(k);
            assertThat(r.summary()).isEqualTo(Launcher.replay(dir, prefix, TraceRun.Choice.of(p.policy()),
                    p.card(), false).out());
        }

        @Test
        @DisplayName("a step past the end stays at the end")
        void pastTheEnd() {
            Playground p = Playground.of("ch04");
            TraceRun.Result all = TraceRun.run(p.trace(), p.policy(), p.card(), -1);
            TraceRun.Result past = TraceRun.run(p.trace(), p.policy(), p.card(), all.events() + 3);
            assertThat(past.step()).isEqualTo(all.events());
            assertThat(past.summary()).isEqualTo(all.summary());
        }
    }

    @Nested
    @DisplayName("shows an OOM")
    class Oom {
        @Test
        @DisplayName("chapter 4's trace fails with the very message chapter 4's lab prints")
        void realOom() {
            Playground p = Playground.of("ch04");
            TraceRun.Result r = TraceRun.run(p.trace(), p.policy(), p.card(), -1);
            String labOom = p.labOutput().lines().filter(l -> l.startsWith("OOM: ")).findFirst().orElseThrow()
                    .substring("OOM: ".length());
            assertThat(r.oom()).endsWith("): " + labOom);
            assertThat(r.summary().lines()).contains(r.oom());
        }

        @Test
        @DisplayName("before the failing step there is no OOM to show")
        void notYet() {
            Playground p = Playground.of("ch04");
            assertThat(TraceRun.run(p.trace(), p.policy(), p.card(), 12).oom()).isEmpty();
        }

    }

    @Nested
    @DisplayName("draws the segment map")
    class Map {
        @Test
        @DisplayName("one row per segment, the same figure the notes draw")
        void svg() {
            Playground p = Playground.of("ch04");
            TraceRun.Result r = TraceRun.run(p.trace(), p.policy(), p.card(), 8);
            assertThat(r.svg()).startsWith("<svg").contains("segment 0 (large, 20M)",
                    "segment 1 (large, 20M)").contains("after step 8 of 15");
            assertThat(TraceRun.run(p.trace(), p.policy(), p.card(), 0).svg()).contains("(no segments)");
        }
    }

    @Nested
    @DisplayName("says what is wrong with bad input, as the launcher does, by line")
    class BadInput {
        @ParameterizedTest(name = "{0}")
        @CsvSource(delimiter = '|', value = {
            "frob x|2",
            "alloc a 3 parsecs|2",
            "alloc a 0|2",
            "alloc a|2",
            "free nobody|2",
            "alloc a 1MiB|2",
        })
        @DisplayName("the page's error is the launcher's error without the file name")
        void sameError(String bad, int line) throws Exception {
            String trace = "alloc a 3MiB\n" + bad + "\nfree a\n";
            TraceRun.Result r = TraceRun.run(trace, "toy", "40MiB", -1);
            Launcher.Run cli = Launcher.replay(dir, trace, TraceRun.Choice.TOY, "40MiB", false);
            assertThat(cli.exit()).isEqualTo(2);
            String cliError = cli.err().strip();
            String prefix = "error: " + dir.resolve("trace.txt") + ":" + line + ": ";
            assertThat(cliError).startsWith(prefix);
            assertThat(r.error()).isEqualTo("error: line " + line + ": " + cliError.substring(prefix.length()));
        }

        @Test
        @DisplayName("a replay error keeps the steps before the bad line on the map")
        void keepsTheStepsBefore() {
            TraceRun.Result r = TraceRun.run("alloc a 3MiB\nalloc b 1MiB\nfree c\nfree a\n", "toy", "40MiB", -1);
            assertThat(r.error()).startsWith("error: line 3: free of unknown handle 'c'");
            assertThat(r.step()).isEqualTo(2);
            assertThat(r.requested()).isEqualTo(4L << 20);
        }

        @ParameterizedTest(name = "card {0}, policy {1}")
        @CsvSource(delimiter = '|', value = {
            "40 potatoes|toy|error: card '40 potatoes': expected a size such as 40MiB or 80GiB",
            "0|toy|error: card '0': expected a size such as 40MiB or 80GiB",
            "64|toy|error: card '64': expected a size such as 40MiB or 80GiB",
            // 64 in Arabic-Indic digits: Bytes.parse reads them as 64 bytes; a bare number all the same
            "\u0666\u0664|toy|error: card '\u0666\u0664': expected a size such as 40MiB or 80GiB",
            "40MiB|buddy|error: policy 'buddy': expected toy, pytorch or pytorch+expandable"})
        void badChoices(String card, String policy, String error) {
            assertThat(TraceRun.run("alloc a 1MiB\n", policy, card, -1).error()).isEqualTo(error);
        }
    }

    /** The trace's lines up to its k-th event, comments kept, so line numbers stay the same. */
    static String firstEvents(String trace, int k) {
        StringBuilder sb = new StringBuilder();
        int events = 0;
        for (String line : trace.split("\n")) {
            if (events == k) break;
            sb.append(line).append('\n');
            if (!line.replaceAll("#.*", "").isBlank()) events++;
        }
        return sb.toString();
    }
}
