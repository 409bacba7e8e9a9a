package vramlab.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import vramlab.kit.RealSnapshotsFolder;

/**
 * {@code --device} takes up to 4 TiB, but under {@code expandable_segments:True} each pool and
 * stream reserves 1 1/8 of the card in address space (PyTorch's ExpandableSegment), and two such
 * reservations of a 3.5 TiB card no longer fit the 7 TiB the kit simulates for one device. That
 * ended in "an internal error of the kit" (exit 1) for replay and advise, on a trace and on a
 * real snapshot; now it is one line, exit 2, naming the card and the largest that replays.
 */
@DisplayName("A card too large for expandable segments' address space: one line, exit 2, the card to give")
class LargestCardTest {
    @TempDir
    Path dir;

    private static void saysTheLimit(CliRun r, String file, String where) {
        assertThat(r.status()).as(r.err()).isEqualTo(2);
        assertThat(r.err()).hasLineCount(1).startsWith("error: " + file + where)
                .contains("expandable_segments:True on a card of 4.00 TiB", "reserves 4.50 TiB of address space",
                        "1 such reservation is held already", "the kit's limit, not the workload's",
                        "give --device 3.11 TiB or less")
                .doesNotContain("internal error", "Exception", "java.");
    }

    /** A small and a large block: one expandable reservation in each pool. */
    private Path twoPools() throws IOException {
        return Files.writeString(dir.resolve("two-pools.txt"), "alloc a 1KiB\nalloc b 1GiB\n");
    }

    @Test
    @DisplayName("replay of a trace on 4 TiB with expandable segments names line 2, where the second pool reserves")
    void replayTrace() throws IOException {
        Path f = twoPools();
        saysTheLimit(CliRun.of("replay", "--policy", "pytorch", "--alloc-conf", "expandable_segments:True",
                "--device", "4TiB", f.toString()), f.toString(), ":2: ");
    }

    @Test
    @DisplayName("advise of the same trace on 4 TiB: its expandable_segments row stops it the same way")
    void adviseTrace() throws IOException {
        Path f = twoPools();
        saysTheLimit(CliRun.of("advise", "--device", "4TiB", f.toString()), f.toString(), ":2: ");
    }

    @Test
    @DisplayName("the card it names replays: 3.11 TiB, and the same trace on it fits")
    void namedCardReplays() throws IOException {
        Path f = twoPools();
        CliRun r = CliRun.of("replay", "--policy", "pytorch", "--alloc-conf", "expandable_segments:True",
                "--device", "3.11TiB", f.toString());
        assertThat(r.status()).as(r.err()).isZero();
        CliRun a = CliRun.of("advise", "--device", "3.11TiB", f.toString());
        assertThat(a.status()).as(a.err()).isZero();
    }

    @Test
    @DisplayName("advise of a real snapshot (both pools) on 4 TiB names the device and the trace entry")
    void adviseRealSnapshot() {
        Path dirOf = RealSnapshotsFolder.snapshots().orElse(null);
        assumeTrue(dirOf != null, RealSnapshotsFolder.MISSING);
        Path f = dirOf.resolve("silmont2000.mem_snapshot.pickle.gz");
        CliRun r = CliRun.of("advise", "--device", "4TiB", f.toString());
        saysTheLimit(r, f.toString(), ": at device 0's trace entry ");
        CliRun fits = CliRun.of("advise", "--device", "3.11TiB", f.toString());
        assertThat(fits.status()).as(fits.err()).isZero();
    }
}
