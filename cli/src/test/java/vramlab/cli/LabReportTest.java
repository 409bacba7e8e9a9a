package vramlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

import javax.tools.ToolProvider;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import vramlab.quiz.KitPaths;
import vramlab.quiz.Salt;
import vramlab.quiz.grade.Declared;
import vramlab.quiz.grade.Kit;
import vramlab.quiz.grade.LabReport;

/**
 * {@code mvn test -Plab}'s report ({@link LabReport}) on the kit's real graded tests: a hostile
 * copy, with stale full-mark score files planted where the old report looked, scores what it
 * earned (nothing) from this run's rows only, and a report whose rows do not add up to what the
 * kit declares prints no score.
 */
class LabReportTest {
    @TempDir static Path tmp;
    static Kit kit;
    static String out;
    static String err;
    static int status;

    record Run(int status, String out, String err) {}

    static Run report(Kit k, Path submission, Path outDir) throws Exception {
        ByteArrayOutputStream o = new ByteArrayOutputStream(), e = new ByteArrayOutputStream();
        int s = LabReport.report(k, submission, outDir, "mallory", Salt.PRACTICE,
                new PrintStream(o, true, StandardCharsets.UTF_8), new PrintStream(e, true, StandardCharsets.UTF_8));
        return new Run(s, o.toString(StandardCharsets.UTF_8), e.toString(StandardCharsets.UTF_8));
    }

    @BeforeAll
    static void gradeAHostileCopy() throws Exception {
        Path root = KitPaths.root();
        kit = Kit.locate(root);
        Submissions make = new Submissions(root, Files.createDirectories(tmp.resolve("subs")), Salt.PRACTICE);
        Path copy = make.forging("mallory", "3.1");
        make.blankSheets("mallory");
        Path outDir = tmp.resolve("subs/mallory/target/grading");
        Files.writeString(Files.createDirectories(tmp.resolve("subs/target/grading")).resolve("scores.tsv"),
                "q3.1\tstale\t4\t4\tPASSED\t\n");
        Run r = report(kit, copy, outDir);
        status = r.status();
        out = r.out();
        err = r.err();
    }

    @Test
    @DisplayName("untouched labs with forged credit and stale full-mark score files: 0, and the kit's total")
    void scoresThisRunOnly() {
        int labTotal = Declared.scan(kit).withoutQuizTests().labTotal();
        int quizTotal = Declared.quizTotal(kit.questions(), "mallory", Salt.PRACTICE);
        assertThat(status).as(err).isZero();
        assertThat(out).contains("Score: 0/" + (labTotal + quizTotal)).doesNotContain("PASSED").doesNotContain("stale");
        assertThat(out).contains("Flag: forged results:").contains("Flag: read the code: vramlab/alloc/Forge.java uses")
                .contains("Flag: quiz marked on the practice numbers for student 'mallory' (no instructor salt: set VRAMLAB_SALT");
    }

    @Test
    @DisplayName("the report files are this run's: results.json and a one-student gradebook")
    void files() throws Exception {
        Path dir = tmp.resolve("subs/mallory/target/grading");
        assertThat(Files.readString(dir.resolve("results.json"))).contains("\"score\": 0,");
        assertThat(Files.readString(dir.resolve("gradebook.csv")).lines()).hasSize(2)
                .last().asString().startsWith("mallory,0,");
    }

    @Test
    @DisplayName("a graded method JUnit never runs makes the rows fall short of the declaration: no score, status 1")
    void declaredTotalGuards() throws Exception {
        Path src = Files.createDirectories(tmp.resolve("bad-src/vramlab/gradefixture"));
        Files.writeString(src.resolve("NeverRunTest.java"), """
                package vramlab.gradefixture;

                class NeverRunTest {
                    @org.junit.jupiter.api.Test @vramlab.quiz.Graded(step = "3.1", points = 2) void runs() { }
                    @vramlab.quiz.Graded(step = "3.4", points = 3) void graded_but_not_a_test() { }
                }
                """);
        Path classes = Files.createDirectories(tmp.resolve("bad-classes"));
        List<Path> cp = new ArrayList<>(kit.runtime());
        cp.add(kit.referenceCore());
        assertThat(ToolProvider.getSystemJavaCompiler().run(null, null, null, "-d", classes.toString(), "-cp",
                cp.stream().map(Path::toString).collect(Collectors.joining(File.pathSeparator)), "-proc:none",
                src.resolve("NeverRunTest.java").toString())).isZero();
        Run r = report(kit.withTestRoots(List.of(classes)).withQuestions(List.of()), tmp.resolve("subs/mallory"),
                tmp.resolve("bad-out"));
        assertThat(r.status()).isEqualTo(1);
        assertThat(r.err()).contains("do not add up").contains("declares 2 graded tests worth 5 points")
                .contains("this run has 1 rows worth 2");
        assertThat(r.out()).doesNotContain("Score:");
    }

    @Test
    @DisplayName("-Dtest is named as ignored: a filtered run is never a score")
    void filterIsIgnored() throws Exception {
        ByteArrayOutputStream o = new ByteArrayOutputStream(), e = new ByteArrayOutputStream();
        int s = LabReport.run(tmp.resolve("no-kit-here"), "CachingAllocatorStepsTest*",
                new PrintStream(o, true, StandardCharsets.UTF_8), new PrintStream(e, true, StandardCharsets.UTF_8));
        assertThat(o.toString(StandardCharsets.UTF_8)).contains("-Dtest=CachingAllocatorStepsTest* is ignored under -Plab");
        assertThat(s).isEqualTo(2);
        assertThat(LabReport.run(tmp.resolve("no-kit-here"), "${test}", new PrintStream(o), new PrintStream(e))).isEqualTo(2);
    }

    @Test
    @DisplayName("a copy marked on the practice numbers is the gradebook's 'practice' row: no internal id a student reads")
    void practiceRow() throws Exception {
        Path noTests = Files.createDirectories(tmp.resolve("no-tests"));
        Path outDir = tmp.resolve("practice-out");
        ByteArrayOutputStream o = new ByteArrayOutputStream(), e = new ByteArrayOutputStream();
        int s = LabReport.report(kit.withTestRoots(List.of(noTests)).withQuestions(List.of()), tmp.resolve("subs/mallory"),
                outDir, LabReport.workingCopyStudent(tmp.resolve("no-kit-here")), Salt.PRACTICE,
                new PrintStream(o, true, StandardCharsets.UTF_8), new PrintStream(e, true, StandardCharsets.UTF_8));
        assertThat(s).as(e.toString(StandardCharsets.UTF_8)).isZero();
        assertThat(Files.readString(outDir.resolve("gradebook.csv")).lines()).hasSize(2)
                .last().asString().startsWith("practice,0,");
        for (String f : List.of("gradebook.csv", "results.json")) {
            assertThat(Files.readString(outDir.resolve(f))).as(f).doesNotContainIgnoringCase("seed");
        }
        assertThat(o.toString(StandardCharsets.UTF_8)).doesNotContainIgnoringCase("seed");
        try (var areas = Files.list(outDir.resolve("work"))) {
            assertThat(areas.map(a -> a.getFileName().toString()).toList()).as("the grader's work areas, which a student"
                    + " finds in target/grading/work/").contains("practice").noneMatch(a -> a.toLowerCase().contains("seed"));
        }
    }
}
