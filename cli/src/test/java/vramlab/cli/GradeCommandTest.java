package vramlab.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import javax.tools.ToolProvider;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import vramlab.quiz.KitPaths;
import vramlab.quiz.Salt;
import vramlab.quiz.ScoreRow;
import vramlab.quiz.grade.Gradebook;
import vramlab.quiz.grade.Grader;
import vramlab.quiz.grade.Kit;

/**
 * Batch grading survives students: fixture submissions made here from the kit's own solutions/
 * and the generator's labs (correct, untouched, one core that does not compile, looping, exiting,
 * flooding, one that tries to replace the graded test, one that copies another student's answers,
 * one that forges credit every way it knows), graded by four fixture lab tests in three cores
 * (9 points) and the real quiz under an instructor's salt. The 40-submission class on the kit's
 * real tests is {@code GradingFixturesTest} ({@code -Pgrading-fixtures}).
 */
class GradeCommandTest {
    static final Salt SALT = Salt.of("test-instructor-salt");
    static final String FIXTURE = """
            package vramlab.gradefixture;

            import static org.junit.jupiter.api.Assertions.assertEquals;
            import static vramlab.units.Bytes.gib;
            import static vramlab.units.Bytes.mib;

            import org.junit.jupiter.api.*;
            import vramlab.alloc.*;
            import vramlab.buddy.BuddyAllocator;
            import vramlab.driver.Gpu;
            import vramlab.quiz.Graded;

            class StepFixtureTest {
                @Test @Graded(step = "3.1", points = 2) @Timeout(10) @DisplayName("3.1: rounds on the toy ladder")
                void rounds() {
                    assertEquals(512, new ToyPolicy().roundSize(100));
                    assertEquals(mib(4), new ToyPolicy().roundSize(mib(3) + 1));
                }

                @Test @Graded(step = "3.4", points = 3) @Timeout(10) @DisplayName("3.4: merges on free")
                void merges() {
                    Sim sim = new Sim(mib(40));
                    Block a = sim.alloc(mib(4));
                    Block b = sim.alloc(mib(6));
                    sim.free(a);
                    sim.free(b);
                    assertEquals(mib(20), sim.largestFreeBlock(), sim.map());
                }

                @Test @Graded(step = "4.2", points = 2) @Timeout(10) @DisplayName("4.2: maps pages on demand")
                void maps() {
                    SimExp e = new SimExp(mib(40));
                    assertEquals(mib(4), e.alloc(mib(3) + 1).size());
                    assertEquals(mib(4), e.mapped());
                }

                @Test @Graded(step = "6.1", points = 2) @Timeout(10) @DisplayName("6.1: the order for a size")
                void order() {
                    BuddyAllocator b = BuddyAllocator.upfront(new Gpu(gib(1)).openToyProcess(), mib(16), 20, 24);
                    assertEquals(21, b.orderFor(mib(1) + 1));
                }
            }
            """;
    /** Compiles without JUnit: same names as the kit's graded test and harness, full marks inside. */
    static final String CHEAT_TEST = """
            package vramlab.gradefixture;

            public class StepFixtureTest {
                public void rounds() { }
                public void merges() { }
                public void maps() { }
            }
            """;
    static final String CHEAT_HARNESS = """
            package vramlab.quiz;

            public final class ScoreRow {
                public static Object zero(String s, String n, int p, String st, String w) { return null; }
            }
            """;
    static final String BROKEN_AT = "Block prev = block.prev;";

    @TempDir static Path tmp;
    static Path root;
    static Kit kit;
    static Submissions make;
    static Map<String, Grader.Result> graded = new LinkedHashMap<>();
    static String log;
    static int brokenLine;

