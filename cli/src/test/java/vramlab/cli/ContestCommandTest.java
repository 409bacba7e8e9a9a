package vramlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import picocli.CommandLine;
import vramlab.contest.Entries;
import vramlab.judge.RecordedRuns;

class ContestCommandTest {
    @TempDir Path tmp;

    @Test
    void aTraceOfYourOwnIsJudgedForEveryEntryAndTheLeaderboardWrittenAsCsv() throws Exception {
        Path trace = tmp.resolve("hidden.trace");
        Files.writeString(trace, "alloc a 3MiB\nalloc b 1000\nfree a\nalloc c 5MiB\nfree b\nfree c\nempty_cache\n");
        Path csv = tmp.resolve("board.csv");
        Path page = tmp.resolve("board.html");
        CliRun r = CliRun.of("contest", "--trace", trace.toString(), "--card", "64MiB", "--csv", csv.toString(),
                "--html", page.toString());
        assertThat(r.status()).as(r.err() + r.out()).isZero();
        assertThat(r.err()).startsWith("vramlab: contest runs the reference cores in solutions/");
        assertThat(r.out()).contains("card 64.00 MiB").contains("performance index")
                .contains("segregated-fits").contains("pytorch").contains("expandable").contains("buddy");
        String board = Files.readString(csv);
        assertThat(board.lines().findFirst().orElseThrow()).startsWith("entry,workload,card,fit,broken");
        // README gives the header whole: instructors' scripts read the columns by name
        assertThat(Files.readString(vramlab.quiz.KitPaths.root().resolve("README.adoc")))
                .contains("`" + board.lines().findFirst().orElseThrow() + "`");
        assertThat(board.lines().filter(l -> l.contains(",index,"))).hasSize(4);
        assertThat(board.lines().filter(l -> l.startsWith("pytorch," + trace))).singleElement()
                .satisfies(l -> assertThat(l).contains(",67108864,true,,-1,"));
        String html = Files.readString(page);
        assertThat(html).startsWith("<!DOCTYPE html>").contains("<svg").contains("segregated-fits")
                .doesNotContain("<script").doesNotContain("src=\"http").doesNotContain("href=\"http");
    }

    @Test
    void anUnknownWorkloadIsAUsageError() {
        CliRun r = CliRun.of("contest", "--workload", "nope");
        assertThat(r.status()).isEqualTo(2);
        // error: <where>: <what>, the command as where, as every option's refusal says it (replay: --device '24': ...)
        // refused first, so it is the only line (no "contest runs the reference cores" before it)
        assertThat(r.err()).startsWith("error: contest: --workload 'nope': not a workload (expected one of [training-step,");
    }

    /**
     * A student's copy (a release, labs/ theirs): the launcher built every core and started a child
     * JVM on them, about 20 s, before the child refused the name. Here the copy has no cores built,
     * so reaching the build says "the kit is not built", exit 1.
     */
    @Test
    void anUnknownWorkloadIsRefusedBeforeYourCoresAreBuilt() throws Exception {
        Path release = Files.createDirectories(tmp.resolve("release/labs/src/main/java")).getParent().getParent().getParent()
                .getParent();
        Files.writeString(release.resolve(vramlab.quiz.KitPaths.RELEASE_MARKER), "a release\n");
        Files.writeString(release.resolve("labs/" + StudentCores.MARKER), "");
        String old = System.getProperty("vramlab.home");
        System.setProperty("vramlab.home", release.toString());
        try {
            CliRun r = CliRun.of("contest", "--workload", "nope");
            assertThat(r.status()).as(r.err()).isEqualTo(2);
            assertThat(r.err().strip()).as("one line, nothing built or run first")
                    .startsWith("error: contest: --workload 'nope': not a workload (expected one of [training-step,")
                    .doesNotContain("\n");
        } finally {
            if (old == null) System.clearProperty("vramlab.home");
            else System.setProperty("vramlab.home", old);
        }
    }

    @Test
    void aTracesOwnNameIsAWorkloadAndNoOtherIs() throws Exception {
        Path trace = tmp.resolve("bad.trace");
        Files.writeString(trace, "alloc a 1MiB\nfree b\n");
        CliRun r = CliRun.of("contest", "--trace", trace.toString(), "--card", "64MiB", "--workload", "nope");
        assertThat(r.status()).isEqualTo(2);
        assertThat(r.err()).contains("error: contest: --workload 'nope': not a workload (expected one of [" + trace + "])");
        Path good = tmp.resolve("good.trace");
        Files.writeString(good, "alloc a 1MiB\nfree a\n");
        CliRun ok = CliRun.of("contest", "--trace", good.toString(), "--card", "64MiB", "--workload", good.toString());
        assertThat(ok.status()).as(ok.err()).isZero();
    }

    @Test
    void aTraceThatFreesAnUnknownHandleIsABadInputNamingItsLine() throws Exception {
        Path trace = tmp.resolve("bad.trace");
        Files.writeString(trace, "alloc a 1MiB\nfree b\n");
        CliRun r = CliRun.of("contest", "--trace", trace.toString(), "--card", "64MiB");
        assertThat(r.status()).isEqualTo(2);
        assertThat(r.err()).contains(trace + ":2").contains("free of unknown handle 'b'");
    }

