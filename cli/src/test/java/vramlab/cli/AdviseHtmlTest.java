package vramlab.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static vramlab.units.Bytes.mib;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import vramlab.alloc.Block;
import vramlab.alloc.CachingAllocator;
import vramlab.alloc.CudaOutOfMemoryError;
import vramlab.alloc.MemorySnapshot;
import vramlab.alloc.PyTorchPolicy;
import vramlab.driver.Gpu;
import vramlab.snapshot.SnapshotWriter;

/**
 * {@code advise --html} and {@code replay --html} on a generated snapshot (a seeded run of the
 * kit's allocator on a 256 MiB card that OOMs): the page is written, carries every row, and a
 * path that cannot be written is one error line and exit 2. What the page draws is checked
 * against the replays in the toolkit's RunPageTest.
 */
@DisplayName("vramlab advise --html and replay --html")
class AdviseHtmlTest {
    @TempDir
    static Path dir;
    static Path snapshot;

    @BeforeAll
    static void write() throws Exception {
        Random r = new Random(21);
        CachingAllocator a = new CachingAllocator(new Gpu(mib(256)).openToyProcess(), new PyTorchPolicy(""));
        a.trace().record(true, Long.MAX_VALUE);
        List<Block> live = new ArrayList<>();
        for (int i = 0; i < 600; i++) {
            if (r.nextInt(100) < 58 || live.isEmpty()) {
                try {
                    live.add(a.alloc(Math.max(1, (long) Math.exp(r.nextDouble() * Math.log(mib(48)))), 0));
                } catch (CudaOutOfMemoryError e) {
                    // the program goes on, as a recorded OOM run did
                }
            } else {
                a.free(live.remove(r.nextInt(live.size())));
            }
        }
        assertThat(a.memoryStats().numOoms()).as("the run must OOM for this test to mean anything").isPositive();
        snapshot = dir.resolve("run.pickle");
        Files.write(snapshot, SnapshotWriter.pickle(MemorySnapshot.of(a)));
    }

    @Test
    @DisplayName("advise --html writes one offline page with a series per row, the card line and the OOMs")
    void advise() throws Exception {
        Path page = dir.resolve("advise.html");
        CliRun run = CliRun.of("advise", "--html", page.toString(), snapshot.toString());
        assertThat(run.status()).as(run.err()).isZero();
        assertThat(run.out()).contains("as recorded");
        String html = Files.readString(page);
        assertThat(html).startsWith("<!DOCTYPE html>").contains("<svg ").contains("<title>card: ")
                .contains(": OOM at entry ").contains("Who holds the memory at")
                .contains("\"name\":\"as recorded\"").contains("\"name\":\"expandable_segments:True\"");
    }

    @Test
    @DisplayName("replay --html writes the recorded run's page")
    void replay() throws Exception {
        Path page = dir.resolve("replay.html");
        CliRun run = CliRun.of("replay", "--html", page.toString(), snapshot.toString());
        assertThat(run.status()).as(run.err()).isZero();
        assertThat(Files.readString(page)).contains("\"name\":\"as recorded\"").contains(": OOM at entry ");
    }

    @Test
    @DisplayName("a page that cannot be written, or a text trace, is one error line and exit 2")
    void errors() {
        String missing = dir.resolve("no/such/dir/page.html").toString();
        CliRun bad = CliRun.of("advise", "--html", missing, snapshot.toString());
        assertThat(bad.status()).isEqualTo(2);
        assertThat(bad.err()).startsWith("error: advise: --html " + missing + ": no such directory").doesNotContain("\tat ");
        assertThat(bad.err().lines().count()).isEqualTo(1);
        CliRun folder = CliRun.of("advise", "--html", dir.toString(), snapshot.toString());
        assertThat(folder.status()).isEqualTo(2);
        assertThat(folder.err()).startsWith("error: advise: --html " + dir + ": is a directory");
        CliRun text = CliRun.withInput("alloc a 1MiB\n", "advise", "--device", "1GiB", "--html",
                dir.resolve("t.html").toString(), "-");
        assertThat(text.status()).isEqualTo(2);
        assertThat(text.err()).isEqualTo("error: advise: --html " + dir.resolve("t.html")
                + ": applies to snapshots, not to text traces\n");
        CliRun replayBad = CliRun.of("replay", "--html", missing, snapshot.toString());
        assertThat(replayBad.status()).isEqualTo(2);
        assertThat(replayBad.err()).startsWith("error: replay: --html " + missing + ": no such directory");
    }
}