    @BeforeAll
    static void gradeEverySubmission() throws Exception {
        root = KitPaths.root();
        Kit built = Kit.locate(root);
        kit = built.withTestRoots(List.of(compileFixture(built)));
        Path subs = Files.createDirectories(tmp.resolve("subs"));
        make = new Submissions(root, subs, SALT);
        make.sources("correct", make.solutions(), Submissions.Edit.none());
        make.keySheets("correct", "correct", null);
        make.sources("empty", make.untouched(), Submissions.Edit.none());
        make.blankSheets("empty");
        make.sources("broken", make.solutions(), Submissions.edit("vramlab/alloc/CachingAllocator.java", BROKEN_AT,
                "Block prev = block.prev"));
        brokenLine = Submissions.lineOf(make.solutions(), "vramlab/alloc/CachingAllocator.java", BROKEN_AT);
        make.keySheets("broken", "broken", null);
        make.sources("looping", make.solutions(), Submissions.edit("vramlab/alloc/ToyPolicy.java",
                "if (requested <= SMALL_SIZE) return", "while (requested < 1000) requested |= 1;\n"
                        + "        if (requested <= SMALL_SIZE) return"));
        make.sources("exiting", make.solutions(), Submissions.edit("vramlab/alloc/CachingAllocator.java", BROKEN_AT,
                "System.exit(3);\n        " + BROKEN_AT));
        make.sources("flooding", make.solutions(), Submissions.edit("vramlab/alloc/ToyPolicy.java",
                "if (requested <= SMALL_SIZE) return", "for (int i = 0; i < 200_000; i++) System.out.println(\"flood"
                        + " flood flood flood flood\");\n        if (requested <= SMALL_SIZE) return"));
        Path cheat = make.sources("cheating", make.untouched(), Submissions.Edit.none()).resolve("labs/src/main/java");
        Files.createDirectories(cheat.resolve("vramlab/gradefixture"));
        Files.writeString(cheat.resolve("vramlab/gradefixture/StepFixtureTest.java"), CHEAT_TEST);
        Files.createDirectories(cheat.resolve("vramlab/quiz"));
        Files.writeString(cheat.resolve("vramlab/quiz/ScoreRow.java"), CHEAT_HARNESS);
        Files.createDirectories(subs.resolve("cheating/labs/src/test/java/vramlab/gradefixture"));
        Files.writeString(subs.resolve("cheating/labs/src/test/java/vramlab/gradefixture/StepFixtureTest.java"),
                FIXTURE.replace("assertEquals(", "assertEquals(0, 0); //"));
        make.sources("copycat", make.solutions(), Submissions.Edit.none());
        Submissions.copyTree(subs.resolve("correct/labs/answers"), subs.resolve("copycat/labs/answers"));
        make.forging("forging", "3.1");
        make.blankSheets("forging");

        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Grader g = new Grader(kit, options(), Files.createDirectories(tmp.resolve("work")), SALT,
                new PrintStream(bytes, true, StandardCharsets.UTF_8));
        List<Path> dirs;
        try (Stream<Path> s = Files.list(subs)) {
            dirs = s.sorted().toList();
        }
        for (Grader.Result r : g.gradeClass(dirs, tmp.resolve("out"))) graded.put(r.student(), r);
        log = bytes.toString(StandardCharsets.UTF_8);
    }

    static Grader.Options options() {
        return new Grader.Options(Duration.ofSeconds(5), Duration.ofSeconds(60), Grader.Options.OUTPUT_CAP, "visible",
                Duration.ofSeconds(1), 2);
    }

    static Path compileFixture(Kit kit) throws IOException {
        Path src = Files.createDirectories(tmp.resolve("fixture-src/vramlab/gradefixture"));
        Files.writeString(src.resolve("StepFixtureTest.java"), FIXTURE);
        Path classes = Files.createDirectories(tmp.resolve("fixture-classes"));
        List<Path> cp = new ArrayList<>(kit.runtime());
        cp.add(kit.referenceCore());
        String classpath = cp.stream().map(Path::toString).collect(Collectors.joining(File.pathSeparator));
        int rc = ToolProvider.getSystemJavaCompiler().run(null, null, null, "-d", classes.toString(), "-cp", classpath,
                "-proc:none", src.resolve("StepFixtureTest.java").toString());
        assertThat(rc).as("the fixture test compiles").isZero();
        return classes;
    }

