package vramlab.quiz.grade;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code quiz/gradescope/run_autograder}'s last step, alone: it copies the student's results.json
 * from the folder the grader wrote it in. It looked in {@code out/$STUDENT/}, the SID with other
 * characters made {@code _}; the grader does not keep every such id as its folder
 * ({@link Grader#folderName}: a SID 张三 is {@code __}, which begins with the grader's {@code _}),
 * and the student got "The autograder could not grade this submission: no results were written".
 * Here {@code ./vramlab grade} is a stand-in that writes results.json where the grader would (and
 * the grader's own {@code .work}); the kit counts as built. The full run, kit and all, is
 * {@code GradescopeLayoutTest} (-Pgrading-fixtures).
 */
class RunAutograderScriptTest {
    @TempDir Path tmp;

    @Test
    @DisplayName("run_autograder hands Gradescope the results of a SID the grader gives a hashed folder (张三 -> __~...)")
    void hashedFolder() throws Exception {
        requireBashAndPython();
        String folder = Grader.folderName("__");
        assertThat(folder).as("the grader keeps no folder __").isNotEqualTo("__");
        String json = "{\"score\": 7, \"tests\": []}";
        Path ag = tmp.resolve("autograder");
        Path source = Files.createDirectories(ag.resolve("source"));
        Path script = Path.of("gradescope/run_autograder");
        if (!Files.exists(script)) script = Path.of("quiz/gradescope/run_autograder");
        Files.copy(script, source.resolve("run_autograder"));
        Files.createDirectories(source.resolve("cli/target"));
        Files.writeString(source.resolve("cli/target/vramlab.classpath"), "");
        Files.writeString(source.resolve("vramlab"), """
                #!/usr/bin/env bash
                # stands in for ./vramlab grade --out DIR ... SUBMISSION
                out=$3
                mkdir -p "$out/.work/_inventory" "$out/FOLDER"
                printf '%s' 'JSON' > "$out/FOLDER/results.json"
                echo "[1/1] __: 7/272 in 1.0 s, labs/ at the top, reports in FOLDER/" >&2
                """.replace("FOLDER", folder).replace("JSON", json));
        Files.createDirectories(ag.resolve("submission/labs/src/main/java"));
        Files.writeString(ag.resolve("submission_metadata.json"),
                "{\"users\": [{\"email\": \"z@example.edu\", \"sid\": \"张三\", \"name\": \"Z\"}]}", StandardCharsets.UTF_8);
        ProcessBuilder pb = new ProcessBuilder("bash", "run_autograder").directory(source.toFile()).redirectErrorStream(true);
        pb.environment().put("AUTOGRADER_ROOT", ag.toString());
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as(out).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        assertThat(Files.readString(ag.resolve("results/results.json"))).as(out).isEqualTo(json);
    }

    /** bash and python3 run the script; without them it skips, saying so (VRAMLAB_REQUIRE_PYTHON=1 fails instead). */
    static void requireBashAndPython() {
        for (String tool : new String[] {"bash", "python3"}) {
            try {
                Process pr = new ProcessBuilder(tool, "--version").redirectErrorStream(true).start();
                pr.getInputStream().readAllBytes();
                if (pr.waitFor(20, TimeUnit.SECONDS) && pr.exitValue() == 0) continue;
            } catch (java.io.IOException | InterruptedException e) {
                // not there
            }
            String why = tool + " not found on PATH: Gradescope's run_autograder needs it";
            String env = System.getenv("VRAMLAB_REQUIRE_PYTHON");
            if (env != null && !env.isBlank() && !"0".equals(env)) fail(why + ", and it is required here (VRAMLAB_REQUIRE_PYTHON)");
            org.junit.jupiter.api.Assumptions.abort("skipped: " + why);
        }
    }
}
