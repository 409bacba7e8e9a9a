package vramlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import vramlab.contest.Entries;
import vramlab.judge.Scoreboard;
import vramlab.quiz.KitPaths;
import vramlab.quiz.Salt;
import vramlab.workload.Workloads;

/**
 * {@code contest --class}: every submission's own entry on its own cores, priced against the
 * reference's runs, ranked into a CSV and one offline page; a broken entry scores 0 and says
 * which check, an unwritten one is listed last with its step. A class in child JVMs takes about
 * 20 s, so it runs with the other class-sized suites in {@code -Pgrading-fixtures} (.ci/run).
 */
@Tag("grading-fixtures")
class ClassContestTest {
    @TempDir Path tmp;

    @Test
    void aClassIsRankedByIndexIntoACsvAndAnOfflinePage() throws Exception {
        Submissions make = new Submissions(KitPaths.root(), Files.createDirectories(tmp.resolve("subs")), Salt.PRACTICE);
        Path ada = make.sources("ada", make.solutions(), Submissions.Edit.none());
        Path bob = make.sources("bob", make.untouched(), Submissions.Edit.none());
        Path eve = make.sources("eve", make.solutions(), Submissions.edit("vramlab/contest/SegregatedFits.java",
                "long address = list.pop();", "long address = list.peek();"));      // the same block twice
        Path csv = tmp.resolve("class.csv");
        Path page = tmp.resolve("class.html");
        CliRun r = CliRun.of("contest", "--class", eve.toString(), bob.toString(), ada.toString(),
                "--workload", "diffusion-sampling", "--csv", csv.toString(), "--html", page.toString());
        assertThat(r.status()).as(r.err() + r.out()).isZero();

        Scoreboard here = new Scoreboard(Entries.PYTORCH, List.of(Entries.PYTORCH, Entries.STUDENT),
                Workloads.publicSet().stream().filter(w -> w.name().equals("diffusion-sampling")).toList());
        List<String> rows = Files.readAllLines(csv);
        assertThat(rows.get(0)).isEqualTo("rank,student,index,workloads_fit,workloads,note");
        assertThat(rows.get(1)).isEqualTo("1,ada," + String.format(Locale.ROOT, "%.2f", here.index("segregated-fits")) + ",1,1,");
        assertThat(rows.get(2)).startsWith("2,eve,0.00,0,1,broke check overlap on diffusion-sampling");
        assertThat(rows.get(3)).startsWith(",bob,,0,1,").contains("TODO step");
        assertThat(r.out()).contains("class leaderboard, best first").containsPattern("1  ada +\\d+\\.\\d");

        String html = Files.readString(page);
        assertThat(html).startsWith("<!DOCTYPE html>").contains("<svg").contains("pytorch (reference)").contains(">ada<")
                .doesNotContain("<script").doesNotContain("src=\"http").doesNotContain("href=\"http");
    }

    /**
     * Two ids the old folder rule made one ({@code 张三} and {@code 李四} both became
     * {@code __}): each student gets a work folder of its own, named as {@code grade} names it
     * ({@code Grader.folderName}), so the second is not built on the first's classes.
     */
    @Test
    void idsOutsideAsciiGetAFolderEach() throws Exception {
        Submissions make = new Submissions(KitPaths.root(), Files.createDirectories(tmp.resolve("subs")), Salt.PRACTICE);
        Path zhang = make.sources("张三", make.solutions(), Submissions.Edit.none());
        Path li = make.sources("李四", make.untouched(), Submissions.Edit.none());
        Path csv = tmp.resolve("class.csv");
        CliRun r = CliRun.of("contest", "--class", zhang.toString(), li.toString(),
                "--workload", "diffusion-sampling", "--csv", csv.toString());
        assertThat(r.status()).as(r.err() + r.out()).isZero();
        List<String> rows = Files.readAllLines(csv);
        assertThat(rows.get(1)).as(String.join("\n", rows)).startsWith("1,张三,").doesNotContain("TODO");
        assertThat(rows.get(2)).as(String.join("\n", rows)).startsWith(",李四,,0,1,").contains("TODO step");
    }