    static List<ScoreRow> rows(String id) { return graded.get(id).rows(); }

    /** The quiz's points: every registered question's graded item, whatever chapters ship. */
    static int quizMax() {
        return rows("correct").stream().filter(r -> r.step().startsWith("q")).mapToInt(ScoreRow::points).sum();
    }

    static int lab(String id) { return rows(id).stream().filter(r -> !r.step().startsWith("q")).mapToInt(ScoreRow::earned).sum(); }
    static int quiz(String id) { return rows(id).stream().filter(r -> r.step().startsWith("q")).mapToInt(ScoreRow::earned).sum(); }

    static ScoreRow row(String id, String step) {
        return rows(id).stream().filter(r -> r.step().equals(step)).findFirst().orElseThrow();
    }

    static String flags(String id) { return String.join("\n", graded.get(id).flags()); }

    @Test
    @DisplayName("every submission gets the score its behaviour earns: lab items out of 9, the whole quiz")
    void scores() {
        assertThat(quizMax()).as("the quiz covers every chapter's questions").isGreaterThanOrEqualTo(40);
        Map<String, List<Integer>> expected = new LinkedHashMap<>();
        expected.put("correct", List.of(9, quizMax()));
        expected.put("empty", List.of(0, 0));
        expected.put("broken", List.of(2, quizMax()));
        expected.put("looping", List.of(7, 0));
        expected.put("exiting", List.of(6, 0));
        expected.put("flooding", List.of(9, 0));
        expected.put("cheating", List.of(0, 0));
        expected.put("forging", List.of(0, 0));
        expected.forEach((id, s) -> assertThat(List.of(lab(id), quiz(id))).as(id + ": " + rows(id)).isEqualTo(s));
        assertThat(rows("correct")).allSatisfy(r -> assertThat(r.passed()).isTrue());
        assertThat(graded.get("correct").flags()).isEmpty();
    }

    @Test
    @DisplayName("a core that does not compile costs its own steps, names the file and line, and nothing else")
    void brokenCoreCostsOnlyItsSteps() {
        for (String step : List.of("3.1", "3.4", "4.2")) {
            assertThat(row("broken", step).reason()).as(step).contains("did not compile: the alloc core")
                    .contains("vramlab/alloc/CachingAllocator.java:" + brokenLine);
        }
        assertThat(row("broken", "6.1").passed()).as("the buddy core compiled: its step keeps its points").isTrue();
        assertThat(flags("broken")).contains("did not compile: the alloc core");
    }

    @Test
    @DisplayName("each lost item says why: a Todo, not answered, a time-out, an exit")
    void reasons() {
        assertThat(row("empty", "3.1").reason()).contains("TODO step 3.1");
        assertThat(row("empty", "q3.1").reason()).contains("not answered");
        // the method the test was stuck in, its line, and the test (the fixture's kit has no markers to name the step)
        assertThat(row("looping", "3.1").reason()).contains("timed out after 5 s in ToyPolicy.roundSize (ToyPolicy.java:")
                .contains("test StepFixtureTest.rounds");
        assertThat(row("looping", "4.2").passed()).isTrue();
        assertThat(flags("looping")).contains("timed out: 1 item");
        assertThat(row("exiting", "3.4").reason()).contains("JVM exited with status 3");
        assertThat(row("exiting", "3.1").passed()).as("graded after the exit, in a new JVM").isTrue();
        assertThat(flags("exiting")).contains("exited");
        assertThat(row("looping", "q4.1").reason()).contains("labs/answers/ch04.txt, which is missing");
    }

    @Test
    @DisplayName("a submission cannot replace the graded tests or their points")
    void cheatingChangesNothing() {
        assertThat(rows("cheating")).filteredOn(r -> !r.step().startsWith("q"))
                .extracting(ScoreRow::points).containsExactly(2, 3, 2, 2);
        assertThat(row("cheating", "3.1").reason()).contains("TODO step 3.1");
        assertThat(flags("cheating")).contains("read the code: vramlab/quiz/ScoreRow.java uses the grading harness");
    }

