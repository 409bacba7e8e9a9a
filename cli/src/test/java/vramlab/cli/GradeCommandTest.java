package vramlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

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
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import javax.tools.ToolProvider;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import vramlab.quiz.AnswerSheet;
import vramlab.quiz.KitPaths;
import vramlab.quiz.Question;
import vramlab.quiz.Reports;
import vramlab.quiz.Salt;
import vramlab.quiz.ScoreRow;
import vramlab.quiz.Variant;
import vramlab.quiz.grade.Grader;
import vramlab.quiz.grade.Kit;

/**
 * Batch grading survives students: fixture submissions made here from the kit's own labs/ and
 * solutions/ (correct, untouched, not compiling, looping, exiting, flooding, one that tries to
 * replace the graded test, one that copies another student's answers), graded by three fixture
 * lab tests (7 points) and the real ch03/ch04 quiz (40 points) under an instructor's salt.
 */
class GradeCommandTest {
    static final Salt SALT = Salt.of("test-instructor-salt");
    static final String FIXTURE = """
            package vramlab.gradefixture;

            import static org.junit.jupiter.api.Assertions.assertEquals;
            import static vramlab.units.Bytes.mib;

            import org.junit.jupiter.api.*;
            import vramlab.alloc.*;
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

    @TempDir static Path tmp;
    static Path root;
    static Map<String, List<ScoreRow>> graded = new LinkedHashMap<>();
    static String gradebook;

    @BeforeAll
    static void gradeEverySubmission() throws Exception {
        root = KitPaths.root();
        Kit built = Kit.locate(root);
        Path fixture = compileFixture(built);
        Kit kit = new Kit(built.referenceCore(), List.of(fixture), built.runtime(), built.questions());
        Path subs = Files.createDirectories(tmp.resolve("subs"));
        Path solutions = root.resolve("solutions/src/main/java");
        Path labs = untouchedLabs(tmp.resolve("untouched"));   // as generated, even in a student's copy
        submission(subs, "correct", solutions, UnaryOperator.identity(), true);
        submission(subs, "empty", labs, UnaryOperator.identity(), false);
        blankSheets(subs.resolve("empty/labs/answers"), "empty");
        submission(subs, "broken", solutions, UnaryOperator.identity(), true);
        Files.writeString(subs.resolve("broken/labs/src/main/java/vramlab/alloc/Broken.java"), "class Broken { int x = ; }");
        submission(subs, "looping", solutions, edit("ToyPolicy.java", "if (requested <= SMALL_SIZE) return",
                "while (requested < 1000) requested |= 1;\n        if (requested <= SMALL_SIZE) return"), false);
        submission(subs, "exiting", solutions, edit("CachingAllocator.java", "Block prev = block.prev;",
                "System.exit(3);\n        Block prev = block.prev;"), false);
        submission(subs, "flooding", solutions, edit("ToyPolicy.java", "if (requested <= SMALL_SIZE) return",
                "for (int i = 0; i < 200_000; i++) System.out.println(\"flood flood flood flood flood\");\n"
                        + "        if (requested <= SMALL_SIZE) return"), false);
        submission(subs, "cheating", labs, UnaryOperator.identity(), false);
        Path cheat = subs.resolve("cheating/labs/src/main/java");
        Files.createDirectories(cheat.resolve("vramlab/gradefixture"));
        Files.writeString(cheat.resolve("vramlab/gradefixture/StepFixtureTest.java"), CHEAT_TEST);
        Files.createDirectories(cheat.resolve("vramlab/quiz"));
        Files.writeString(cheat.resolve("vramlab/quiz/ScoreRow.java"), CHEAT_HARNESS);
        Files.createDirectories(subs.resolve("cheating/labs/src/test/java/vramlab/gradefixture"));
        Files.writeString(subs.resolve("cheating/labs/src/test/java/vramlab/gradefixture/StepFixtureTest.java"),
                FIXTURE.replace("assertEquals(", "assertEquals(0, 0); //"));
        submission(subs, "copycat", solutions, UnaryOperator.identity(), false);
        copyTree(subs.resolve("correct/labs/answers"), subs.resolve("copycat/labs/answers"));

        Grader.Options o = new Grader.Options(Duration.ofSeconds(5), Duration.ofSeconds(90), 4L << 20, "visible");
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        Grader g = new Grader(kit, o, Files.createDirectories(tmp.resolve("work")), SALT, new PrintStream(log, true));
        List<Path> dirs;
        try (Stream<Path> s = Files.list(subs)) {
            dirs = s.sorted().toList();
        }
        Path out = tmp.resolve("out");
        graded.putAll(g.gradeAll(dirs, out));
        gradebook = Files.readString(out.resolve("gradebook.csv"));
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

    static UnaryOperator<Path> edit(String file, String find, String replace) {
        return p -> {
            if (!p.getFileName().toString().equals(file)) return p;
            try {
                String text = Files.readString(p);
                assertThat(text).as(file + " holds the text the fixture edits").contains(find);
                Path edited = Files.createTempFile(tmp, "edit", ".java");
                Files.writeString(edited, text.replace(find, replace));
                return edited;
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        };
    }

    static void submission(Path subs, String id, Path sources, UnaryOperator<Path> edit, boolean keySheets)
            throws IOException {
        Path to = subs.resolve(id).resolve("labs/src/main/java");
        try (Stream<Path> s = Files.walk(sources)) {
            for (Path p : s.filter(Files::isRegularFile).toList()) {
                Path dest = to.resolve(sources.relativize(p).toString());
                Files.createDirectories(dest.getParent());
                Files.copy(edit.apply(p), dest);
            }
        }
        if (!keySheets) return;
        Path answers = Files.createDirectories(subs.resolve(id).resolve("labs/answers"));
        for (String ch : Kit.registeredQuestions().stream().map(Question::chapter).distinct().toList()) {
            List<Question> qs = Kit.registeredQuestions().stream().filter(q -> q.chapter().equals(ch)).toList();
            Files.writeString(answers.resolve(ch + ".txt"), AnswerSheet.key(ch, Variant.of(ch, id, SALT), qs));
        }
    }

    /** The labs exactly as the generator makes them from solutions/: every step a Todo. */
    static Path untouchedLabs(Path dir) throws IOException {
        for (Map.Entry<String, String> f : vramlab.labgen.LabGenerator.generate(root.resolve("solutions")).entrySet()) {
            Path p = dir.resolve(f.getKey());
            Files.createDirectories(p.getParent());
            Files.writeString(p, f.getValue());
        }
        return dir.resolve("src/main/java");
    }

    /** The blank answer sheets a student receives, for this student's variant. */
    static void blankSheets(Path answers, String id) throws IOException {
        Files.createDirectories(answers);
        for (String ch : Kit.registeredQuestions().stream().map(Question::chapter).distinct().toList()) {
            List<Question> qs = Kit.registeredQuestions().stream().filter(q -> q.chapter().equals(ch)).toList();
            Files.writeString(answers.resolve(ch + ".txt"), AnswerSheet.template(ch, Variant.of(ch, id, SALT), qs));
        }
    }

    static void copyTree(Path from, Path to) throws IOException {
        Files.createDirectories(to);
        try (Stream<Path> s = Files.list(from)) {
            for (Path p : s.toList()) Files.copy(p, to.resolve(p.getFileName().toString()));
        }
    }

    /** The quiz's points: every registered question's graded item, whatever chapters ship. */
    static int quizMax() {
        return graded.get("correct").stream().filter(r -> r.step().startsWith("q")).mapToInt(ScoreRow::points).sum();
    }

    static int lab(String id) { return graded.get(id).stream().filter(r -> !r.step().startsWith("q")).mapToInt(ScoreRow::earned).sum(); }
    static int quiz(String id) { return graded.get(id).stream().filter(r -> r.step().startsWith("q")).mapToInt(ScoreRow::earned).sum(); }

    static ScoreRow row(String id, String step) {
        return graded.get(id).stream().filter(r -> r.step().equals(step)).findFirst().orElseThrow();
    }

    @Test
    @DisplayName("every submission gets the score its behaviour earns: lab items out of 7, the whole quiz")
    void scores() {
        assertThat(quizMax()).as("the quiz covers every chapter's questions").isGreaterThanOrEqualTo(40);
        Map<String, List<Integer>> expected = new LinkedHashMap<>();
        expected.put("correct", List.of(7, quizMax()));
        expected.put("empty", List.of(0, 0));
        expected.put("broken", List.of(0, quizMax()));
        expected.put("looping", List.of(5, 0));
        expected.put("exiting", List.of(4, 0));
        expected.put("flooding", List.of(7, 0));
        expected.put("cheating", List.of(0, 0));
        expected.forEach((id, s) -> assertThat(List.of(lab(id), quiz(id))).as(id + ": " + graded.get(id)).isEqualTo(s));
        assertThat(graded.get("correct")).allSatisfy(r -> assertThat(r.passed()).isTrue());
    }

    @Test
    @DisplayName("each lost item says why: a Todo, not answered, did not compile, a time-out, an exit")
    void reasons() {
        assertThat(row("empty", "3.1").reason()).contains("TODO step 3.1");
        assertThat(row("empty", "q3.1").reason()).contains("not answered");
        assertThat(row("broken", "3.4").reason()).contains("did not compile").contains("Broken.java:1");
        assertThat(row("looping", "3.1").reason()).contains("timed out after 5 s");
        assertThat(row("looping", "4.2").passed()).isTrue();
        assertThat(row("exiting", "3.4").reason()).contains("JVM exited with status 3");
        assertThat(row("exiting", "3.1").passed()).as("graded after the exit, in a new JVM").isTrue();
        assertThat(row("looping", "q4.1").reason()).contains("labs/answers/ch04.txt, which is missing");
    }

    @Test
    @DisplayName("a submission cannot replace the graded tests or their points")
    void cheatingChangesNothing() {
        assertThat(graded.get("cheating")).filteredOn(r -> !r.step().startsWith("q"))
                .extracting(ScoreRow::points).containsExactly(2, 3, 2);
        assertThat(row("cheating", "3.1").reason()).contains("TODO step 3.1");
    }

    @Test
    @DisplayName("two students get different numbers: the correct key sheets, copied, lose points")
    void copiedAnswersFail() {
        assertThat(quiz("correct")).isEqualTo(quizMax());
        assertThat(quiz("copycat")).isLessThan(quizMax() * 3 / 4);
        assertThat(row("copycat", "q3.1").reason()).contains("not the size the simulator computes");
    }

    @Test
    @DisplayName("one gradebook row per student, and a results.json for each")
    void reports() {
        List<String> lines = gradebook.lines().toList();
        assertThat(lines).hasSize(1 + graded.size());
        assertThat(lines.get(0)).startsWith("student,score,max_score,3.1 ");
        int total = 7 + quizMax();
        assertThat(lines).anySatisfy(l -> assertThat(l).startsWith("correct," + total + "," + total + ",2,3,2,"));
        for (String id : graded.keySet()) {
            assertThat(tmp.resolve("out").resolve(id).resolve("results.json")).exists();
        }
        assertThat(Reports.total(graded.get("empty"))).isEqualTo(7 + quizMax());
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
}