    /**
     * Each student's run starts in its own scratch folder, and was handed the --trace as an
     * absolute path: there the workload was /home/.../mine.trace, so '--trace mine.trace
     * --workload mine.trace' ranked every student "crashed: the JVM exited with status 2" (the
     * child refused the name), and without --workload the reference's runs, recorded here as
     * mine.trace, were not found there. The child now reads the names as typed, from --from.
     */
    @Test
    void aTraceNamedByARelativePathIsOneWorkloadInEveryStudentsRun() throws Exception {
        Submissions make = new Submissions(KitPaths.root(), Files.createDirectories(tmp.resolve("subs")), Salt.PRACTICE);
        Path ada = make.sources("ada", make.solutions(), Submissions.Edit.none());
        Path dir = Files.createDirectories(Path.of("target", "class-contest"));      // relative to the test's folder
        Files.writeString(dir.resolve("mine.trace"), "alloc a 3MiB\nalloc b 10MiB\nfree a\nalloc c 1MiB\nfree b\nfree c\n");
        String rel = "target/class-contest/mine.trace";
        Path csv = tmp.resolve("class.csv");
        CliRun r = CliRun.of("contest", "--class", ada.toString(), "--trace", rel, "--workload", rel, "--card", "1GiB",
                "--csv", csv.toString());
        assertThat(r.status()).as(r.err() + r.out()).isZero();
        List<String> rows = Files.readAllLines(csv);
        assertThat(rows.get(1)).as(String.join("\n", rows)).matches("1,ada,\\d+\\.\\d+,1,1,");
    }

    /**
     * The grader's standard: one submission that hangs, floods its output, exits the JVM or does
     * not compile costs
     * no one else their rank. Each is stopped (or seen gone) and gets a row saying why; the run
     * ends, writes its CSV and exits 0.
     */
    @Test
    void aHangingFloodingExitingOrUncompilableEntryGetsItsReasonAndTheOthersAreStillRanked() throws Exception {
        Submissions make = new Submissions(KitPaths.root(), Files.createDirectories(tmp.resolve("subs")), Salt.PRACTICE);
        String pop = "long address = list.pop();";
        Path ada = make.sources("ada", make.solutions(), Submissions.Edit.none());
        Path lou = make.sources("lou", make.solutions(), Submissions.edit("vramlab/contest/SegregatedFits.java",
                pop, "while (list != null) Thread.onSpinWait(); " + pop));
        Path flo = make.sources("flo", make.solutions(), Submissions.edit("vramlab/contest/SegregatedFits.java",
                pop, "while (list != null) System.out.println(\"flood\"); " + pop));
        Path xia = make.sources("xia", make.solutions(), Submissions.edit("vramlab/contest/SegregatedFits.java",
                pop, "if (list != null) System.exit(3); " + pop));
        Path cal = make.sources("cal", make.solutions(), Submissions.edit("vramlab/contest/SegregatedFits.java",
                pop, "long address = list.pop() +;"));
        Path csv = tmp.resolve("class.csv");
        CliRun r = CliRun.of("contest", "--class", lou.toString(), flo.toString(), xia.toString(), cal.toString(),
                ada.toString(), "--workload", "diffusion-sampling", "--time-bound", "8", "--csv", csv.toString());
        assertThat(r.status()).as(r.err() + r.out()).isZero();

        List<String> rows = Files.readAllLines(csv);
        assertThat(rows.get(1)).startsWith("1,ada,").doesNotStartWith("1,ada,,");
        assertThat(rows.subList(2, rows.size())).hasSize(4).allMatch(row -> row.matches(",\\w+,,0,1,.+"))
                .anyMatch(row -> row.contains(",lou,") && row.contains("timed out after 8 s"))
                .anyMatch(row -> row.contains(",flo,") && row.contains("KiB of output around the 256 KiB cap"))
                .anyMatch(row -> row.contains(",xia,") && row.contains("crashed: the JVM exited with status 3"))
                .anyMatch(row -> row.contains(",cal,") && row.endsWith("the contest core does not compile"));
    }

    /**
     * {@code --csv} is written once the whole class has run: a path that cannot be written is
     * refused before any submission is opened, with one line and exit 2 (it was the end of the
     * run, a {@code NoSuchFileException} after every entry had been built and run).
     */
    @Test
    void anUnwritableCsvIsRefusedBeforeTheClassRuns() throws Exception {
        Submissions make = new Submissions(KitPaths.root(), Files.createDirectories(tmp.resolve("subs")), Salt.PRACTICE);
        Path ada = make.sources("ada", make.solutions(), Submissions.Edit.none());
        Path csv = tmp.resolve("no-such-folder/class.csv");
        CliRun r = CliRun.of("contest", "--class", ada.toString(), "--workload", "diffusion-sampling",
                "--csv", csv.toString());
        assertThat(r.status()).as(r.err() + r.out()).isEqualTo(2);
        assertThat(r.err().strip()).startsWith("error: contest: --csv " + csv + ": no such directory")
                .doesNotContain("\n").doesNotContain("Exception").doesNotContain("contest: ada");
        assertThat(r.out()).doesNotContain("class leaderboard");
    }

    @Test
    void aStudentsCopyCannotRankAClass() {
        CliRun r = ReleaseSelfCheckTest.as(Path.of("/nonexistent-kit"), () -> CliRun.of("contest", "--class", "x"));
        assertThat(r.status()).isEqualTo(2);
        assertThat(r.err()).contains("error: contest: --class: a class leaderboard runs the reference entries");
    }
}
