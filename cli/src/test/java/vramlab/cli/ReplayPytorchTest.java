package vramlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code vramlab replay --policy pytorch}: the launcher's side of issue 3. */
@DisplayName("replay --policy pytorch")
class ReplayPytorchTest {
    @TempDir Path dir;

    record Run(int status, String out, String err) {}

    static Run run(String stdin, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        Io io = new Io(new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        int status = Main.run(args, io);
        return new Run(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    @DisplayName("--csv on single allocations shows PyTorch's block (allocated) and segment (reserved) sizes")
    void csvTable() {
        // Each request on a cold cache: alloc, free, empty_cache. Values worked out by hand from CUDACachingAllocator.cpp's rules, as PyTorchPolicyTest's rows.
        long[][] rows = {{100, 512, 2097152}, {1572864, 1572864, 20971520}, {5242881, 5243392, 20971520},
            {10485760, 10485760, 10485760}, {26214400, 27262976, 27262976}};
        StringBuilder trace = new StringBuilder();
        for (int i = 0; i < rows.length; i++) {
            trace.append("alloc h").append(i).append(' ').append(rows[i][0]).append("\nfree h").append(i)
                 .append("\nempty_cache\n");
        }
        Run r = run(trace.toString(), "replay", "--policy", "pytorch", "--device", "80GiB", "--csv", "-");
        assertThat(r.status()).as(r.err()).isZero();
        List<String> allocs = r.out().lines().filter(l -> l.contains(",alloc,")).toList();
        assertThat(allocs).hasSize(rows.length);
        for (int i = 0; i < rows.length; i++) {
            assertThat(allocs.get(i)).endsWith(",ok," + rows[i][0] + "," + rows[i][1] + "," + rows[i][2]);
        }
    }

    @Test
    @DisplayName("an unknown --alloc-conf key exits 2 with one line naming it")
    void badConf() {
        Run r = run("", "replay", "--policy", "pytorch", "--alloc-conf", "expandable_segment:True", "-");
        assertThat(r.status()).isEqualTo(2);
        assertThat(r.err().lines()).singleElement().asString()
                .startsWith("error: replay: --alloc-conf 'expandable_segment:True': Unrecognized CachingAllocator option: expandable_segment (");
        Run v = run("", "replay", "--policy", "pytorch", "--alloc-conf", "max_split_size_mb:10", "-");
        assertThat(v.err()).contains("bad value '10' for max_split_size_mb");
    }

    @Test
    @DisplayName("the human summary prints each OOM in PyTorch's words and the final memory_summary")
    void summary() {
        Run r = run("alloc a 30MiB\nalloc b 1.5MiB\nfree a\nalloc c 46MiB\n",
                "replay", "--policy", "pytorch", "--device", "64MiB", "-");
        assertThat(r.status()).isZero();
        assertThat(r.out()).contains("OOM at step 4").contains("CUDA out of memory. Tried to allocate 46.00 MiB.")
                .contains("PyTorch CUDA memory summary, device ID 0").contains("CUDA OOMs: 1");
        Run e = run("alloc a 30MiB\nalloc b 1.5MiB\nfree a\nalloc c 46MiB\n",
                "replay", "--policy", "pytorch", "--alloc-conf", "expandable_segments:True", "--device", "64MiB", "-");
        assertThat(e.out()).contains("OOMs: 0").doesNotContain("CUDA out of memory");
    }

    @Test
    @DisplayName("--export writes a pickle that replay reads back as a snapshot")
    void exportAndReplay() throws Exception {
        Path trace = dir.resolve("t.trace");
        Files.writeString(trace, "alloc a 3MiB\nalloc b 100\nfree a\nalloc c 25MiB\n");
        Path snap = dir.resolve("t.pickle");
        Run first = run("", "replay", "--policy", "pytorch", "--csv", "--export", snap.toString(), trace.toString());
        assertThat(first.status()).as(first.err()).isZero();
        assertThat(Files.readAllBytes(snap)[0] & 0xff).as("pickle protocol opcode").isEqualTo(0x80);
        Run again = run("", "replay", "--policy", "pytorch", "--csv", snap.toString());
        assertThat(again.status()).as(again.err()).isZero();
        assertThat(lastColumns(again.out())).isEqualTo(lastColumns(first.out()));
    }

    private static String lastColumns(String csv) {
        List<String> l = csv.lines().toList();
        String last = l.get(l.size() - 1);
        return last.substring(last.indexOf(",ok,") + 1).replaceFirst("^ok,\\d+,", "");
    }
}
