package vramlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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
}
