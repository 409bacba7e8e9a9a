package vramlab.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static vramlab.units.Bytes.mib;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import vramlab.alloc.Block;
import vramlab.alloc.CachingAllocator;
import vramlab.alloc.MemorySnapshot;
import vramlab.alloc.PyTorchPolicy;
import vramlab.driver.Gpu;
import vramlab.snapshot.SnapshotWriter;

/**
 * {@code --pytorch-version} on {@code replay} and {@code advise}: which release's rules
 * {@code --policy pytorch} follows, its error for a release the kit does not model, and the
 * release a snapshot's fields imply when the flag is not given.
 */
@DisplayName("--pytorch-version")
class PyTorchVersionTest {
    @TempDir Path dir;

    /** The command's own error line, as every option's refusal names its command (error: replay: --device ...). */
    static String error(String command) {
        return "error: " + command + ": --pytorch-version '2.9x' is not a release the kit models; expected one of 2.9, 2.10";
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"replay", "advise"})
    @DisplayName("a release the kit does not model exits 2 with one line naming the releases it does")
    void unknownRelease(String command) {
        CliRun r = CliRun.withInput("alloc a 1024\n", command, "--pytorch-version", "2.9x", "-");
        assertThat(r.status()).isEqualTo(2);
        assertThat(r.err().lines()).containsExactly(error(command));
        CliRun eq = CliRun.withInput("alloc a 1024\n", command, "--pytorch-version=2.9x", "-");
        assertThat(eq.err().lines()).containsExactly(error(command));
    }

    @Test
    @DisplayName("max_split_size_mb:20 is refused by 2.9's parser (the default) and read by 2.10's")
    void twentyByRelease() {
        String trace = "alloc a 1048576\n";
        CliRun old = CliRun.withInput(trace, "replay", "--policy", "pytorch", "--alloc-conf", "max_split_size_mb:20", "-");
        assertThat(old.status()).isEqualTo(2);
        assertThat(old.err().lines()).singleElement().asString()
                .contains("bad value '20' for max_split_size_mb").contains("--pytorch-version 2.10");
        CliRun newer = CliRun.withInput(trace, "replay", "--policy", "pytorch", "--alloc-conf", "max_split_size_mb:20",
                "--pytorch-version", "2.10", "-");
        assertThat(newer.status()).as(newer.err()).isZero();
    }

    @Test
    @DisplayName("the OOM message's hint names PYTORCH_CUDA_ALLOC_CONF under 2.9 and PYTORCH_ALLOC_CONF under 2.10")
    void hintByRelease() {
        String trace = "alloc a 104857600\n";            // 100 MiB on a 64 MiB card
        CliRun old = CliRun.withInput(trace, "replay", "--policy", "pytorch", "--device", "64MiB", "-");
        assertThat(old.status()).as(old.err()).isZero();
        assertThat(old.out()).contains("try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True");
        CliRun newer = CliRun.withInput(trace, "replay", "--policy", "pytorch", "--device", "64MiB",
                "--pytorch-version", "2.10", "-");
        assertThat(newer.out()).contains("try setting PYTORCH_ALLOC_CONF=expandable_segments:True")
                .doesNotContain("PYTORCH_CUDA_ALLOC_CONF=expandable");
    }

    /** A small recorded run as PyTorch would dump it, with {@code user_metadata} on its entries or not. */
    private Path snapshot(boolean userMetadata) throws Exception {
        CachingAllocator a = new CachingAllocator(new Gpu(mib(512)).openToyProcess(), new PyTorchPolicy());
        a.trace().record(true, Long.MAX_VALUE);
        Block b = a.alloc(mib(12));
        a.alloc(mib(3));
        a.free(b);
        Map<String, Object> s = new LinkedHashMap<>(MemorySnapshot.of(a));
        if (userMetadata) {
            List<Object> entries = new ArrayList<>();
            for (Object o : (List<?>) ((List<?>) s.get("device_traces")).get(0)) {
                Map<String, Object> e = new LinkedHashMap<>((Map<String, Object>) o);
                e.put("user_metadata", "");
                entries.add(e);
            }
            s.put("device_traces", List.of(entries));
        }
        Path f = dir.resolve(userMetadata ? "newer.pickle" : "older.pickle");
        Files.write(f, SnapshotWriter.pickle(s));
        return f;
    }

    @Test
    @DisplayName("per_process_memory_fraction: refused by 2.9's parser in its own words (exit 2, one line), read by 2.10's")
    void fractionKeyByRelease() {
        String trace = "alloc a 1048576\n";
        CliRun old = CliRun.withInput(trace, "replay", "--policy", "pytorch", "--alloc-conf",
                "per_process_memory_fraction:0.5", "-");
        assertThat(old.status()).isEqualTo(2);
        assertThat(old.err().lines()).singleElement().asString()
                .startsWith("error: replay: --alloc-conf 'per_process_memory_fraction:0.5': Unrecognized"
                        + " CachingAllocator option: per_process_memory_fraction (PyTorch 2.9's")
                .contains("expected one of: max_split_size_mb,").contains("--pytorch-version 2.10");
        CliRun newer = CliRun.withInput(trace, "replay", "--policy", "pytorch", "--alloc-conf",
                "per_process_memory_fraction:0.5", "--pytorch-version", "2.10", "-");
        assertThat(newer.status()).as(newer.err()).isZero();
        CliRun unknown = CliRun.withInput(trace, "replay", "--policy", "pytorch", "--alloc-conf",
                "large_segment_size_mb:12", "--pytorch-version", "2.10", "-");
        assertThat(unknown.status()).isEqualTo(2);
        assertThat(unknown.err()).contains("Unrecognized key 'large_segment_size_mb' in CUDA allocator config.");
    }

    @Test
    @DisplayName("advise suggests the fraction key only under a release whose parser has it; under 2.9 the line of code")
    void adviseRowsByRelease() throws Exception {
        CliRun older = CliRun.of("advise", snapshot(false).toString());
        assertThat(older.status()).as(older.err()).isZero();
        assertThat(older.out()).contains("PyTorch 2.9's rules")
                .contains("garbage_collection_threshold:0.8 + set_per_process_memory_fraction(0.99)")
                .doesNotContain("per_process_memory_fraction:");
        CliRun newer = CliRun.of("advise", snapshot(true).toString());
        assertThat(newer.status()).as(newer.err()).isZero();
        assertThat(newer.out()).contains("PyTorch 2.10's rules").contains("per_process_memory_fraction:0.99");
    }

    @Test
    @DisplayName("a snapshot implies its release: user_metadata on its entries means 2.10, replay and advise say so alike")
    void impliedBySnapshot() throws Exception {
        String newer = "PyTorch 2.10's rules (implied: its trace entries carry user_metadata";
        CliRun replay = CliRun.of("replay", snapshot(true).toString());
        assertThat(replay.status()).as(replay.err()).isZero();
        assertThat(replay.out()).contains(newer);
        CliRun advise = CliRun.of("advise", snapshot(true).toString());
        assertThat(advise.status()).as(advise.err()).isZero();
        assertThat(advise.out()).contains("rules: " + newer);
        CliRun older = CliRun.of("replay", snapshot(false).toString());
        assertThat(older.out()).contains("PyTorch 2.9's rules (implied: it records allocator_settings and no"
                + " user_metadata, so 2.9 or earlier)");
    }

    @Test
    @DisplayName("--pytorch-version overrides what the snapshot implies, and says what it implied")
    void givenOverridesImplied() throws Exception {
        CliRun r = CliRun.of("replay", "--pytorch-version", "2.10", snapshot(false).toString());
        assertThat(r.status()).as(r.err()).isZero();
        assertThat(r.out()).contains("PyTorch 2.10's rules (--pytorch-version; the file implies 2.9,");
        CliRun a = CliRun.of("advise", "--pytorch-version", "2.10", snapshot(false).toString());
        assertThat(a.out()).contains("rules: PyTorch 2.10's rules (--pytorch-version; the file implies 2.9,");
    }
}
