package vramlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code replay --memory-fraction F}: torch.cuda.set_per_process_memory_fraction(F) before the
 * first allocation (a limit of F times the card, the call winning over 2.10's key), with the
 * same one-line errors on the fast path and picocli's, and the replay that checks advise's 2.9
 * garbage-collection row.
 */
@DisplayName("replay --memory-fraction")
class ReplayMemoryFractionTest {
    @TempDir Path tmp;

    /** 512 MiB, then 2 MiB (a 20 MiB segment): on a 1 GiB card a fraction of 0.5, exactly 512 MiB, refuses the second. */
    private Path halfAndMore() throws IOException {
        return Files.writeString(tmp.resolve("t.txt"), "alloc a 512MiB\nalloc b 2MiB\n");
    }

    private static CliRun replay(String... args) {
        List<String> all = new ArrayList<>(List.of("replay", "--policy", "pytorch", "--device", "1GiB"));
        all.addAll(List.of(args));
        return CliRun.of(all.toArray(String[]::new));
    }

    @Test
    @DisplayName("an OOM once reserved would pass fraction x card, where there was none without it")
    void limitsAtFractionOfTheCard() throws IOException {
        String t = halfAndMore().toString();
        assertThat(replay(t).out()).contains("events: 2, OOMs: 0");
        CliRun half = replay("--memory-fraction", "0.5", t);
        assertThat(half.status()).as(half.err()).isZero();
        assertThat(half.out()).contains("events: 2, OOMs: 1").contains("OOM at step 2 (line 2, alloc b 2.00 MiB)")
                .contains("512.00 MiB allowed");
        assertThat(replay("--memory-fraction", "0.52", t).out())
                .as("0.52 of 1 GiB is past 532 MiB (the 2 MiB request takes a 20 MiB segment)")
                .contains("events: 2, OOMs: 0");
    }

    @Test
    @DisplayName("under 2.10 it prints what the per_process_memory_fraction key prints; the call wins over the key")
    void asTheKeyUnder210() throws IOException {
        String t = halfAndMore().toString();
        String option = replay("--pytorch-version", "2.10", "--memory-fraction", "0.5", t).out();
        String key = replay("--pytorch-version", "2.10", "--alloc-conf", "per_process_memory_fraction:0.5", t).out();
        assertThat(option).contains("OOMs: 1").isEqualTo(key);
        assertThat(replay("--pytorch-version", "2.10", "--alloc-conf", "per_process_memory_fraction:0.5",
                "--memory-fraction", "1", t).out()).as("the later call sets no limit").contains("OOMs: 0");
        assertThat(replay("--pytorch-version", "2.10", "--alloc-conf", "per_process_memory_fraction:0.9",
                "--memory-fraction", "0.5", t).out()).contains("OOMs: 1").contains("512.00 MiB allowed");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"1.5", "abc", "NaN", "1e5", "-0.5"})
    @DisplayName("a value outside 0..1 exits 2 with one line, on either parse path")
    void badValues(String value) throws IOException {
        String t = halfAndMore().toString();
        String[] spaced = {"replay", "--policy", "pytorch", "--memory-fraction", value, t};
        String[] joined = {"replay", "--policy", "pytorch", "--memory-fraction=" + value, t};
        assertThat(ReplayCommand.parsePlain(spaced) != null).as("the fast path takes it unless it starts with -")
                .isEqualTo(!value.startsWith("-"));
        String line = "error: replay: --memory-fraction '" + value + "': expected a number from 0 to 1, as"
                + " torch.cuda.set_per_process_memory_fraction takes (the limit is that fraction of the card)\n";
        for (String[] args : List.of(spaced, joined)) {
            CliRun r = CliRun.of(args);
            assertThat(r.status()).isEqualTo(2);
            assertThat(r.err()).isEqualTo(line);
            assertThat(r.out()).isEmpty();
        }
    }

    @Test
    @DisplayName("the toy has no memory fraction: said as --alloc-conf says it")
    void notForTheToy() throws IOException {
        String t = halfAndMore().toString();
        for (String[] args : List.of(new String[] {"replay", "--memory-fraction", "0.5", t},
                new String[] {"replay", "--policy", "toy", "--memory-fraction", "0.5", t})) {
            CliRun r = CliRun.of(args);
            assertThat(r.status()).isEqualTo(2);
            assertThat(r.err()).isEqualTo("error: replay: --memory-fraction applies to --policy pytorch, not to the toy\n");
        }
    }

    /**
     * Each activation 2 MiB larger than the last, freed before the next: on 1 GiB the defaults
     * cache them all; the collection (0.8 of 0.99 of the card) returns the oldest.
     */
    private Path growing() throws IOException {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < 40; i++) b.append("alloc x").append(i).append(' ').append(10 + 2 * i).append("MiB\nfree x")
                .append(i).append('\n');
        return Files.writeString(tmp.resolve("growing.txt"), b.toString());
    }

    @Test
    @DisplayName("replay --pytorch-version 2.9 --alloc-conf garbage_collection_threshold:0.8 --memory-fraction 0.99"
            + " is advise's 2.9 row: its peak and OOMs")
    void checksAdvises29Row() throws IOException {
        String t = growing().toString();
        CliRun advise = CliRun.of("advise", "--pytorch-version", "2.9", "--device", "1GiB", t);
        assertThat(advise.status()).as(advise.err()).isZero();
        Matcher row = Pattern.compile("(?m)^garbage_collection_threshold:0\\.8 \\+ set_per_process_memory_fraction\\(0\\.99\\)"
                + " +([\\d.]+ (?:bytes|KiB|MiB|GiB)) +.*? (\\d+)  ").matcher(advise.out());
        assertThat(row.find()).as(advise.out()).isTrue();
        Matcher defaults = Pattern.compile("(?m)^default +([\\d.]+ (?:bytes|KiB|MiB|GiB)) ").matcher(advise.out());
        assertThat(defaults.find()).isTrue();
        assertThat(defaults.group(1)).as("the collection changes the peak").isNotEqualTo(row.group(1));

        CliRun r = replay("--pytorch-version", "2.9", "--alloc-conf", "garbage_collection_threshold:0.8",
                "--memory-fraction", "0.99", t);
        assertThat(r.status()).as(r.err()).isZero();
        Matcher peak = Pattern.compile("(?m)^peak +\\d+ +\\d+ +\\d+\\n +\\S+ \\S+ +\\S+ \\S+ +(\\S+ \\S+)$").matcher(r.out());
        assertThat(peak.find()).as(r.out()).isTrue();
        assertThat(peak.group(1)).isEqualTo(row.group(1));
        assertThat(r.out()).contains("OOMs: " + row.group(2) + ",");
    }

    @Test
    @DisplayName("on a snapshot: alone, the recorded settings under the limit; under 2.9 named as the call, not as a"
            + " key 2.9 refuses")
    void onASnapshot() throws IOException {
        Path snapshot = tmp.resolve("run.pickle");
        CliRun export = replay("--export", snapshot.toString(), halfAndMore().toString());
        assertThat(export.status()).as(export.err()).isZero();
        String s = snapshot.toString();
        String plain = CliRun.of("replay", "--device", "1GiB", s).out();
        assertThat(plain).contains("OOMs recorded at none, replayed at none");
        String alone = CliRun.of("replay", "--device", "1GiB", "--memory-fraction", "0.5", s).out();
        assertThat(alone).contains("pytorch with set_per_process_memory_fraction(0.5) (not the recording settings")
                .contains("512.00 MiB allowed");
        String gc = CliRun.of("replay", "--device", "1GiB", "--pytorch-version", "2.9", "--alloc-conf",
                "garbage_collection_threshold:0.8", "--memory-fraction", "0.99", s).out();
        assertThat(gc).contains("pytorch with garbage_collection_threshold:0.8 + set_per_process_memory_fraction(0.99)")
                .doesNotContain("per_process_memory_fraction:");
    }
}
