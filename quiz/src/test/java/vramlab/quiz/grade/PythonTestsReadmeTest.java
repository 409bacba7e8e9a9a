package vramlab.quiz.grade;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import vramlab.quiz.KitPaths;

/**
 * README's bullet on the tests that need python3 said "two tests" (SnapshotRoundTripTest's) when
 * RunAutograderScriptTest and GradescopeStudentIdTest need it too. Every test that needs python3
 * honours VRAMLAB_REQUIRE_PYTHON (it skips without python3, or fails when that is set); each such
 * test class must be named in that bullet.
 */
class PythonTestsReadmeTest {
    @Test
    @DisplayName("README's python3 bullet names every test class that needs python3 (that reads VRAMLAB_REQUIRE_PYTHON)")
    void everyPythonTestIsNamed() throws IOException {
        Path root = KitPaths.root();
        String readme = Files.readString(root.resolve("README.adoc"));
        int at = readme.indexOf("need `python3` on the `PATH`");
        assertThat(at).as("README's bullet on python3").isPositive();
        String bullet = readme.substring(at, readme.indexOf("\n* ", at));
        List<String> needing;
        try (Stream<Path> s = Files.walk(root)) {
            needing = s.filter(p -> p.toString().replace('\\', '/').contains("/src/test/java/"))
                    .filter(p -> !p.startsWith(root.resolve("labs")) && p.toString().endsWith("Test.java"))
                    .filter(p -> !p.getFileName().toString().equals("PythonTestsReadmeTest.java"))   // this one
                    .filter(p -> read(p).contains("VRAMLAB_REQUIRE_PYTHON"))
                    .map(p -> p.getFileName().toString().replace(".java", "")).sorted().toList();
        }
        assertThat(needing).contains("SnapshotRoundTripTest", "RunAutograderScriptTest", "GradescopeStudentIdTest");
        for (String t : needing) assertThat(bullet).as("README's python3 bullet names %s", t).contains("`" + t + "`");
        assertThat(bullet).doesNotContain("Two tests");
    }

    private static String read(Path p) {
        try {
            return Files.readString(p);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
