package vramlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An older kit remembered each chapter's cores under {@code labs/target/vramlab-mine/chapters/};
 * nothing reads it now, and a build of the student's cores removes it. A kit with no sources and an
 * empty reference: nothing is compiled, so this stays fast.
 */
class StaleCacheTest {
    @Test
    @DisplayName("a build of the student's cores removes the chapters/ cache an older kit left, and only that")
    void removesTheOldChaptersCache(@TempDir Path root) throws Exception {
        Files.createDirectories(root.resolve("solutions/target/classes"));
        Files.createDirectories(root.resolve("labs/src/main/java"));
        Path work = root.resolve("labs/target/vramlab-mine");
        Path stale = Files.createDirectories(work.resolve("chapters/ch03-caching-allocator"));
        Files.writeString(stale.resolve("cores.txt"), "base gmmu driver alloc\n");
        Path outside = Files.writeString(root.resolve("keep.txt"), "not the kit's\n");
        Files.createSymbolicLink(stale.resolve("link"), outside);

        StudentCores.build(root, List.of("base"), new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));

        assertThat(work.resolve("chapters")).doesNotExist();
        assertThat(work.resolve("base/fingerprint.txt")).as("the build itself went on").exists();
        assertThat(outside).as("a link's target is not followed").exists();
    }
}
