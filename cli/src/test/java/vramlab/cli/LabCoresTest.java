package vramlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import vramlab.quiz.KitPaths;

/**
 * {@code lab 3} and {@code jshell 3} on a student's copy compile the cores chapter 3 uses (base to
 * alloc), not pinned or contest: the student's alloc change still runs, a pinned core that does
 * not compile neither stops chapter 3 nor prints its errors there, and one line says it was left
 * uncompiled. They compiled all eight cores, printing pinned's errors before chapter 3's lab.
 * Child JVMs and javac: {@code -Pgrading-fixtures}.
 */
@Tag("grading-fixtures")
class LabCoresTest {
    @TempDir static Path tmp;
    static Path labs;

    @BeforeAll
    static void studentCopy() throws IOException {
        labs = ScratchLabs.make(KitPaths.root(), tmp.resolve("labs"), List.of("3.1", "3.2", "3.3", "3.4", "3.5"), Map.of(
                "PinnedSim.java", t -> t.replace("public final class PinnedSim {", "public final class PinnedSim { oops oops oops")));
        Files.writeString(labs.resolve("STUDENT_COPY"), "");
        System.setProperty(StudentCores.LABS, labs.toString());
    }

    @AfterAll
    static void done() { System.clearProperty(StudentCores.LABS); }

    @Test
    @DisplayName("lab 3 with a pinned core that does not compile: the student's alloc runs, pinned is left alone and said so")
    void labLeavesAnUnusedBrokenCoreAlone() throws IOException {
        Path root = KitPaths.root();
        Path work = StudentCores.work(root);
        CliRun first = CliRun.of("lab", "3");
        assertThat(first.status()).as(first.err()).isZero();
        assertThat(first.out()).contains("== Split and merge on one segment ==").doesNotContain("[needs step");
        assertThat(first.err()).as("pinned never compiled here: nothing to say").doesNotContain("pinned")
                .doesNotContain("does not compile");
        assertThat(work.resolve("alloc/fingerprint.txt")).as("alloc compiled").exists();
        assertThat(work.resolve("pinned/fingerprint.txt")).as("pinned not compiled").doesNotExist();
        assertThat(work.resolve("contest/fingerprint.txt")).as("contest not compiled").doesNotExist();

        // Chapter 7 compiles it (as lab 7, jshell 7 or check 7 would), and shows its errors.
        java.io.ByteArrayOutputStream seven = new java.io.ByteArrayOutputStream();
        StudentCores.build(root, List.of("pinned"), new java.io.PrintStream(seven, true, java.nio.charset.StandardCharsets.UTF_8));
        assertThat(seven.toString(java.nio.charset.StandardCharsets.UTF_8)).containsPattern("vramlab/pinned/PinnedSim\\.java:\\d+: ");

        CliRun lab = CliRun.of("lab", "3");
        assertThat(lab.status()).as(lab.err()).isZero();
        assertThat(lab.out()).contains("== Split and merge on one segment ==").doesNotContain("[needs step");
        assertThat(lab.err()).doesNotContain("PinnedSim.java").doesNotContain("(vramlab.pinned) does not compile")
                .contains("lab ch03-caching-allocator left your pinned core uncompiled, did not compile when last compiled:"
                        + " chapter 3 does not use it");

        Path pinned = labs.resolve("src/main/java/vramlab/pinned/PinnedSim.java");
        Files.writeString(pinned, Files.readString(pinned) + "// still working on it\n");   // its text changed
        CliRun js = CliRun.withInput("new ToyPolicy().roundSize(100)\n", "jshell", "3");
        assertThat(js.out()).contains("==> 512");
        assertThat(js.err()).doesNotContain("PinnedSim.java")
                .contains("jshell ch03-caching-allocator left your pinned core uncompiled, changed since last compiled");
    }
}