    @Nested
    @DisplayName("forged credit earns nothing")
    class Forging {
        @Test
        @DisplayName("a PartialCredit made by reflection, fake harness classes, system properties, forged score lines")
        void earnsNothing() {
            assertThat(rows("forging")).allSatisfy(r -> assertThat(r.earned()).as(r.toString()).isZero());
            assertThat(row("forging", "3.1").reason()).isEqualTo("fine");
            assertThat(row("forging", "3.1").status()).isEqualTo("FAILED");
        }

        @Test
        @DisplayName("the forged lines are counted and the code is flagged for the instructor to read")
        void isFlagged() {
            assertThat(flags("forging")).contains("forged results:")
                    .contains("read the code: vramlab/alloc/Forge.java uses reflection")
                    .contains("system properties").contains("file writes")
                    .contains("vramlab/quiz/grade/ChildRunner.java uses");
        }

        @Test
        @DisplayName("nothing it wrote reaches the gradebook")
        void gradebookIsTheGradersOwn() throws IOException {
            assertThat(Files.readString(tmp.resolve("out").resolve(Gradebook.WIDE))).doesNotContain("forged,999");
        }
    }

    @Test
    @DisplayName("two students get different numbers: the copied key sheets lose points and are flagged")
    void copiedAnswersFail() {
        assertThat(quiz("correct")).isEqualTo(quizMax());
        assertThat(quiz("copycat")).isLessThan(quizMax() * 3 / 4);
        assertThat(row("copycat", "q3.1").reason()).contains("not the size the simulator computes")
                .contains("written for student 'correct', not 'copycat'");
        assertThat(flags("copycat")).contains("copied sheet?");
    }

    @Nested
    @DisplayName("the gradebook")
    class Reports {
        @Test
        @DisplayName("one row per student with chapter subtotals, one row per item with its reason, a results.json each")
        void files() throws IOException {
            Path out = tmp.resolve("out");
            List<String> wide = Files.readString(out.resolve(Gradebook.WIDE)).lines().toList();
            assertThat(wide.get(0)).startsWith("student,total,max,ch01 lab (0),ch01 quiz (").contains("ch03 lab (5)")
                    .endsWith(",flags,graded_at,run");
            int total = 9 + quizMax();
            assertThat(wide).anySatisfy(l -> assertThat(l).startsWith("correct," + total + "," + total + ",0,"));
            // The flag names the file from the copy's root, as the item's detail does (it said vramlab/alloc/...).
            assertThat(wide).anySatisfy(l -> assertThat(l).startsWith("broken,")
                    .contains("did not compile: the alloc core (labs/src/main/java/vramlab/alloc/"));
            String items = Files.readString(out.resolve(Gradebook.LONG));
            assertThat(items).startsWith("student,step,title,points,max,status,reason,detail\n")
                    .contains("empty,3.1,rounds on the toy ladder,0,2,NOT_WRITTEN,")
                    .contains(",WAITING,\"(needs step 3.1 first) Todo")
                    .contains("looping,3.1,rounds on the toy ladder,0,2,TIMEOUT,\"timed out after 5 s in ToyPolicy.roundSize")
                    .contains("broken,3.1,rounds on the toy ladder,0,2,COMPILE_ERROR,\"did not compile: the alloc core")
                    .contains("exiting,3.4,merges on free,0,3,CRASHED,\"the JVM exited with status 3");
            assertThat(items.lines()).as("one line per student and item").hasSize(1 + graded.values().stream()
                    .mapToInt(r -> r.rows().size()).sum());
            for (String id : graded.keySet()) {
                assertThat(out.resolve(id).resolve("results.json")).exists();
            }
            assertThat(Files.readString(out.resolve("empty/results.json"))).contains("(needs step 3.1 first)");
        }

