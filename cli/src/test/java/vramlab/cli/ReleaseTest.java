package vramlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

import vramlab.labgen.LabGenerator;
import vramlab.quiz.KitPaths;
import vramlab.quiz.build.ExpressionLeaks;
import vramlab.quiz.build.StepBodies;

/**
 * {@code ./vramlab release DIR} as an instructor uses it, and the release as a student and GitHub
 * Classroom use it: built from this kit, it holds no solutions and no step body, builds on its
 * own, and its {@code mvn test} grades the student's labs; then, with a student's code in which
 * CachingAllocator.java does not compile, the Classroom workflow's own commands (read from
 * {@code .github/workflows/classroom.yml}) post every other item's points.
 */
@Tag("grading-fixtures")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ReleaseTest {
    @TempDir static Path tmp;
    static Path root;
    static Path release;
    static CliRun made;
    static java.util.Map<String, String> asMade;

    @BeforeAll
    static void makeTheRelease() throws Exception {
        root = KitPaths.root();
        release = tmp.resolve("course");
        made = CliRun.of("release", "--no-site", release.toString());
        asMade = ReleaseRepeatableTest.files(release);     // the tests below build in it and edit its labs/
    }

    @Test
    @Order(1)
    @DisplayName("the release is written, with no solutions/, no answer keys and no instructor tools")
    void written() {
        assertThat(made.status()).as(made.err()).isZero();
        assertThat(made.out()).contains("no solutions, no step bodies, no quiz keys: checked");
        for (String absent : List.of("solutions", "bench", "site", "quiz/gradescope", "HACKING.adoc", ".ci")) {
            assertThat(release.resolve(absent)).as(absent).doesNotExist();
        }
        assertThat(release.resolve(KitPaths.RELEASE_MARKER)).exists();
        assertThat(release.resolve(".github/workflows/classroom.yml")).exists();
    }

    @Test
    @Order(2)
    @DisplayName("labs/ and cores/ are the generator's output: every step a Todo, no step body anywhere")
    void noBodies() throws Exception {
        Map<String, String> generated = LabGenerator.generate(root.resolve("solutions"));
        for (String module : List.of("labs", "cores")) {
            for (Map.Entry<String, String> f : generated.entrySet()) {
                assertThat(release.resolve(module).resolve(f.getKey())).content(StandardCharsets.UTF_8).isEqualTo(f.getValue());
            }
        }
        assertThat(StepBodies.of(root.resolve("solutions")).shownIn(release)).isEmpty();
        try (Stream<Path> s = Files.walk(release)) {
            assertThat(s.filter(p -> p.toString().contains("lab:begin"))).isEmpty();
        }
    }

    @Test
    @Order(3)
    @DisplayName("its own mvn test builds and grades the student's labs and quiz: 0 for the untouched copy, out of every item")
    void mvnTest() throws Exception {
        Shell r = Shell.run(release, "mvn -B -q test", Map.of(), 15);
        assertThat(r.status()).as(r.output()).isZero();
        // The quiz is marked too, on the practice numbers (the release's hashed keys), and says so.
        // A step not written yet reads as check says it: TODO, "not written yet" and where to read and write it.
        assertThat(r.output()).containsPattern("(?m)^  3\\.1 +TODO +0/\\d+ .*\n +not written yet: read the notes, ch03 ")
                .contains("Flag: quiz marked on the practice numbers (no instructor salt here); a sheet with")
                .contains("q3.1: 0/");
        Matcher m = Pattern.compile("Score: (\\d+)/(\\d+)").matcher(r.output());
        assertThat(m.find()).as(r.output()).isTrue();
        assertThat(m.group(1)).isEqualTo("0");
        int labItems = 0;
        Matcher g = Pattern.compile("@Graded\\(step = \"(\\d[^\"]*)\", points = (\\d+)\\)").matcher(testSources());
        while (g.find()) labItems += Integer.parseInt(g.group(2));
        int quizPoints = 0;
        for (int ch = 1; ch <= 8; ch++) {
            String id = String.format("ch%02d", ch);
            for (vramlab.quiz.Question q : QuizCommand.questions(id)) quizPoints += q.points(vramlab.quiz.Variant.seed(id));
        }
        assertThat(Integer.parseInt(m.group(2))).isEqualTo(labItems + quizPoints);
    }

    @Test
    @Order(4)
    @DisplayName("the launcher works on it; what needs the reference says so")
    void launcher() throws Exception {
        Shell quiz = Shell.run(release, "./vramlab quiz 3", Map.of(), 10);
        assertThat(quiz.status()).as(quiz.output()).isZero();
        assertThat(quiz.output()).contains("q3.1");
        // The practice key, hashed: the kit's reference sheet scores full marks, as in the instructor's copy.
        Files.copy(root.resolve("solutions/answers/ch03.txt"), tmp.resolve("ref-ch03.txt"));
        Shell check = Shell.run(release, "./vramlab quiz 3 --check " + tmp.resolve("ref-ch03.txt"), Map.of(), 10);
        assertThat(check.status()).as(check.output()).isZero();
        Matcher full = Pattern.compile("Score: (\\d+)/(\\d+)").matcher(check.output());
        assertThat(full.find()).as(check.output()).isTrue();
        assertThat(full.group(1)).isEqualTo(full.group(2));
        Shell exercise = Shell.run(release, "./vramlab exercise 3 2 --seed 3 --answer", Map.of(), 10);
        assertThat(exercise.output()).isEqualTo(CliRun.of("exercise", "3", "2", "--seed", "3", "--answer").out());
        Shell graded = Shell.run(release, "./vramlab grade", Map.of(), 10);
        assertThat(graded.output()).contains("Score: ").contains("quiz marked on the practice numbers");
        Shell grade = Shell.run(release, "./vramlab grade --practice " + tmp, Map.of(), 5);
        assertThat(grade.output()).contains("error: grade: grading submissions needs the instructor's copy");
        if (Main.commands().containsKey("check")) {
            Shell one = Shell.run(release, "./vramlab check 3.1", Map.of(), 5);
            assertThat(one.output()).as("check reads the steps from cores/, since a release has no solutions/")
                    .contains("3.1 Round a request").contains("  TODO  ").contains("not written yet").contains("Score: 0/");
        } else {
            System.out.println("ReleaseTest: this kit has no ./vramlab check command yet, so the release's is not tried");
        }
    }

    @Test
    @Order(5)
    @DisplayName("as a student: a right step passes check, a wrong one fails with the rule and no body")
    void checkRightAndWrong() throws Exception {
        String file = "vramlab/buddy/BuddyAllocator.java";
        Path mine = release.resolve("labs/src/main/java").resolve(file);
        String handedOut = Files.readString(mine);
        try {
            Files.copy(root.resolve("solutions/src/main/java").resolve(file), mine, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            Shell right = Shell.run(release, "./vramlab check 6.2", Map.of(), 5);
            assertThat(right.status()).as(right.output()).isZero();
            assertThat(right.output()).contains("check runs your cores in labs/").contains("  pass  ");
            Files.writeString(mine, Files.readString(mine).replace("return offset ^ (1L << order);", "return offset + (1L << order);"));
            Shell wrong = Shell.run(release, "./vramlab check 6.2", Map.of(), 5);
            assertThat(wrong.status()).as(wrong.output()).isEqualTo(1);
            assertThat(wrong.output()).contains("expected").contains("but was").contains("Rule: ").contains("Reread: ch06");
            // The section with the place to open it, as quiz --check names it: this --no-site release's AsciiDoc at
            // the heading's line, from the folder check ran in (the release's root). It named the heading alone.
            Matcher reread = Pattern.compile("Reread: ch06 \"([^\"]+)\" \\((chapters/ch06-buddy/src/docs/asciidoc/ch06-buddy\\.adoc):(\\d+)\\)\\.")
                    .matcher(wrong.output());
            assertThat(reread.find()).as(wrong.output()).isTrue();
            assertThat(Files.readAllLines(release.resolve(reread.group(2))).get(Integer.parseInt(reread.group(3)) - 1)
                    .replace("`+", "`").replace("+`", "`")).as("the line it names").startsWith("=").endsWith(" " + reread.group(1));
            assertThat(ExpressionLeaks.of(root.resolve("solutions")).shownIn(wrong.output())).as(wrong.output()).isEmpty();
        } finally {
            Files.writeString(mine, handedOut);
        }
    }

    @Test
    @Order(5)
    @DisplayName("as a student: replay, advise and triage run your labs/ (a release has no reference): a step not"
            + " written is named, and with every step written a replay prints what the kit's own does")
    void replayOnYourCores() throws Exception {
        Path trace = tmp.resolve("five.trace");
        Files.writeString(trace, "alloc a 3MiB\nalloc b 512\nfree a\nempty_cache\nfree b\n");
        Shell handedOut = Shell.run(release, "./vramlab replay " + trace, Map.of(), 5);
        assertThat(handedOut.status()).as(handedOut.output()).isEqualTo(1);
        assertThat(handedOut.output()).contains("error: replay: it runs your cores in labs/, and step 3.1 is not done");
        Shell pasted = Shell.run(release, "printf 'CUDA out of memory. Tried to allocate 2.00 GiB' | ./vramlab triage", Map.of(), 5);
        assertThat(pasted.output()).as("a pasted message needs no core").contains("Most likely cause");

        Path labs = release.resolve("labs/src/main/java");
        Path kept = tmp.resolve("labs-as-handed-out");
        copyTree(labs, kept);
        try {
            copyTree(root.resolve("solutions/src/main/java"), labs);       // every step written
            Shell mine = Shell.run(release, "./vramlab replay " + trace, Map.of(), 5);
            assertThat(mine.status()).as(mine.output()).isZero();
            assertThat(mine.output()).contains(CliRun.of("replay", trace.toString()).out());
            Shell advise = Shell.run(release, "./vramlab advise --device 64MiB " + trace, Map.of(), 5);
            assertThat(advise.status()).as(advise.output()).isZero();
            assertThat(advise.output()).contains(CliRun.of("advise", "--device", "64MiB", trace.toString()).out());
        } finally {
            try (Stream<Path> s = Files.walk(labs)) {
                for (Path f : s.sorted(java.util.Comparator.reverseOrder()).toList()) Files.delete(f);
            }
            copyTree(kept, labs);
        }
    }

    /** Copies every file under {@code from} to the same place under {@code to}, over what is there. */
    static void copyTree(Path from, Path to) throws Exception {
        try (Stream<Path> s = Files.walk(from)) {
            for (Path f : s.filter(Files::isRegularFile).toList()) {
                Path target = to.resolve(from.relativize(f).toString());
                Files.createDirectories(target.getParent());
                Files.copy(f, target, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            }
        }
    }

    @Test
    @Order(6)
    @DisplayName("GitHub Classroom: with CachingAllocator.java broken, the workflow posts every other core's points")
    void classroom() throws Exception {
        Path labs = release.resolve("labs/src/main/java");
        Path solutions = root.resolve("solutions/src/main/java");
        try (Stream<Path> s = Files.walk(solutions)) {
            for (Path f : s.filter(Files::isRegularFile).toList()) {
                Files.copy(f, labs.resolve(solutions.relativize(f).toString()), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            }
        }
        Path broken = labs.resolve("vramlab/alloc/CachingAllocator.java");
        int line = Submissions.lineOf(labs, "vramlab/alloc/CachingAllocator.java", "Block prev = block.prev;");
        Files.writeString(broken, Files.readString(broken).replace("Block prev = block.prev;", "Block prev = block.prev"));
        Shell r = Shell.run(release, workflowScript(), Map.of("GITHUB_OUTPUT", tmp.resolve("gh-output").toString()), 15);
        assertThat(r.status()).as(r.output()).isZero();
        String out = Files.readString(tmp.resolve("gh-output"));
        assertThat(out).startsWith("result=");
        String json = new String(Base64.getDecoder().decode(out.substring("result=".length()).strip()), StandardCharsets.UTF_8);
        List<String> tests = List.of(json.split("\\}, \\{"));
        assertThat(tests).filteredOn(t -> t.contains("\"name\": \"3.")).isNotEmpty().allSatisfy(t ->
                assertThat(t).contains("\"score\": 0").contains("did not compile: the alloc core")
                        .contains("vramlab/alloc/CachingAllocator.java:" + line));
        assertThat(tests).filteredOn(t -> t.matches("(?s).*\"name\": \"[12]\\..*")).isNotEmpty()
                .allSatisfy(t -> assertThat(t).contains("\"status\": \"pass\""));
    }

    @Test
    @Order(7)
    @DisplayName("labs/ stays the student's: not ignored by git, and the release's own builds above wrote over none of it")
    void labsStayTheStudents() throws Exception {
        assertThat(release.resolve("labs/.gitignore")).as("the kit's rule that keeps its generated labs/ out of git").doesNotExist();
        assertThat(Files.readString(release.resolve(".gitignore"))).doesNotContain("labs");
        assertThat(release.resolve("labs/STUDENT_COPY")).exists();
        // classroom() broke this line and ran the workflow's mvn builds (labgen's sync among them) since.
        assertThat(Files.readString(release.resolve("labs/src/main/java/vramlab/alloc/CachingAllocator.java")))
                .contains("Block prev = block.prev\n");
    }

    /** The Classroom workflow's grading step, as it is in the release. */
    static String workflowScript() throws Exception {
        String yml = Files.readString(release.resolve(".github/workflows/classroom.yml"));
        Matcher m = Pattern.compile("(?s)id: vramlab\\n.*?run: \\|\\n((?:          [^\\n]*\\n)+)").matcher(yml);
        assertThat(m.find()).as("classroom.yml has a grading step with a run block").isTrue();
        return "set -e\n" + m.group(1).replaceAll("(?m)^ {10}", "");
    }

    static String testSources() throws Exception {
        StringBuilder sb = new StringBuilder();
        try (Stream<Path> s = Files.walk(release.resolve("chapters"))) {
            for (Path f : s.filter(p -> p.toString().endsWith(".java") && p.toString().contains("/src/test/")).toList()) {
                sb.append(Files.readString(f));
            }
        }
        return sb.toString();
    }

    @Test
    @Order(100)
    @DisplayName("a second release of the same commit is the same bytes, file for file (ReleaseRepeatableTest checks each part quickly)")
    void sameCommitSameBytes() throws Exception {
        Path again = tmp.resolve("again");
        CliRun second = CliRun.of("release", "--no-site", again.toString());
        assertThat(second.status()).as(second.err()).isZero();
        java.util.Map<String, String> first = asMade;
        java.util.Map<String, String> other = ReleaseRepeatableTest.files(again);
        assertThat(other.keySet()).isEqualTo(first.keySet());
        assertThat(first.keySet()).filteredOn(f -> !first.get(f).equals(other.get(f))).as("files that differ").isEmpty();
    }
}
