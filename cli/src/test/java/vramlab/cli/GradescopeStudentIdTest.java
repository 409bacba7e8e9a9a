package vramlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import vramlab.quiz.KitPaths;
import vramlab.quiz.grade.Grader;
import vramlab.quiz.grade.SubmissionIntake;

/**
 * The id {@code quiz/gradescope/run_autograder} grades a Gradescope submission under: the
 * submitter's SID (or email) made a folder name, every character but letters, digits and
 * {@code ._@+-} made {@code _}. Its comment and quiz/README.adoc tell instructors to print the
 * sheets with that converted id; this runs the script itself (bash, python3) with a stand-in
 * for the launcher that only says which submission it was handed, so it costs no build (the
 * whole autograder, built and graded, is {@code GradescopeLayoutTest} in
 * {@code -Pgrading-fixtures}), and checks that the grader and {@code quiz --student} take that id.
 */
class GradescopeStudentIdTest {
    @TempDir Path tmp;

    /** Stands in for {@code ./vramlab grade --out OUT ... SUBMISSION}: writes OUT/<its name>/results.json naming it. */
    static final String LAUNCHER = """
            out=; last=
            while [ $# -gt 0 ]; do
              case $1 in --out) out=$2; shift ;; *) last=$1 ;; esac
              shift
            done
            id=$(basename "$last")
            mkdir -p "$out/$id"
            printf '{"graded as": "%s"}\\n' "$id" > "$out/$id/results.json"
            """;

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
            "{\"users\": [{\"sid\": \"A-12 34\", \"email\": \"ada@example.edu\"}]} | A-12_34",
            "{\"users\": [{\"sid\": null, \"email\": \"ada.l+cs@example.edu\"}]}   | ada.l+cs@example.edu",
            "{\"users\": [{\"sid\": \"Ada Lovelace (2)\"}]}                       | Ada_Lovelace__2_"})
    @EnabledOnOs({OS.LINUX, OS.MAC})
    @DisplayName("run_autograder grades under the SID made a folder name, the id the sheets are printed with")
    void convertedId(String metadata, String id) throws Exception {
        requirePython();
        Path ag = tmp.resolve("autograder");
        Path source = Files.createDirectories(ag.resolve("source"));
        Files.copy(KitPaths.root().resolve("quiz/gradescope/run_autograder"), source.resolve("run_autograder"));
        Files.createDirectories(source.resolve("cli/target"));
        Files.writeString(source.resolve("cli/target/vramlab.classpath"), "");   // "built": setup.sh's job
        Files.writeString(source.resolve("vramlab"), LAUNCHER);
        Files.createDirectories(ag.resolve("submission/labs/answers"));
        Files.writeString(ag.resolve("submission_metadata.json"), metadata);

        Shell r = Shell.run(source, "bash run_autograder", Map.of("AUTOGRADER_ROOT", ag.toString()), 1);

        assertThat(r.status()).as(r.output()).isZero();
        assertThat(ag.resolve("results/results.json")).hasContent("{\"graded as\": \"" + id + "\"}");
        // The real grader names the student by that folder, and writes its results.json where the script copies it from.
        assertThat(SubmissionIntake.studentOf(tmp.resolve(id))).isEqualTo(id);
        assertThat(Grader.folderName(id)).isEqualTo(id);
        // The instructor prints the sheet with the converted id: quiz --student takes it.
        CliRun quiz = CliRun.of("quiz", "4", "--student", id);
        assertThat(quiz.status()).as(quiz.err()).isZero();
    }

    /**
     * run_autograder runs python3: without it this skips, saying so, as RunAutograderScriptTest
     * does (README, "python3"); VRAMLAB_REQUIRE_PYTHON=1 fails instead. It failed where python3
     * was missing, though README said such tests skip.
     */
    static void requirePython() {
        try {
            Process p = new ProcessBuilder("python3", "--version").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            if (p.waitFor(20, java.util.concurrent.TimeUnit.SECONDS) && p.exitValue() == 0) return;
        } catch (java.io.IOException | InterruptedException e) {
            // not there
        }
        String why = "python3 not found on PATH: Gradescope's run_autograder needs it";
        String env = System.getenv("VRAMLAB_REQUIRE_PYTHON");
        if (env != null && !env.isBlank() && !"0".equals(env)) {
            throw new AssertionError(why + ", and it is required here (VRAMLAB_REQUIRE_PYTHON)");
        }
        org.junit.jupiter.api.Assumptions.abort("skipped: " + why);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"A-12 34", "Ada Lovelace (2)"})
    @DisplayName("quiz --student refuses the SID as Gradescope has it: only the converted id prints the sheet")
    void originalRefused(String sid) {
        CliRun quiz = CliRun.of("quiz", "4", "--student", sid);
        assertThat(quiz.status()).isEqualTo(2);
        assertThat(quiz.err()).contains("expected 1-64 letters, digits or ._@+-");
    }
}
