package vramlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

import org.apache.commons.compress.archivers.zip.ZipArchiveEntry;
import org.apache.commons.compress.archivers.zip.ZipFile;

import vramlab.quiz.KitPaths;
import vramlab.quiz.Salt;
import vramlab.quiz.grade.Declared;
import vramlab.quiz.grade.GradescopeZip;
import vramlab.quiz.grade.Kit;

/**
 * Gradescope's layout, run for real: the zip {@code ./vramlab release --gradescope} writes
 * ({@link GradescopeZip}) unpacked into {@code source/} as Gradescope unpacks it, its
 * {@code setup.sh} run there as the image build runs it (the JDK and Maven are already here, so
 * it only builds), then its {@code run_autograder} on a student's labs/ upload in
 * {@code submission/} in which CachingAllocator.java does not compile and step 6.1 forges
 * credit, with the submitter's id in {@code submission_metadata.json}. The results carry every
 * point the kit declares, lab and quiz, keep every other core's points and the salted quiz;
 * without salt.txt they say why nothing was graded.
 */
@Tag("grading-fixtures")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class GradescopeLayoutTest {
    static final String SALT = "gradescope-fixture-salt";
    static final String SID = "s1234567";
    @TempDir static Path tmp;
    static Path ag;
    static Shell first;
    static Shell setup;
    static GradescopeZip.Written zip;
    static final List<String> names = new java.util.ArrayList<>();
    static int brokenLine;

    @BeforeAll
    static void runTheAutograder() throws Exception {
        Path root = KitPaths.root();
        ag = tmp.resolve("autograder");
        zip = GradescopeZip.write(root, SALT, tmp.resolve("autograder.zip"));
        unzip(zip.zip(), ag.resolve("source"));
        setup = Shell.run(ag.resolve("source"), "bash setup.sh", Map.of(), 20);
        assertThat(setup.status()).as(setup.output()).isZero();
        Path subs = Files.createDirectories(tmp.resolve("subs"));
        Submissions make = new Submissions(root, subs, Salt.of(SALT));
        Submissions.Edit broken = Submissions.edit("vramlab/alloc/CachingAllocator.java", "Block prev = block.prev;",
                "Block prev = block.prev");
        brokenLine = Submissions.lineOf(make.solutions(), "vramlab/alloc/CachingAllocator.java", "Block prev = block.prev;");
        make.sources(SID, make.solutions(), broken.then(Submissions.forge("6.1", "vramlab.buddy")));
        Files.writeString(subs.resolve(SID).resolve("labs/src/main/java/vramlab/buddy/Forge.java"),
                Submissions.FORGE.replace("PACKAGE", "vramlab.buddy"));
        make.keySheets(SID, SID, null);
        Files.move(subs.resolve(SID).resolve("labs"), ag.resolve("submission"));
        Files.writeString(ag.resolve("submission_metadata.json"),
                "{\"users\": [{\"email\": \"ada@example.edu\", \"sid\": \"" + SID + "\", \"name\": \"Ada\"}]}");
        first = Shell.run(ag.resolve("source"), "bash run_autograder", Map.of("AUTOGRADER_ROOT", ag.toString()), 20);
    }

    /** Unpacks the zip as Gradescope does, file modes included. */
    static void unzip(Path zip, Path to) throws Exception {
        try (ZipFile z = ZipFile.builder().setPath(zip).get()) {
            for (ZipArchiveEntry e : java.util.Collections.list(z.getEntries())) {
                names.add(e.getName());
                Path p = to.resolve(e.getName());
                Files.createDirectories(p.getParent());
                try (var in = z.getInputStream(e)) {
                    Files.copy(in, p);
                }
                if ((e.getUnixMode() & 0100) != 0) p.toFile().setExecutable(true, false);
            }
        }
    }

    static String results() throws Exception { return Files.readString(ag.resolve("results/results.json")); }

    /** Each test object of results.json, as text. */
    static List<String> tests() throws Exception {
        String r = results();
        return List.of(r.substring(r.indexOf("\"tests\": [")).split("\\},\\s*\\{"));
    }

    static int score(String test) {
        Matcher m = Pattern.compile("\"score\": (\\d+), \"max_score\": (\\d+)").matcher(test);
        assertThat(m.find()).as(test).isTrue();
        return Integer.parseInt(m.group(1));
    }

    static int max(String test) {
        Matcher m = Pattern.compile("\"max_score\": (\\d+)").matcher(test);
        assertThat(m.find()).as(test).isTrue();
        return Integer.parseInt(m.group(1));
    }

    @Test
    @Order(0)
    @DisplayName("the zip: setup.sh and run_autograder at its root, salt.txt, no build output, history or site, under 20 MB")
    void theZip() throws Exception {
        assertThat(names).contains("setup.sh", "run_autograder", "salt.txt", "pom.xml", "vramlab",
                "solutions/pom.xml", "cli/pom.xml", "labs/pom.xml");
        assertThat(names).noneMatch(n -> n.matches("(.*/)?(target|\\.git)/.*"))
                .noneMatch(n -> n.matches("(bench|site|playground|slides|gradecheck|grades|submissions)/.*"));
        assertThat(zip.bytes()).isLessThan(20L << 20);
        assertThat(ag.resolve("source/salt.txt")).hasContent(SALT);
        assertThat(Files.readString(ag.resolve("source/pom.xml"))).doesNotContain("<module>bench</module>")
                .doesNotContain("<module>site</module>").contains("<module>cli</module>");
        assertThat(Files.isExecutable(ag.resolve("source/run_autograder"))).isTrue();
        assertThat(Files.isExecutable(ag.resolve("source/setup.sh"))).isTrue();
        assertThat(ag.resolve("source/bench/target")).as("setup.sh built no benchmarks").doesNotExist();
    }

    @Test
    @Order(1)
    @DisplayName("results.json carries every point the kit declares, lab and quiz")
    void everyDeclaredPoint() throws Exception {
        Path root = KitPaths.root();
        int lab = 0;
        java.util.regex.Pattern graded = java.util.regex.Pattern.compile("@Graded\\(step = \"([^\"q][^\"]*)\", points = (\\d+)\\)");
        try (var s = Files.walk(root.resolve("chapters"))) {
            for (Path f : s.filter(p -> p.toString().endsWith(".java") && p.toString().contains("/src/test/java/")).toList()) {
                Matcher m = graded.matcher(Files.readString(f));
                while (m.find()) lab += Integer.parseInt(m.group(2));
            }
        }
        int quiz = Declared.quizTotal(Kit.registeredQuestions(), SID, Salt.of(SALT));
        assertThat(lab).as("lab points in the chapters' test sources").isPositive();
        assertThat(quiz).isPositive();
        assertThat(tests().stream().mapToInt(GradescopeLayoutTest::max).sum()).isEqualTo(lab + quiz);
        assertThat(tests().stream().filter(t -> t.contains("\"number\": \"q")).mapToInt(GradescopeLayoutTest::max).sum())
                .isEqualTo(quiz);
    }

    @Test
    @Order(1)
    @DisplayName("the core that does not compile costs its own items, naming the file and line; the others keep theirs")
    void partialCredit() throws Exception {
        assertThat(first.status()).as(first.output()).isZero();
        List<String> tests = tests();
        assertThat(tests).filteredOn(t -> t.contains("\"number\": \"3.")).isNotEmpty().allSatisfy(t -> {
            assertThat(score(t)).isZero();
            assertThat(t).contains("did not compile: the alloc core").contains("CachingAllocator.java:" + brokenLine);
        });
        assertThat(tests).filteredOn(t -> t.matches("(?s).*\"number\": \"[127]\\..*")).isNotEmpty()
                .allSatisfy(t -> assertThat(score(t)).as(t).isEqualTo(max(t)));
        assertThat(tests).filteredOn(t -> t.contains("\"number\": \"q")).isNotEmpty()
                .allSatisfy(t -> assertThat(score(t)).as("the quiz, marked with salt.txt for " + SID).isEqualTo(max(t)));
    }

    @Test
    @Order(2)
    @DisplayName("the forged step earns nothing, and the output says what was forged")
    void forgedCreditEarnsNothing() throws Exception {
        assertThat(tests()).filteredOn(t -> t.contains("\"number\": \"6.1\"")).isNotEmpty()
                .allSatisfy(t -> assertThat(score(t)).isZero());
        assertThat(results()).contains("Flag: forged results").contains("vramlab/buddy/Forge.java uses reflection");
        int sum = tests().stream().mapToInt(GradescopeLayoutTest::score).sum();
        assertThat(results()).contains("\"score\": " + sum + ",");
    }

    @Test
    @Order(3)
    @DisplayName("without salt.txt nothing is graded, and results.json says why")
    void withoutTheSalt() throws Exception {
        Files.delete(ag.resolve("source/salt.txt"));
        Shell r = Shell.run(ag.resolve("source"), "bash run_autograder",
                Map.of("AUTOGRADER_ROOT", ag.toString()), 10);
        assertThat(r.status()).as(r.output()).isZero();
        assertThat(results()).contains("\"score\": 0").contains("no instructor salt");
    }
}
