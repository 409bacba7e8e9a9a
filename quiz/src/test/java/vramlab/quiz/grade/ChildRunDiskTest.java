package vramlab.quiz.grade;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * A child that fills the disk is stopped like one that loops: the watcher measures what it
 * wrote in its working folder and stops it past the cap, so a submission that writes without
 * end costs its own items, not the grading machine's disk.
 */
class ChildRunDiskTest {
    @TempDir Path area;

    @Test
    @EnabledOnOs({OS.LINUX, OS.MAC})
    @DisplayName("a child writing files without end is stopped past the cap, and says why")
    void fillsTheDisk() throws Exception {
        Files.writeString(area.resolve("before.txt"), "x".repeat(100_000));   // what was there: not counted
        String writer = "for i in $(seq 1 400); do head -c 262144 /dev/zero >> tmp-fill.bin; sleep 0.02; done";
        ChildRun run = new ChildRun(List.of("bash", "-c", writer), area, 1).withDiskCap(2L << 20);
        run.run(Map.of(), Duration.ofSeconds(60), System.nanoTime() + Duration.ofSeconds(60).toNanos(), 1 << 20);
        assertThat(run.stoppedBy()).isEqualTo("wrote files past the 2 MiB cap on what a test may write");
        assertThat(Files.size(area.resolve("tmp-fill.bin"))).as("stopped well before its 100 MiB")
                .isLessThan(100L << 20);
        settled(area.resolve("tmp-fill.bin"));
    }

    /**
     * Waits (at most 10 s) until {@code file} has kept its size for 300 ms. The kill took the
     * shell's children as listed just before the shell died, and a {@code head} the loop forked
     * in between was left orphaned and finished its 256 KiB a moment later: harmless to grading,
     * it made JUnit's clean-up of the folder fail ("Failed to close extension context") once in
     * about ten CI runs on a loaded machine. The kill now freezes the tree first (ChildWatch.freeze,
     * ChildWatchForkRaceTest); the wait stays for where it cannot (the order kept before). Not an
     * assertion on time: only a wait.
     */
    private static void settled(Path file) throws Exception {
        long last = -1;
        int still = 0;
        for (int i = 0; i < 100 && still < 3; i++) {
            long now = Files.size(file);
            still = now == last ? still + 1 : 0;
            last = now;
            Thread.sleep(100);
        }
    }

    @Test
    @DisplayName("the size of a folder counts its plain files, not what a link leads to")
    void treeSize() throws Exception {
        Files.writeString(area.resolve("a.txt"), "12345");
        Files.createDirectories(area.resolve("sub"));
        Files.writeString(area.resolve("sub/b.txt"), "123");
        Path big = Files.writeString(Files.createTempFile("outside", ".txt"), "y".repeat(10_000));
        try {
            Files.createSymbolicLink(area.resolve("link"), big);
            assertThat(ChildRun.treeSize(area)).isEqualTo(8);
        } finally {
            Files.delete(big);
        }
    }
}
