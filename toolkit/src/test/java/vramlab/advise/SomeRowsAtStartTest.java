package vramlab.advise;

import static org.assertj.core.api.Assertions.assertThat;
import static vramlab.units.Bytes.MiB;

import java.util.List;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import vramlab.alloc.CachingAllocator;
import vramlab.alloc.MemorySnapshot;
import vramlab.alloc.PyTorchPolicy;
import vramlab.driver.Gpu;
import vramlab.snapshot.Snapshot;
import vramlab.snapshot.SnapshotReader;
import vramlab.snapshot.SnapshotWriter;

/**
 * A snapshot whose history, under some settings and not others, never reserves beyond the segments
 * it starts with. Those rows' peak is the recorded start (kept as recorded under every row), the
 * least any row can show: bcrafton's real snapshot has six such rows of eight, and advise said
 * "keep the recorded settings: no setting replays this workload ... with more than 2% less reserved",
 * as if a setting could have shown less. The rows are marked, and the recommendation says what the
 * comparison can and cannot show.
 */
@DisplayName("advise where some rows, not all, peak at the state the history starts from")
class SomeRowsAtStartTest {
    static final long CARD = 1L << 30;

    /**
     * Under {@code recorded}, a {@code start}-byte segment made and emptied before the history; the
     * history then allocates {@code sizes}.
     */
    static Snapshot snapshot(String recorded, long start, long... sizes) {
        CachingAllocator a = new CachingAllocator(new Gpu(CARD).openToyProcess(), new PyTorchPolicy(recorded));
        a.free(a.alloc(start, 0));
        a.trace().record(true, Long.MAX_VALUE);
        for (long size : sizes) a.alloc(size, 0);
        return SnapshotReader.read(SnapshotWriter.pickle(MemorySnapshot.of(a)), "run.pickle");
    }

    static Advice advise(Snapshot s, List<Setting> settings) {
        List<Outcome> rows = Advisor.compare(s, s.device(0), CARD, settings, null);
        return new Advice("run.pickle", CARD, "--device", s.settings() == null ? null : s.settings().conf(),
                "trace entry", rows, true);
    }

    @Test
    @DisplayName("the recorded settings peak at the start and two rows reserve more: keep them, but the"
            + " snapshot cannot show a better setting, and says how to record one that can")
    void baselineAtTheStart() {
        // 130 MiB from a 200 MiB cached segment: max_split_size_mb:128 may not split a block that large
        Advice a = advise(snapshot("", 200 * MiB, 130 * MiB), List.of(new Setting("max_split_size_mb:128", ""),
                new Setting("max_split_size_mb:256", ""), new Setting("max_split_size_mb:100", "")));
        assertThat(a.outcomes()).extracting(Outcome::peakReserved)
                .containsExactly(200 * MiB, 330 * MiB, 200 * MiB, 330 * MiB);
        assertThat(a.recommendation()).isEqualTo("Recommendation: keep the recorded settings, though this snapshot"
                + " cannot show a better setting: under them the history never reserves beyond the state it starts"
                + " from (the snapshot's segments, 200.00 MiB reserved), the least any row can show, since every"
                + " row starts from that state as recorded. It shows only settings that would reserve more"
                + " (max_split_size_mb:128, max_split_size_mb:100), not whether any would save memory. To compare"
                + " them, record a snapshot from the start of the run"
                + " (torch.cuda.memory._record_memory_history(max_entries=N) before its first CUDA allocation, N"
                + " above the trace entries the run writes, one per allocation, two per free and one per segment reserved or released, so that its ring"
                + " buffer, which keeps the last N, drops none) and advise that.\n");
        String text = a.text();
        assertThat(text).contains("\nas recorded               200.00 MiB*      70.00 MiB (35.0%)     0  -\n")
                .contains("\nmax_split_size_mb:128     330.00 MiB      200.00 MiB (60.6%)     0  -\n")
                .contains("\n* peak at the start: under this setting the history never reserves beyond the state it"
                        + " starts from (the snapshot's segments, 200.00 MiB reserved, kept as recorded under every"
                        + " row), so this peak is that state's, not one the setting made, and the holes are those the"
                        + " history leaves in it. No row can show less: the marked rows tie there, and show that the"
                        + " history fits in that state under them, not what each would have saved before the history"
                        + " began\n");
        assertThat(a.outcomes()).extracting(a::peakAtStartMarked).containsExactly(true, false, true, false);
    }

    @Test
    @DisplayName("the recorded settings reserve more and two rows peak at the start: the one chosen says its"
            + " saving is what the recorded settings add during the history, and which rows tie with it")
    void chosenAtTheStart() {
        Advice a = advise(snapshot("max_split_size_mb:128", 200 * MiB, 130 * MiB),
                List.of(new Setting("max_split_size_mb:256", ""), new Setting("max_split_size_mb:512", "")));
        assertThat(a.outcomes()).extracting(Outcome::peakReserved).containsExactly(330 * MiB, 200 * MiB, 200 * MiB);
        assertThat(a.recommendation()).startsWith("Recommendation: max_split_size_mb:512 peaks at 200.00 MiB"
                + " reserved, 130.00 MiB less than the recorded settings. Under it (as under max_split_size_mb:256,"
                + " which tie with it) the history never reserves beyond the state it starts from (the snapshot's"
                + " segments, 200.00 MiB reserved, kept as recorded under every row): the difference is what the"
                + " recorded settings add during the history; what it would have made of the memory before the"
                + " history began is not in this snapshot. Set, before the process starts:\n"
                + "  PYTORCH_CUDA_ALLOC_CONF=max_split_size_mb:512\n");
        assertThat(a.startPeakNote()).startsWith("* peak at the start: ");
    }

    @Test
    @DisplayName("advise --html's page marks the same rows in its table and its JSON, with the note under the table")
    void page() {
        Snapshot s = snapshot("", 200 * MiB, 130 * MiB);
        List<vramlab.replay.Timeline> timelines = new java.util.ArrayList<>();
        List<Outcome> rows = Advisor.compare(s, s.device(0), CARD, List.of(new Setting("max_split_size_mb:128", "")),
                null, timelines);
        Advice a = new Advice("run.pickle", CARD, "--device", "", "trace entry", rows, true);
        String html = vramlab.replay.RunPage.html("run.pickle", CARD, a.pageRows(timelines), null, a.pageNotes(),
                a.recommendation());
        assertThat(html).contains("<td>as recorded</td><td class=\"n\">200.00 MiB*</td>")
                .contains("<td>max_split_size_mb:128</td><td class=\"n\">330.00 MiB</td>")
                .contains("<p class=\"note\">* peak at the start: ")
                .contains("\"name\":\"as recorded\",\"peakReserved\":209715200,\"peakAtStart\":true")
                .contains("\"name\":\"max_split_size_mb:128\",\"peakReserved\":346030080,\"peakAtStart\":false")
                .contains("keep the recorded settings, though this snapshot cannot show a better setting");
    }

    @Test
    @DisplayName("no row at the start, or every row: no mark, no note, the table as before")
    void noneOrAll() {
        Advice none = advise(snapshot("", 20 * MiB, 30 * MiB), List.of(new Setting("max_split_size_mb:256", "")));
        Advice all = advise(snapshot("", 200 * MiB, 8 * MiB), List.of(new Setting("max_split_size_mb:256", "")));
        for (Advice a : List.of(none, all)) {
            assertThat(a.startPeakNote()).isNull();
            assertThat(a.text()).doesNotContain("*").contains("  peak reserved ");
            assertThat(a.outcomes()).noneMatch(a::peakAtStartMarked);
        }
    }
}
