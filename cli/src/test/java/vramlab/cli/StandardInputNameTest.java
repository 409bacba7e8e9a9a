package vramlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import vramlab.trace.TraceReader;

/**
 * Standard input (FILE {@code -}) has one name wherever a user reads it: {@code <stdin>}, as
 * JShell's snippets, Python and gcc call it. A trace piped to replay or advise said
 * {@code error: -:2: ...}, an empty paste to triage {@code error: standard input: empty}, and
 * piped JShell snippets {@code error: <stdin>:2: ...}: three names for one thing, and {@code -:2}
 * reads like a file called "-".
 */
@DisplayName("standard input is <stdin> in every command's errors and output")
class StandardInputNameTest {
    private static final String BAD_TRACE = "alloc a 1MiB\nfrob x\n";
    private static final String UNKNOWN = ":2: unknown command 'frob' (expected alloc, free or empty_cache)\n";
    /** A snapshot of one device with no history and no segments. */
    private static final String EMPTY_SNAPSHOT = "{\"device_traces\": [[]], \"segments\": []}";
    /** A snapshot whose first trace entry has a negative size. */
    private static final String BAD_SNAPSHOT = "{\"device_traces\": [[{\"action\": \"alloc\", \"addr\": 0, \"size\": -5}]],"
            + " \"segments\": []}";
    private static final String NEGATIVE = ":1:60: device_traces[0][0].size is -5: expected a number of bytes, 0 or more\n";

    @Test
    void theNameIsStdin() {
        assertThat(TraceReader.STANDARD_INPUT).isEqualTo("<stdin>");
        assertThat(TraceReader.nameOf("-")).isEqualTo("<stdin>");
        assertThat(TraceReader.nameOf("run.trace")).isEqualTo("run.trace");
        assertThat(TraceReader.nameOf("./-")).isEqualTo("./-");          // a file called "-", named as given
    }

    @Test
    void replayOfATrace() {
        for (String[] args : new String[][] {{"replay", "-"}, {"replay", "--csv", "-"},
                {"replay", "--policy", "pytorch", "-"}, {"replay", "--", "-"}}) {   // the plain reader's path and picocli's
            CliRun r = CliRun.withInput(BAD_TRACE, args);
            assertThat(r.status()).as(String.join(" ", args)).isEqualTo(2);
            assertThat(r.err()).as(String.join(" ", args)).isEqualTo("error: <stdin>" + UNKNOWN);
        }
        CliRun twice = CliRun.withInput("alloc a 1MiB\nalloc a 2MiB\n", "replay", "-");
        assertThat(twice.err()).startsWith("error: <stdin>:2: alloc of handle 'a', which is still live");
    }

    @Test
    void replayOfASnapshot() {
        CliRun ok = CliRun.withInput(EMPTY_SNAPSHOT, "replay", "-");
        assertThat(ok.status()).as(ok.err()).isZero();
        assertThat(ok.out()).startsWith("snapshot: <stdin>\n");
        CliRun json = CliRun.withInput(EMPTY_SNAPSHOT, "replay", "--json", "-");
        assertThat(json.out()).startsWith("{\"snapshot\":\"<stdin>\",");
        CliRun bad = CliRun.withInput(BAD_SNAPSHOT, "replay", "-");
        assertThat(bad.status()).isEqualTo(2);
        assertThat(bad.err()).isEqualTo("error: <stdin>" + NEGATIVE);
    }

    @Test
    void advise() {
        CliRun trace = CliRun.withInput(BAD_TRACE, "advise", "-");
        assertThat(trace.status()).isEqualTo(2);
        assertThat(trace.err()).isEqualTo("error: <stdin>" + UNKNOWN);
        CliRun nothing = CliRun.withInput(EMPTY_SNAPSHOT, "advise", "-");
        assertThat(nothing.status()).as(nothing.err()).isZero();
        assertThat(nothing.out()).startsWith("advise: <stdin>");
    }

    @Test
    void triage() {
        CliRun empty = CliRun.withInput("", "triage");
        assertThat(empty.err()).startsWith("error: <stdin>: empty: expected the text of an out-of-memory error");
        CliRun dash = CliRun.withInput("  \n", "triage", "-");
        assertThat(dash.err()).startsWith("error: <stdin>: only blank space: ");
        CliRun snapshot = CliRun.withInput(BAD_SNAPSHOT, "triage", "-");
        assertThat(snapshot.status()).isEqualTo(2);
        assertThat(snapshot.err()).isEqualTo("error: <stdin>" + NEGATIVE);
    }

    // jshell's piped snippets: LabAndJshellCommandTest.pipedCompileError ("error: <stdin>:2:"), whose
    // name is SnippetRunner's TraceReader.STANDARD_INPUT.
}
