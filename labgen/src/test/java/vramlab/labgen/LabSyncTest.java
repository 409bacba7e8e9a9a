package vramlab.labgen;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What the build does to labs/ ({@link LabGenerator#sync}): in the maintainers' copy it keeps
 * labs/src/main/java equal to what solutions/ generates without ever writing over a file edited
 * by hand; in a student's copy it writes over nothing, ever.
 */
class LabSyncTest {
    @TempDir Path kit;
    Path solutions;
    Path labs;

    static final String A = """
            package p;
            class A {
                long f(long n) {
                    // lab:begin 1.1 "Add one" see ch01 "Rule"
                    return n + 1;
                    // lab:end
                }
            }
            """;
    static final String B = "package p;\nclass B {}\n";

    @BeforeEach
    void aKit() throws IOException {
        solutions = kit.resolve("solutions");
        labs = kit.resolve("labs");
        put(solutions, "src/main/java/p/A.java", A);
        put(solutions, "src/main/java/p/B.java", B);
        Files.createDirectories(labs);
    }

    static void put(Path module, String rel, String text) throws IOException {
        Path p = module.resolve(rel);
        Files.createDirectories(p.getParent());
        Files.writeString(p, text, StandardCharsets.UTF_8);
    }

    String labsText(String rel) throws IOException { return Files.readString(labs.resolve(rel), StandardCharsets.UTF_8); }

    /** Every file under labs/ with its text and modification time: what "nothing written" means. */
    Map<String, String> everything() throws IOException {
        Map<String, String> m = new TreeMap<>();
        try (Stream<Path> s = Files.walk(labs)) {
            for (Path p : s.filter(Files::isRegularFile).toList()) {
                m.put(labs.relativize(p).toString(), Files.readString(p) + "@" + Files.getLastModifiedTime(p).toMillis());
            }
        }
        return m;
    }

    @Nested
    @DisplayName("in the maintainers' copy")
    class Maintainers {
        @Test
        @DisplayName("a clone's first build writes every file; the next writes none")
        void firstBuild() throws IOException {
            var first = LabGenerator.sync(solutions, labs, false);
            assertThat(first.written()).containsExactly("src/main/java/p/A.java", "src/main/java/p/B.java");
            assertThat(labsText("src/main/java/p/A.java")).isEqualTo(LabGenerator.transform(A, "labs/src/main/java/p/A.java"))
                    .contains("throw new vramlab.lab.Todo(\"1.1\"");
            var again = LabGenerator.sync(solutions, labs, false);
            assertThat(again.written()).isEmpty();
            assertThat(again.summary()).isNull();
        }

        @Test
        @DisplayName("a core change reaches labs/ on the next build, and a file solutions dropped goes")
        void coreChangeLandsOnce() throws IOException {
            LabGenerator.sync(solutions, labs, false);
            put(solutions, "src/main/java/p/B.java", "package p;\nclass B { int x; }\n");
            Files.delete(solutions.resolve("src/main/java/p/A.java"));
            var s = LabGenerator.sync(solutions, labs, false);
            assertThat(s.written()).containsExactly("src/main/java/p/B.java");
            assertThat(s.removed()).containsExactly("src/main/java/p/A.java");
            assertThat(labsText("src/main/java/p/B.java")).contains("int x;");
            assertThat(labs.resolve("src/main/java/p/A.java")).doesNotExist();
            assertThat(s.summary()).startsWith("labgen: labs/ generated from solutions/: 1 files written, 1 removed");
        }

        @Test
        @DisplayName("a file edited by hand (no STUDENT_COPY) is left alone and named, even when solutions changes it; --force replaces it")
        void handEditsAreKept() throws IOException {
            LabGenerator.sync(solutions, labs, false);
            put(labs, "src/main/java/p/A.java", "package p;\nclass A { long f(long n) { return n + 1; } }\n");
            put(labs, "src/main/java/p/Mine.java", "package p;\nclass Mine {}\n");
            put(solutions, "src/main/java/p/A.java", A.replace("n + 1", "1 + n"));
            var s = LabGenerator.sync(solutions, labs, false);
            assertThat(s.edited()).containsExactlyInAnyOrder("src/main/java/p/A.java", "src/main/java/p/Mine.java");
            assertThat(labsText("src/main/java/p/A.java")).contains("return n + 1; }");
            assertThat(labs.resolve("src/main/java/p/Mine.java")).exists();
            assertThat(s.summary()).contains("left 2 files of labs/ alone").contains("touch labs/STUDENT_COPY")
                    .contains("./vramlab labgen --force");
            assertThat(LabGenerator.sync(solutions, labs, false).edited()).as("still theirs on the next build").hasSize(2);

            var forced = LabGenerator.sync(solutions, labs, true);
            assertThat(forced.edited()).isEmpty();
            assertThat(forced.removed()).containsExactly("src/main/java/p/Mine.java");
            assertThat(labsText("src/main/java/p/A.java")).contains("throw new vramlab.lab.Todo(\"1.1\"");
        }

        @Test
        @DisplayName("files that labgen did not write (a labs/src from git, no record) are not written over")
        void unrecordedFilesAreKept() throws IOException {
            put(labs, "src/main/java/p/B.java", "package p;\nclass B { /* from an old commit */ }\n");
            var s = LabGenerator.sync(solutions, labs, false);
            assertThat(s.written()).containsExactly("src/main/java/p/A.java");
            assertThat(s.edited()).containsExactly("src/main/java/p/B.java");
            assertThat(labsText("src/main/java/p/B.java")).contains("from an old commit");
        }
    }

    @Nested
    @DisplayName("in a student's copy nothing is written over, with or without --force")
    class Students {
        @ParameterizedTest(name = "force = {0}")
        @ValueSource(booleans = {false, true})
        @DisplayName("labs/STUDENT_COPY: edited, stale, extra and recorded files all stay as they are")
        void marked(boolean force) throws IOException {
            LabGenerator.sync(solutions, labs, false);             // once the maintainers' copy, with a record
            Files.writeString(labs.resolve(LabGenerator.STUDENT_MARKER), "");
            put(labs, "src/main/java/p/A.java", "package p;\nclass A { long f(long n) { return n + 1; } }\n");
            put(labs, "src/main/java/p/Helper.java", "package p;\nclass Helper {}\n");
            put(solutions, "src/main/java/p/B.java", "package p;\nclass B { int changed; }\n");
            put(solutions, "src/main/java/p/C.java", "package p;\nclass C {}\n");
            for (Path p : Files.walk(labs).filter(Files::isRegularFile).toList()) {
                Files.setLastModifiedTime(p, FileTime.fromMillis(1_000_000_000_000L));
            }
            Map<String, String> before = everything();
            var s = LabGenerator.sync(solutions, labs, force);
            assertThat(s.leftAlone()).contains("STUDENT_COPY");
            assertThat(s.written()).isEmpty();
            assertThat(everything()).isEqualTo(before);
        }

        @Test
        @DisplayName("a student release (RELEASE.txt beside labs/) is the student's even without the marker")
        void release() throws IOException {
            Files.writeString(kit.resolve(LabGenerator.RELEASE_MARKER), "a release");
            put(labs, "src/main/java/p/A.java", "package p;\nclass A { /* mine */ }\n");
            Map<String, String> before = everything();
            assertThat(LabGenerator.sync(solutions, labs, true).leftAlone()).contains("student release");
            assertThat(everything()).isEqualTo(before);
            assertThat(LabGenerator.studentsCopy(labs)).isNotNull();
        }

        @Test
        @DisplayName("a release has no solutions/: nothing to generate from, nothing written")
        void noSolutions() throws IOException {
            put(labs, "src/main/java/p/A.java", "package p;\nclass A { /* mine */ }\n");
            Map<String, String> before = everything();
            var s = LabGenerator.sync(kit.resolve("absent"), labs, true);
            assertThat(s.leftAlone()).startsWith("no ");
            assertThat(everything()).isEqualTo(before);
        }

        @Test
        @DisplayName("a marked clone that was never built gets the sources once (nothing there to write over)")
        void markedBeforeTheFirstBuild() throws IOException {
            Files.writeString(labs.resolve(LabGenerator.STUDENT_MARKER), "");
            var s = LabGenerator.sync(solutions, labs, false);
            assertThat(s.written()).containsExactly("src/main/java/p/A.java", "src/main/java/p/B.java");
            put(labs, "src/main/java/p/A.java", "package p;\nclass A { /* mine */ }\n");
            Files.delete(labs.resolve("src/main/java/p/B.java"));
            Map<String, String> before = everything();
            assertThat(LabGenerator.sync(solutions, labs, true).written()).isEmpty();
            assertThat(everything()).isEqualTo(before);
        }
    }
}
