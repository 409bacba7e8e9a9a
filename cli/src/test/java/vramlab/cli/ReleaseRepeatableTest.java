package vramlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.StringReader;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import vramlab.contest.Entries;
import vramlab.judge.RecordedRuns;
import vramlab.judge.Scoreboard;
import vramlab.quiz.KitPaths;
import vramlab.quiz.ReleaseStamp;
import vramlab.workload.Workloads;

/**
 * Two student releases made from one commit are the same bytes, so an instructor can rebuild a
 * release and diff it against last term's (or CI can) and see only real changes. A whole release
 * written twice takes minutes ({@link ReleaseTest#sameCommitSameBytes}, grading-fixtures); here,
 * each part of a release that differed from run to run is written twice: the practice keys (a
 * random nonce), the contest's recorded reference runs (a measured host time) and the dates (the
 * day of writing, now the commit's).
 */
class ReleaseRepeatableTest {
    @TempDir Path tmp;

    /** Every file under {@code dir}, by its path relative to it, as text (or its bytes' hex when not UTF-8 text). */
    static Map<String, String> files(Path dir) throws java.io.IOException {
        Map<String, String> out = new TreeMap<>();
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path f : s.filter(Files::isRegularFile).toList()) {
                byte[] b = Files.readAllBytes(f);
                out.put(dir.relativize(f).toString().replace('\\', '/') + (Files.isExecutable(f) ? " (executable)" : ""),
                        new String(b, java.nio.charset.StandardCharsets.ISO_8859_1));
            }
        }
        return out;
    }

    @Test
    @DisplayName("the practice keys written twice are the same bytes (the nonce comes from the chapter and variant)")
    void practiceKeys() throws Exception {
        PracticeKeys.write(tmp.resolve("a"), 1);
        PracticeKeys.write(tmp.resolve("b"), 1);
        Map<String, String> a = files(tmp.resolve("a"));
        assertThat(a.keySet()).anyMatch(f -> f.endsWith("practice/ch01.json"));
        assertThat(files(tmp.resolve("b"))).isEqualTo(a);
    }

    @Test
    @Tag("grading-fixtures")  // two recordings of every reference on the public workloads: ~5 s, kept out of plain mvn test
    @DisplayName("the release's recorded reference runs written twice are the same bytes: no host time kept, '-' in the contest")
    void recordedRuns() throws Exception {
        ContestCommand.writeRelease(tmp.resolve("a"), "by this test");
        ContestCommand.writeRelease(tmp.resolve("b"), "by this test");
        Path a = tmp.resolve("a").resolve(RecordedRuns.IN_RELEASE);
        assertThat(Files.readString(tmp.resolve("b").resolve(RecordedRuns.IN_RELEASE))).isEqualTo(Files.readString(a));

        RecordedRuns shipped;
        try (var in = Files.newBufferedReader(a)) {
            shipped = RecordedRuns.read(in, a.toString());
        }
        assertThat(shipped.hostTimeMeasured()).isFalse();
        for (vramlab.contest.Contestant c : Entries.references()) {
            for (vramlab.workload.Workload w : Workloads.publicSet()) {
                assertThat(shipped.find(c.name(), w).hostTimeMeasured()).as("%s on %s", c.name(), w.name()).isFalse();
            }
        }
        // The contest never shows another machine's clock as a measurement: '-' in the table, an empty CSV cell.
        Scoreboard board = new Scoreboard(Entries.PYTORCH, Entries.references(), Workloads.publicSet(), shipped);
        assertThat(board.table()).containsPattern("(?m)^training-step +pytorch +yes .* - recorded$")
                .doesNotContain("NaN");
        StringWriter csv = new StringWriter();
        board.csv(csv);
        assertThat(csv.toString()).containsPattern("(?m)^pytorch,training-step,(?:[^,]*,){8},[0-9.]+,recorded$")
                .doesNotContain("NaN");
    }

    @Test
    @DisplayName("a recording made with its host time still shows it, and one without reads back without it")
    void hostTimeKeptWhereMeasured() throws Exception {
        List<vramlab.workload.Workload> one = Workloads.publicSet().subList(3, 4);     // diffusion sampling: the quickest
        RecordedRuns measured = RecordedRuns.record(List.of(Entries.PYTORCH), one, Workloads.PUBLIC_SEED, "by this test");
        StringWriter out = new StringWriter();
        measured.write(out);
        RecordedRuns back = RecordedRuns.read(new StringReader(out.toString()), "runs.csv");
        assertThat(back.hostTimeMeasured()).isTrue();
        assertThat(back.find("pytorch", one.get(0)).hostNanos()).isEqualTo(measured.find("pytorch", one.get(0)).hostNanos());
        StringWriter without = new StringWriter();
        measured.withoutHostTime().write(without);
        assertThat(without.toString()).isNotEqualTo(out.toString());
        assertThat(RecordedRuns.read(new StringReader(without.toString()), "runs.csv").find("pytorch", one.get(0)))
                .usingRecursiveComparison().ignoringFields("hostNanos").isEqualTo(measured.find("pytorch", one.get(0)));
    }

    @Test
    @DisplayName("docs/ gets every page of the rendered site but the site build's marker (its build time)")
    void siteWithoutItsBuildMarker() throws Exception {
        Path site = Files.createDirectories(tmp.resolve("site/playground"));
        Files.writeString(site.resolve("ch01-mmu.html"), "<html></html>\n");
        Files.writeString(tmp.resolve("site/index.html"), "<html></html>\n");
        Files.writeString(tmp.resolve("site/.vramlab-site"), "edition=student\nstamp=20261205045024710\n");
        ReleaseCommand.copySite(tmp.resolve("site"), tmp.resolve("release/docs"));
        assertThat(files(tmp.resolve("release/docs")).keySet()).containsExactly("index.html", "playground/ch01-mmu.html");
    }

    @Test
    @DisplayName("the stamp is the kit's commit and its date as git gives them; a copy outside git gets the same fixed one every time")
    void stamp() throws Exception {
        Path root = KitPaths.root();
        ReleaseStamp s = ReleaseStamp.of(root, null);         // as git gives it, whatever SOURCE_DATE_EPOCH says here
        Assumptions.assumeTrue(s.commit() != null, "the kit is not a git checkout here");
        Process p = new ProcessBuilder("git", "-C", root.toString(), "log", "-1", "--format=%h %cs").start();
        String[] git = new String(p.getInputStream().readAllBytes()).trim().split(" ");
        assertThat(p.waitFor()).isZero();
        assertThat(s.commit()).isEqualTo(git[0]);
        assertThat(s.date()).isEqualTo(LocalDate.parse(git[1]));
        assertThat(s.phrase()).startsWith("commit " + git[0] + " of " + git[1]);
        assertThat(ReleaseStamp.of(root, null)).isEqualTo(s);

        ReleaseStamp none = ReleaseStamp.of(Files.createDirectories(tmp.resolve("not-a-checkout")), null);
        assertThat(none).isEqualTo(ReleaseStamp.NONE);
        assertThat(none.phrase()).isEqualTo("a copy of the kit that is not a git checkout (no commit)");
        assertThat(none.zipTime()).isEqualTo(LocalDate.of(1980, 1, 1).atStartOfDay(ZoneId.systemDefault()).toInstant().toEpochMilli());
    }
}