        @Test
        @DisplayName("progress: one line per submission on the log, [k/n] id: points in seconds")
        void progress() {
            assertThat(log.lines().filter(l -> l.matches("\\[\\d+/9] [a-z]+: \\d+/\\d+ in \\d+\\.\\d s.*"))).hasSize(9);
        }

        @Test
        @DisplayName("regrading one student keeps everyone else's rows as they were")
        void regrade() throws Exception {
            Path out = tmp.resolve("out");
            List<String> before = Files.readString(out.resolve(Gradebook.WIDE)).lines().toList();
            Grader g = new Grader(kit, options(), tmp.resolve("work"), SALT, new PrintStream(new ByteArrayOutputStream()));
            g.gradeClass(List.of(tmp.resolve("subs/empty")), out);
            List<String> after = Files.readString(out.resolve(Gradebook.WIDE)).lines().toList();
            assertThat(after).hasSameSizeAs(before);
            assertThat(after).containsAll(before.stream().filter(l -> !l.startsWith("empty,")).toList());
            assertThat(after).anySatisfy(l -> assertThat(l).startsWith("empty,0,").contains("regraded (was 0/"));
        }
    }

    @Test
    @DisplayName("the salt never reaches a submission's JVM")
    void saltStaysWithTheGrader() throws IOException {
        try (Stream<Path> s = Files.walk(tmp.resolve("work"))) {
            for (Path p : s.filter(Files::isRegularFile).filter(p -> p.toString().endsWith(".txt")).toList()) {
                assertThat(Files.readString(p, StandardCharsets.ISO_8859_1)).doesNotContain("test-instructor-salt");
            }
        }
    }

    @Test
    @DisplayName("the launcher: an empty folder is graded and flagged, a stray file skipped, and the last line counts both")
    void classSummary() throws IOException {
        Path empty = Files.createDirectories(tmp.resolve("shapes/nobody"));
        Path stray = Files.writeString(tmp.resolve("shapes/notes.txt"), "export notes");
        Path out = tmp.resolve("shapes-out");
        CliRun r = CliRun.of("grade", "--practice", "--out", out.toString(), empty.toString(), stray.toString());
        assertThat(r.status()).as(r.err()).isZero();
        assertThat(r.out()).containsPattern("graded 1 submission in [0-9.]+ s \\(1 flagged, 1 skipped\\); run ");
        assertThat(r.err()).contains("skipped " + stray + ": not a folder, a .zip or a .tar.gz")
                .containsPattern("\\[1/1] nobody: 0/\\d+ in [0-9.]+ s, no labs/ \\(no labs/ found: looked for");
        assertThat(Files.readString(out.resolve(Gradebook.WIDE))).contains("no labs/ found: looked for labs/src/main/java");
    }

    @Test
    @DisplayName("the launcher: when nothing given is a submission, one line and exit status 2")
    void nothingToGrade() throws IOException {
        Path stray = Files.writeString(tmp.resolve("stray.txt"), "x");
        CliRun r = CliRun.of("grade", "--practice", stray.toString(), tmp.resolve("nosuch").toString());
        assertThat(r.status()).isEqualTo(2);
        assertThat(r.err().strip()).isEqualTo("error: grade: " + stray + ": not a folder, a .zip or a .tar.gz");
    }

    @Test
    @DisplayName("without an instructor salt, grading quiz sheets refuses to run unless --practice")
    void saltOrPractice() {
        CliRun r = CliRun.of("grade", tmp.resolve("subs/empty").toString());
        assertThat(r.status()).isEqualTo(2);
        assertThat(r.err()).startsWith("error: grade: no instructor salt").contains("--practice").hasLineCount(1);
        assertThat(GradeCommand.salt(true, true).isPractice()).isTrue();
        assertThatThrownBy(() -> GradeCommand.salt(false, true)).isInstanceOf(UsageException.class);
        assertThat(GradeCommand.salt(false, false).isPractice()).as("no quiz, nothing to salt").isTrue();
    }
}
