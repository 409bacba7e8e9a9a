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

import vramlab.quiz.KitPaths;
import vramlab.quiz.Salt;

/**
 * Gradescope's layout, run for real with {@code quiz/gradescope/run_autograder}: the kit (its
 * sources, built by the script, and the instructor's salt.txt) in {@code source/}, a student's
 * labs/ upload in {@code submission/} in which CachingAllocator.java does not compile and step
 * 6.1 forges credit, and the submitter's id in {@code submission_metadata.json}. The results
 * keep every other core's points and the salted quiz; without salt.txt they say why nothing was
 * graded.
 */
@Tag("grading-fixtures")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class GradescopeLayoutTest {
    static final String SALT = "gradescope-fixture-salt";
    static final String SID = "s1234567";
    @TempDir static Path tmp;
    static Path ag;
    static Shell first;
    static int brokenLine;

    @BeforeAll
    static void runTheAutograder() throws Exception {
        Path root = KitPaths.root();
        ag = tmp.resolve("autograder");
        Shell.copySources(root, ag.resolve("source"));
        Files.writeString(ag.resolve("source/salt.txt"), SALT + "\n");
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
        first = Shell.run(ag.resolve("source"), "bash quiz/gradescope/run_autograder",
                Map.of("AUTOGRADER_ROOT", ag.toString()), 20);
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
        Shell r = Shell.run(ag.resolve("source"), "bash quiz/gradescope/run_autograder",
                Map.of("AUTOGRADER_ROOT", ag.toString()), 10);
        assertThat(r.status()).as(r.output()).isZero();
        assertThat(results()).contains("\"score\": 0").contains("no instructor salt");
    }
}
