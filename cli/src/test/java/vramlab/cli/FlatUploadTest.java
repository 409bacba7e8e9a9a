package vramlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.ObjectMapper;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import vramlab.quiz.KitPaths;
import vramlab.quiz.Salt;
import vramlab.quiz.grade.Grader;
import vramlab.quiz.grade.Kit;

/**
 * A Gradescope upload of the files alone, without their folders (CachingAllocator.java and
 * ch03.txt at the top, where the grader looks for labs/ or labs/'s contents): nothing is found,
 * every item scores 0, and results.json's {@code output}, which Gradescope shows for the whole
 * submission, says why on its first line. Before, the reason was a flag after every item's line
 * (about a hundred) and just above {@code Score: 0/272}.
 */
class FlatUploadTest {
    @TempDir Path tmp;

    @Test
    @DisplayName("files uploaded without their folders: results.json's output says why first, then the items")
    void reasonFirst() throws Exception {
        Path root = KitPaths.root();
        Path upload = Files.createDirectories(tmp.resolve("submission"));
        Files.copy(root.resolve("solutions/src/main/java/vramlab/alloc/CachingAllocator.java"),
                upload.resolve("CachingAllocator.java"));
        Files.copy(root.resolve("labs/answers/ch03.txt"), upload.resolve("ch03.txt"));
        Grader g = new Grader(Kit.locate(root), Grader.Options.defaults().withJobs(1),
                Files.createDirectories(tmp.resolve("work")), Salt.PRACTICE, new PrintStream(OutputStream.nullOutputStream()));
        Grader.Result r = g.gradeOne("ada", upload, tmp.resolve("out"));
        assertThat(r.earned()).isZero();

        Map<?, ?> results = new ObjectMapper().readValue(tmp.resolve("out/results.json").toFile(), Map.class);
        List<String> lines = ((String) results.get("output")).lines().toList();
        assertThat(lines.get(0)).isEqualTo("Score: 0/" + r.total() + ". Not graded: no labs/ found: looked for"
                + " labs/src/main/java or labs/answers/ at the top of the submission and one or two folders down, and"
                + " for src/main/java or answers/ at the top, but found CachingAllocator.java and ch03.txt without the"
                + " folders that place them: upload the labs/ folder itself, or the whole copy, so that each file keeps"
                + " its path; graded as an empty copy");
        int firstItem = lines.indexOf("Graded steps and questions") + 1;
        assertThat(firstItem).as("the table follows").isPositive();
        assertThat(lines.subList(firstItem, lines.size())).as("the items and their reasons").hasSizeGreaterThan(90);
    }
}