    /**
     * --workload names a --trace file by any path to it: the one given, the same relative or
     * absolute, with ./ or .. in it. The workload keeps the name --trace gave it. (The test runs
     * in the cli module's folder, so a file under target/ has a relative name.)
     */
    @Test
    void aRelativeAndAnAbsoluteNameOfOneTraceAreOneWorkload() throws Exception {
        String rel = relativeTrace("one.trace");
        String abs = Path.of(rel).toAbsolutePath().toString();
        for (String[] pair : new String[][] {{rel, abs}, {abs, rel}, {rel, "./" + rel},
                {rel, "target/contest-names/../contest-names/one.trace"}}) {
            CliRun r = CliRun.of("contest", "--trace", pair[0], "--card", "64MiB", "--workload", pair[1]);
            assertThat(r.status()).as("--trace %s --workload %s: %s", pair[0], pair[1], r.err()).isZero();
            assertThat(r.out()).startsWith(pair[0] + ": the trace " + pair[0] + ";");
        }
        CliRun other = CliRun.of("contest", "--trace", rel, "--card", "64MiB", "--workload", "target/contest-names/two.trace");
        assertThat(other.status()).isEqualTo(2);
        assertThat(other.err()).isEqualTo("error: contest: --workload 'target/contest-names/two.trace': not a workload"
                + " (expected one of [" + rel + "])\n");
    }

    /**
     * What the launcher hands the run on your cores (a second JVM: --mine, a student's copy, and
     * --class, whose runs each start in a scratch folder): the traces as given and the folder they
     * are read from, so the child names each workload as this run does. It passed absolute paths:
     * ./vramlab contest --mine --trace mine.trace --workload mine.trace said "error: contest:
     * --workload 'mine.trace': not a workload (expected one of [/home/ana/mine.trace])", and without
     * --workload the reference's runs, recorded here under "mine.trace", were not found there, so
     * PyTorch's rows ran live on the student's own chapter 3-6 cores. Here the child is run in
     * this JVM, in a folder other than the one the trace is relative to (as --class's are).
     */
    @Test
    void theRunOnYourCoresNamesEachTraceAsYouGaveIt() throws Exception {
        String rel = relativeTrace("mine.trace");
        ContestCommand parent = parse("--trace", rel, "--workload", rel, "--card", "1GiB");
        Path recorded = tmp.resolve("reference-runs.csv");
        ContestCommand.write(RecordedRuns.record(Entries.references(), parent.chosen(quiet()), parent.seed, "by this test"),
                recorded);
        List<String> child = new ArrayList<>(parent.workloadArgs());
        child.addAll(List.of("--recorded", recorded.toString()));
        CliRun r = CliRun.of(child.toArray(String[]::new));
        assertThat(r.status()).as(r.err()).isZero();
        assertThat(r.out()).startsWith(rel + ": the trace " + rel + ";");
        for (String entry : List.of("pytorch", "expandable", "buddy")) {
            assertThat(r.out()).as(entry + "'s row: the recording found").containsPattern(
                    "(?m)^" + java.util.regex.Pattern.quote(rel) + " +" + entry + " .* recorded *$");
        }
        assertThat(child).containsSubsequence("--from", Path.of("").toAbsolutePath().toString());

        // --class's child starts in a scratch folder: --from is the folder the names are read from
        Path user = Files.createDirectories(tmp.resolve("user"));
        Files.copy(Path.of(rel), user.resolve("mine.trace"));
        CliRun elsewhere = CliRun.of("contest", "--from", user.toString(), "--trace=mine.trace", "--workload=mine.trace",
                "--card", "1GiB", "--recorded", recorded.toString());
        assertThat(elsewhere.status()).as(elsewhere.err()).isZero();
        assertThat(elsewhere.out()).startsWith("mine.trace: the trace mine.trace;");
    }

    @Test
    void aTraceFromStandardInputIsRefusedInOneLine() {
        CliRun r = CliRun.withInput("alloc a 1MiB\nfree a\n", "contest", "--trace", "-", "--card", "64MiB");
        assertThat(r.status()).isEqualTo(2);
        assertThat(r.err()).isEqualTo("error: contest: --trace -: contest reads each trace from a file (your entry runs in a"
                + " second JVM, and --class runs one per student), not from standard input: save it to a file and name that\n");
    }

    private static String relativeTrace(String name) throws Exception {
        Path dir = Files.createDirectories(Path.of("target", "contest-names"));
        Files.writeString(dir.resolve(name), "alloc a 1MiB\nalloc b 3MiB\nfree a\nfree b\n");
        return "target/contest-names/" + name;
    }

    private static ContestCommand parse(String... args) {
        ContestCommand c = new ContestCommand();
        new CommandLine(c).parseArgs(args);
        return c;
    }

    private static Io quiet() {
        PrintStream sink = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        return new Io(java.io.InputStream.nullInputStream(), sink, sink);
    }
}
