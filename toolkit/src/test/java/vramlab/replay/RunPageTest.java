package vramlab.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static vramlab.units.Bytes.formatSize;
import static vramlab.units.Bytes.mib;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;

import vramlab.advise.Advice;
import vramlab.advise.Outcome;
import vramlab.advise.Setting;
import vramlab.advise.Workload;
import vramlab.alloc.CachingAllocator;
import vramlab.alloc.MemorySnapshot;
import vramlab.snapshot.Snapshot;
import vramlab.snapshot.SnapshotReader;
import vramlab.snapshot.SnapshotWriter;

/**
 * The offline page of a run: what it draws is what the replay found. A generated run on a
 * 256 MiB card that OOMs (the kit's own allocator, recorded as PyTorch records), read back as a
 * snapshot; the page's embedded figures are parsed back and compared with the replay's report.
 */
@DisplayName("the run page (advise --html, replay --html)")
class RunPageTest {
    static byte[] pickle() {
        CachingAllocator a = SnapshotReplayTest.run(21, "", mib(256), 800, 0, Long.MAX_VALUE);
        assertThat(a.memoryStats().numOoms()).as("the run must OOM for this test to mean anything").isPositive();
        return SnapshotWriter.pickle(MemorySnapshot.of(a));
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> data(String page) throws Exception {
        Matcher m = Pattern.compile("<script type=\"application/json\" id=\"vramlab-run\">(.*?)</script>",
                Pattern.DOTALL).matcher(page);
        assertThat(m.find()).as("the page embeds its figures").isTrue();
        return new ObjectMapper().readValue(m.group(1).replace("<\\/", "</"), Map.class);
    }

    static List<Long> longs(Object list) {
        List<Long> out = new ArrayList<>();
        for (Object o : (List<?>) list) out.add(((Number) o).longValue());
        return out;
    }

    static List<Long> ints(List<Integer> list) {
        List<Long> out = new ArrayList<>();
        for (int i : list) out.add((long) i);
        return out;
    }

    /** Offline: no script to run, nothing fetched; one inline SVG. */
    static void offline(String page) {
        assertThat(page).startsWith("<!DOCTYPE html>").contains("<svg ");
        assertThat(page.replace("<script type=\"application/json\" id=\"vramlab-run\">", ""))
                .doesNotContain("<script").doesNotContain("src=").doesNotContain("href=\"http")
                .doesNotContain("url(").doesNotContain("@import");
    }

    @Test
    @SuppressWarnings("unchecked")
    @DisplayName("replay's page: its peak and OOM entries are the replay's own, the card line at the card, every OOM marked")
    void replayPage() throws Exception {
        Snapshot s = SnapshotReader.read(pickle(), "run.pickle");
        Snapshot.Device d = s.device(0);
        Timeline t = new Timeline();
        WhatIf w = WhatIf.run(s, d, SnapshotReplay.Options.recorded(), t, false);
        SnapshotReplay.Report r = w.main();
        assertThat(r.replayedOoms()).isNotEmpty();
        String page = RunPage.html("run.pickle", r.cardAvailable(),
                List.of(new RunPage.Row("as recorded", t, w.verdict())), WhoHolds.atPeak(s, d, SnapshotReplay.Options.recorded(), r));
        offline(page);
        Map<String, Object> data = data(page);
        Map<String, Object> series = ((List<Map<String, Object>>) data.get("series")).get(0);
        assertThat(((Number) series.get("peakReserved")).longValue()).isEqualTo(r.replayedPeak());
        assertThat(longs(series.get("ooms"))).isEqualTo(ints(r.replayedOoms()));
        assertThat(((Number) data.get("card")).longValue()).isEqualTo(r.cardAvailable());
        assertThat(page).contains("<title>card: " + formatSize(r.cardAvailable()) + "</title>");
        for (int entry : r.replayedOoms()) assertThat(page).contains("as recorded: OOM at entry " + entry + "</title>");
        assertThat(count(page, ": OOM at entry ")).isEqualTo(r.replayedOoms().size());
        Map<String, Object> at = (Map<String, Object>) data.get("atPeak");
        assertThat(((Number) at.get("entry")).longValue()).isEqualTo(r.replayedPeakPosition());
    }

    @Test
    @SuppressWarnings("unchecked")
    @DisplayName("advise's page: one series per row, each the row's own replay (peak, OOM entries), heard, not replayed again")
    void advisePage() throws Exception {
        Workload wl = Workload.read(pickle(), "run.pickle", -1);
        List<Timeline> timelines = new ArrayList<>();
        Advice advice = Advice.of(wl, "run.pickle", Setting.standard(), null, timelines);
        assertThat(timelines).hasSameSizeAs(advice.outcomes());
        List<RunPage.Row> rows = new ArrayList<>();
        for (int i = 0; i < advice.outcomes().size(); i++) {
            Outcome o = advice.outcomes().get(i);
            rows.add(new RunPage.Row(o.setting().name(), timelines.get(i), o.whatIf().verdict()));
        }
        assertThat(advice.cardKnown()).isTrue();
        String page = RunPage.html(wl.source(), advice.card(), rows, advice.holders(), List.of("a note"),
                advice.recommendation());
        offline(page);
        // what to set is on the page too, as the text ends (the page had the table and no recommendation)
        assertThat(advice.recommendation()).startsWith("Recommendation: ");
        assertThat(page).contains("<p class=\"note\">a note</p>\n<h2>What to set</h2>\n<pre>"
                + Svg(advice.recommendation().strip()) + "</pre>\n");
        assertThat(advice.text()).endsWith(advice.recommendation());
        // a size in a number cell stays on one line ("6.66 GiB" broke into "6.66" over "GiB")
        assertThat(page).contains("td.n{text-align:right;white-space:nowrap}");
        // on an unknown card the OOM column says "?", as advise's table does (it said 0)
        String unknown = RunPage.html(wl.source(), -1, rows, advice.holders());
        assertThat(unknown).contains("<td class=\"n\">?</td>").doesNotContain("</td><td class=\"n\">0</td><td>");
        List<Map<String, Object>> series = (List<Map<String, Object>>) data(page).get("series");
        assertThat(series).hasSameSizeAs(advice.outcomes());
        int marks = 0;
        for (int i = 0; i < series.size(); i++) {
            SnapshotReplay.Report r = advice.outcomes().get(i).whatIf().main();
            assertThat(((Number) series.get(i).get("peakReserved")).longValue()).as(rows.get(i).name())
                    .isEqualTo(r.replayedPeak()).isEqualTo(advice.outcomes().get(i).peakReserved());
            assertThat(longs(series.get(i).get("ooms"))).as(rows.get(i).name()).isEqualTo(ints(r.replayedOoms()));
            for (int entry : r.replayedOoms()) {
                assertThat(page).contains(Svg(rows.get(i).name()) + ": OOM at entry " + entry + "</title>");
            }
            marks += r.replayedOoms().size();
        }
        assertThat(marks).as("some row must OOM for this test to mean anything").isPositive();
        assertThat(count(page, ": OOM at entry ")).isEqualTo(marks);
        assertThat(page).contains("<title>card: " + formatSize(advice.card()) + "</title>");
    }

    private static String Svg(String s) { return vramlab.figures.Svg.escape(s); }

    private static int count(String s, String what) {
        int n = 0;
        for (int i = s.indexOf(what); i >= 0; i = s.indexOf(what, i + 1)) n++;
        return n;
    }
}
