package vramlab.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import vramlab.quiz.KitPaths;

/**
 * {@code replay} in a student's release runs the student's labs/ (a release has no reference) and
 * compiles the cores it runs, base to alloc ({@link Main#ON_THE_CORES}), not all eight: a pinned
 * core that does not compile neither prints its errors before a replay nor is compiled there, and
 * one line names it once it did not compile last time, or changed since (a file deleted from it
 * too). It compiled every core, printing pinned's errors first. {@code triage} of a pasted message
 * compiles none (it compiled base to alloc, and printed a broken alloc's errors, to read text); of a
 * snapshot, base to alloc. A release as {@code replay} sees
 * one: {@code RELEASE.txt}, {@code cores/target/classes} (here the reference's classes), and a
 * student's labs/ with chapter 3 written; a launcher JVM and its child per run:
 * {@code -Pgrading-fixtures}.
 */
@Tag("grading-fixtures")
class ReleaseCommandCoresTest {
    @TempDir Path tmp;

    @Test
    @DisplayName("replay in a release compiles base to alloc of the student's labs/, leaves a broken pinned core alone, and names it")
    void replayCompilesWhatItRuns() throws Exception {
        Path root = release("PinnedSim.java", t -> t.replace("public final class PinnedSim {",
                "public final class PinnedSim { oops oops oops"));
        Path labs = root.resolve("labs");
        Path trace = Files.writeString(tmp.resolve("five.trace"), "alloc a 3MiB\nalloc b 512\nfree a\nempty_cache\nfree b\n");
        Path work = labs.resolve("target/vramlab-mine");

        CliRun first = run(root, "replay", trace.toString());
        assertThat(first.status()).as(first.err()).isZero();
        assertThat(first.out()).isEqualTo(CliRun.of("replay", trace.toString()).out());
        assertThat(first.err()).doesNotContain("PinnedSim").doesNotContain("does not compile").doesNotContain("pinned");
        assertThat(work.resolve("alloc/fingerprint.txt")).as("alloc compiled").exists();
        for (String left : List.of("buddy", "kv", "pinned", "contest")) {
            assertThat(work.resolve(left + "/fingerprint.txt")).as(left + " not compiled").doesNotExist();
        }

        // lab 7 (or check 7) compiles pinned and shows its errors; replay then names it in one line.
        ByteArrayOutputStream seven = new ByteArrayOutputStream();
        StudentCores.build(root, List.of("pinned"), new PrintStream(seven, true, StandardCharsets.UTF_8));
        assertThat(seven.toString(StandardCharsets.UTF_8)).containsPattern("vramlab/pinned/PinnedSim\\.java:\\d+: ");
        CliRun again = run(root, "replay", trace.toString());
        assertThat(again.status()).as(again.err()).isZero();
        assertThat(again.err()).doesNotContain("PinnedSim").contains("vramlab: replay left your pinned core uncompiled,"
                + " did not compile when last compiled: replay does not use it");

        // A file deleted: its core's sources are no longer those it was compiled from.
        Files.delete(labs.resolve("src/main/java/vramlab/pinned/HostStats.java"));
        CliRun deleted = run(root, "replay", trace.toString());
        assertThat(deleted.err()).contains("replay left your pinned core uncompiled, changed since last compiled");
    }

    @Test
    @DisplayName("triage in a release reads a pasted message, from a file or standard input, compiling none of the"
            + " student's cores (an alloc that does not compile says nothing); a snapshot, from either, compiles base to alloc")
    void triageOfAPasteCompilesNothing() throws Exception {
        Path root = release("CachingAllocator.java", t -> t.replace("public final class CachingAllocator {",
                "public final class CachingAllocator { oops oops oops"));
        Path work = root.resolve("labs/target/vramlab-mine");
        String paste = "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total"
                + " capacity of 23.65 GiB of which 1.19 GiB is free. Of the allocated memory 20.12 GiB is allocated by"
                + " PyTorch, and 1.81 GiB is reserved by PyTorch but unallocated.\n";
        Path message = Files.writeString(tmp.resolve("oom.txt"), paste);

        CliRun file = run(root, "triage", message.toString());
        assertThat(file.status()).as(file.err()).isZero();
        assertThat(file.out()).isEqualTo(CliRun.of("triage", message.toString()).out());
        assertThat(file.err()).doesNotContain("does not compile").doesNotContain("CachingAllocator");
        CliRun piped = run(root, paste.getBytes(StandardCharsets.UTF_8), "triage", "--json");
        assertThat(piped.status()).as(piped.err()).isZero();
        assertThat(piped.out()).isEqualTo(CliRun.withInput(paste, "triage", "--json").out());
        assertThat(piped.err()).isEmpty();
        assertThat(work).as("nothing compiled").doesNotExist();

        Path snapshot = KitPaths.root().resolve("chapters/ch05-expandable-segments/examples/three-allocators.pytorch.pickle");
        CliRun snap = run(root, "triage", snapshot.toString());
        assertThat(snap.status()).as(snap.err()).isZero();
        assertThat(snap.out()).isEqualTo(CliRun.of("triage", snapshot.toString()).out());
        assertThat(snap.err()).contains("vramlab: your alloc core (vramlab.alloc) does not compile:");
        assertThat(work.resolve("driver/fingerprint.txt")).as("driver compiled").exists();
        CliRun snapIn = run(root, Files.readAllBytes(snapshot), "triage", "-");
        assertThat(snapIn.status()).as(snapIn.err()).isZero();
        assertThat(snapIn.out().replace("advise - with the same snapshot on its standard input", "advise " + snapshot).replace("--stacks -", "--stacks " + snapshot))
                .as("the child reads the bytes the launcher read").isEqualTo(snap.out());
    }

    /**
     * A release as the commands see one: {@code RELEASE.txt}, {@code cores/target/classes} (here the
     * reference's classes), and a student's labs/ with chapter 3 written and {@code file} edited.
     */
    private Path release(String file, java.util.function.UnaryOperator<String> edit) throws Exception {
        Path kit = KitPaths.root();
        Path classes = kit.resolve("solutions/target/classes");
        assumeTrue(Files.isDirectory(classes), "the reference is not built: " + classes);
        Path root = Files.createDirectories(tmp.resolve("course"));
        Files.writeString(root.resolve(KitPaths.RELEASE_MARKER), "a release, as replay sees one\n");
        Files.createDirectories(root.resolve("cores/target"));
        Files.createSymbolicLink(root.resolve("cores/target/classes"), classes);
        Path labs = ScratchLabs.make(kit, root.resolve("labs"), List.of("3.1", "3.2", "3.3", "3.4", "3.5"), Map.of(file, edit));
        Files.writeString(labs.resolve("STUDENT_COPY"), "");
        return root;
    }

    private static CliRun run(Path root, String... args) throws Exception { return run(root, new byte[0], args); }

    /** {@code vramlab <args>} with its home at {@code root}, in a JVM of its own (as the launcher script runs it). */
    private static CliRun run(Path root, byte[] stdin, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Dvramlab.home=" + root, "-cp", String.join(File.pathSeparator, StudentCores.entries()),
                Main.class.getName()));
        cmd.addAll(List.of(args));
        Path out = Files.createTempFile("replay", ".out");
        Path err = Files.createTempFile("replay", ".err");
        try {
            Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile())
                    .redirectInput(ProcessBuilder.Redirect.PIPE).start();
            try (var in = p.getOutputStream()) {
                in.write(stdin);
            }
            int status = p.waitFor();
            return new CliRun(status, Files.readString(out), Files.readString(err));
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }
}
