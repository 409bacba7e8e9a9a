package vramlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * No command writes over a student's labs/: {@code labgen} (with or without {@code --force})
 * refuses in a copy marked {@code labs/STUDENT_COPY}, {@code release} refuses a folder that
 * holds anything, and {@code check} on a marked copy compiles the student's files as they are.
 * (The build's own sync: labgen's {@code BuildKeepsStudentCopyTest} and {@code LabSyncTest}.)
 */
class StudentCopyKeptTest {
    @TempDir Path kit;
    Path labs;
    String home;

    @BeforeEach
    void aStudentsCopy() throws IOException {
        Files.createDirectories(kit.resolve("solutions/src/main/java/p"));
        Files.writeString(kit.resolve("solutions/src/main/java/p/A.java"), "package p;\nclass A { int changedSince; }\n");
        labs = kit.resolve("labs");
        Files.createDirectories(labs.resolve("src/main/java/p"));
        Files.writeString(labs.resolve("src/main/java/p/A.java"), "package p;\nclass A { /* the student's */ }\n");
        Files.writeString(labs.resolve("STUDENT_COPY"), "");
        home = System.getProperty("vramlab.home");
    }

    @AfterEach
    void restore() {
        if (home == null) System.clearProperty("vramlab.home");
        else System.setProperty("vramlab.home", home);
    }

    Map<String, String> everything(Path dir) throws IOException {
        Map<String, String> m = new TreeMap<>();
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.filter(Files::isRegularFile).toList()) {
                m.put(dir.relativize(p).toString(), Files.readString(p) + "@" + Files.getLastModifiedTime(p).toMillis());
            }
        }
        return m;
    }

    @Test
    @DisplayName("the generator, the launcher and the grader mean the same two markers")
    void oneMarkerEach() {
        assertThat(vramlab.labgen.LabGenerator.STUDENT_MARKER).isEqualTo(StudentCores.MARKER);
        assertThat(vramlab.labgen.LabGenerator.RELEASE_MARKER).isEqualTo(vramlab.quiz.KitPaths.RELEASE_MARKER);
    }

    @Test
    @DisplayName("labgen and labgen --force refuse a student's copy in one line, and write nothing")
    void labgenRefuses() throws IOException {
        Map<String, String> before = everything(labs);
        System.setProperty("vramlab.home", kit.toString());
        for (String[] args : new String[][] {{"labgen"}, {"labgen", "--force"}}) {
            CliRun r = CliRun.of(args);
            assertThat(r.status()).as(r.err()).isEqualTo(2);
            assertThat(r.err()).isEqualTo("error: labgen: labs/STUDENT_COPY exists: labs/ is the student's; nothing written\n");
        }
        assertThat(everything(labs)).isEqualTo(before);
    }

    @Test
    @DisplayName("labgen in the maintainers' copy names a file edited by hand and leaves it; --force replaces it")
    void labgenKeepsHandEdits() throws IOException {
        Files.delete(labs.resolve("STUDENT_COPY"));
        System.setProperty("vramlab.home", kit.toString());
        CliRun kept = CliRun.of("labgen");
        assertThat(kept.status()).isEqualTo(1);
        assertThat(kept.out()).contains("left 1 files of labs/ alone").contains("src/main/java/p/A.java");
        assertThat(Files.readString(labs.resolve("src/main/java/p/A.java"))).contains("the student's");
        CliRun forced = CliRun.of("labgen", "--force");
        assertThat(forced.status()).as(forced.out() + forced.err()).isZero();
        assertThat(Files.readString(labs.resolve("src/main/java/p/A.java"))).contains("changedSince");
    }

    @Test
    @DisplayName("release refuses a folder that already holds a student's labs/, and writes nothing into it")
    void releaseRefuses() throws IOException {
        Map<String, String> before = everything(labs);
        CliRun r = CliRun.of("release", "--no-site", kit.toString());
        assertThat(r.status()).isEqualTo(2);
        assertThat(r.err()).startsWith("error: release: ").contains("exists and is not an empty folder");
        assertThat(everything(labs)).isEqualTo(before);
    }
}
