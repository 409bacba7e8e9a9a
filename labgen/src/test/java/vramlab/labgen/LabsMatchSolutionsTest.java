package vramlab.labgen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The maintainers' check: labs/ is exactly what the generator makes from solutions/ (the build
 * makes it so before these tests run: labgen's pom.xml), and is not kept in git. It is off in a
 * student's copy, which holds the marker file {@code labs/STUDENT_COPY}.
 */
class LabsMatchSolutionsTest {

    static Path repoRoot() {
        Path p = Path.of("").toAbsolutePath();
        while (p != null && !(Files.isDirectory(p.resolve("solutions")) && Files.isDirectory(p.resolve("labs")))) {
            p = p.getParent();
        }
        if (p == null) throw new IllegalStateException("no solutions/ and labs/ above " + Path.of("").toAbsolutePath());
        return p;
    }

    @Test
    @DisplayName("labs/ is the generator's output for solutions/ (regenerate with ./vramlab labgen)")
    void labsAreGenerated() {
        Path root = repoRoot();
        assumeFalse(Files.exists(root.resolve("labs/STUDENT_COPY")), "a student's copy: labs/ is theirs to edit");
        Map<String, String> expected = LabGenerator.generate(root.resolve("solutions"));
        assertThat(expected).as("files the generator makes from solutions/").isNotEmpty();
        Map<String, String> actual = new TreeMap<>();
        Path labsSrc = root.resolve("labs/src/main/java");
        for (Path p : LabGenerator.javaFiles(labsSrc)) {
            actual.put("src/main/java/" + labsSrc.relativize(p).toString().replace('\\', '/'), LabGenerator.read(p));
        }
        List<String> differ = new ArrayList<>();
        expected.forEach((file, text) -> { if (!text.equals(actual.get(file))) differ.add("labs/" + file); });
        actual.keySet().stream().filter(f -> !expected.containsKey(f)).forEach(f -> differ.add("labs/" + f));
        // One line that says what to do, before any diff: a student who forgot the marker needs no diff.
        assertThat(differ).as("labs/ is not the generator's output (" + differ.size() + " files differ, first "
                + differ.stream().limit(3).toList() + "). Writing the steps yourself? Then labs/ is yours: touch"
                + " labs/STUDENT_COPY (this check then leaves it alone). Maintaining the kit? The build left them alone"
                + " because labgen did not write them (edited by hand, or from git): ./vramlab labgen --force")
                .isEmpty();
        assertThat(actual.keySet()).containsExactlyElementsOf(expected.keySet());
        expected.forEach((file, text) -> assertThat(actual.get(file)).as("labs/" + file).isEqualTo(text));
    }

    @Test
    @DisplayName("labs/src/main/java is not kept in git: the build generates it, so a core change is made once, in solutions/")
    void labsSourcesAreNotInGit() throws Exception {
        Path root = repoRoot();
        assumeFalse(Files.exists(root.resolve("labs/STUDENT_COPY")), "a student's copy: labs/ is theirs to keep in git");
        assumeTrue(Files.exists(root.resolve(".git")), "not a git checkout (" + root + " has no .git): nothing tracked to check");
        Process p;
        try {
            p = new ProcessBuilder("git", "ls-files", "--", "labs/src").directory(root.toFile())
                    .redirectErrorStream(true).start();
        } catch (java.io.IOException e) {
            assumeTrue(false, "no git on the PATH: " + e.getMessage());
            return;
        }
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assumeTrue(p.waitFor() == 0, "git ls-files failed: " + out.strip());
        List<String> tracked = out.lines().filter(l -> !l.isBlank()).toList();
        assertThat(tracked).as(tracked.size() + " files under labs/src are in git (first " + tracked.stream().limit(3).toList()
                + "), but labs/src/main/java is generated from solutions/ by every build (labs/.gitignore). Make the"
                + " change in solutions/ only, and take them out of git: git rm -r --cached labs/src").isEmpty();
    }

    @Test
    @DisplayName("every step id is unique")
    void stepIdsAreUnique() {
        var steps = LabGenerator.steps(repoRoot().resolve("solutions"));
        assertThat(steps).isNotEmpty();
        assertThat(steps.stream().map(LabGenerator.Step::id)).doesNotHaveDuplicates();
    }

    @Test
    @DisplayName("a generated tree (a release's cores/, which has no solutions) names the same steps, each at its Todo line")
    void stepsReadBackFromTheStubs(@TempDir Path tmp) throws Exception {
        Path root = repoRoot();
        for (Map.Entry<String, String> f : LabGenerator.generate(root.resolve("solutions")).entrySet()) {
            Path p = tmp.resolve(f.getKey());
            Files.createDirectories(p.getParent());
            Files.writeString(p, f.getValue());
        }
        var fromSolutions = LabGenerator.steps(root.resolve("solutions"));
        var fromStubs = LabGenerator.stepsFromStubs(tmp);
        assertThat(fromStubs).extracting(LabGenerator.Step::id, LabGenerator.Step::title, LabGenerator.Step::notes,
                LabGenerator.Step::file).containsExactlyInAnyOrderElementsOf(fromSolutions.stream()
                .map(s -> org.assertj.core.groups.Tuple.tuple(s.id(), s.title(), s.notes(), s.file())).toList());
        for (LabGenerator.Step s : fromStubs) {
            String line = Files.readAllLines(tmp.resolve(s.file().substring("labs/".length()))).get(s.line() - 1);
            assertThat(line).as(s.id()).contains("new vramlab.lab.Todo(\"" + s.id() + "\"");
        }
    }
}
