package vramlab.judge;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;

import vramlab.figures.RunChart;
import vramlab.figures.Svg;
import vramlab.units.Bytes;
import vramlab.workload.Workload;

/**
 * A class's contest: each student's entry, its performance index (computed as {@link Scoreboard}
 * computes it, against the reference's recorded runs), best first, as CSV and as one offline
 * HTML page with the memory held over each workload by the reference entry and the best entries.
 */
public final class Leaderboard {
    /**
     * One student's entry.
     *
     * @param student the student's id
     * @param index   the performance index, or NaN when the entry could not be scored
     * @param note    why not, or what it broke; "" when it ran clean
     * @param runs    its run of each workload, for the curves (empty when it did not run)
     */
    public record Entry(String student, double index, String note, List<Run> runs) {
        public Entry {
            runs = List.copyOf(runs);
        }

        boolean scored() { return !Double.isNaN(index); }
    }

    private final String title;
    private final List<Workload> workloads;
    private final String referenceName;
    private final List<Run> reference;
    private final List<Entry> ranked;

    /**
     * @param reference the reference entry's run of each workload (drawn beside the best entries)
     */
    public Leaderboard(String title, List<Workload> workloads, String referenceName, List<Run> reference,
                       List<Entry> entries) {
        this.title = title;
        this.workloads = List.copyOf(workloads);
        this.referenceName = referenceName;
        this.reference = List.copyOf(reference);
        List<Entry> r = new ArrayList<>(entries);
        r.sort(Comparator.comparingDouble((Entry e) -> e.scored() ? e.index() : -1).reversed()
                .thenComparing(Entry::student));
        this.ranked = List.copyOf(r);
    }

    /** The entries, best index first (an entry that could not be scored last), ties by id. */
    public List<Entry> ranked() { return ranked; }

    /**
     * Each entry's rank, as {@link #ranked()} orders them: 1, 2, ... for a scored entry; an entry
     * that could not be scored has none (null): it is unranked, as a class's row that hung, crashed
     * or did not compile says. It was numbered on after the scored ones, so in a class where no one
     * had written the contest's steps the first id in order was "1" in the CSV, the page and the console.
     */
    public List<Integer> ranks() {
        List<Integer> r = new ArrayList<>();
        int rank = 0;
        for (Entry e : ranked) r.add(e.scored() ? ++rank : null);
        return r;
    }

    /** As CSV (RFC 4180): rank and index (both empty when not scored), student, workloads that fit, note. */
    public void csv(Appendable out) throws IOException {
        try (CSVPrinter p = new CSVPrinter(out, CSVFormat.RFC4180.builder().setRecordSeparator('\n').get())) {
            p.printRecord("rank", "student", "index", "workloads_fit", "workloads", "note");
            List<Integer> ranks = ranks();
            for (int i = 0; i < ranked.size(); i++) {
                Entry e = ranked.get(i);
                p.printRecord(ranks.get(i), e.student(),       // null: an empty cell, unquoted
                        e.scored() ? String.format(Locale.ROOT, "%.2f", e.index()) : "",
                        e.runs().stream().filter(Run::fit).count(), workloads.size(), e.note());
            }
        }
    }

    /**
     * The page: the ranking, then per workload the memory held (thick) and requested (thin) over
     * the run by the reference entry and the best {@code top} scored entries that ran it.
     * Inline SVG and CSS only: no script, nothing fetched.
     */
    public String html(int top) {
        StringBuilder sb = new StringBuilder();
        String t = Svg.escape(title);
        sb.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>").append(t)
          .append("</title>\n<style>\nbody{font-family:").append(Svg.FONT)
          .append(";margin:1.5em;max-width:960px}\ntable{border-collapse:collapse}td,th{padding:2px 8px;"
                  + "text-align:left;border-bottom:1px solid #ccc}td.n{text-align:right}\n</style>\n</head>\n<body>\n");
        sb.append("<h1>").append(t).append("</h1>\n<p>Performance index: 100 x the mean over the workloads of "
                + "0.6 x (peak requested / peak reserved) + 0.4 x min(1, ").append(Svg.escape(referenceName))
          .append("'s driver cost / the entry's); 0 for a workload that did not fit, 0 in all for a broken check. "
                + "Best first.</p>\n");
        sb.append("<table>\n<tr><th>rank</th><th>student</th><th>index</th><th>fit</th><th>note</th></tr>\n");
        List<Integer> ranks = ranks();
        for (int i = 0; i < ranked.size(); i++) {
            Entry e = ranked.get(i);
            sb.append("<tr><td class=\"n\">").append(ranks.get(i) == null ? "-" : ranks.get(i)).append("</td><td>").append(Svg.escape(e.student()))
              .append("</td><td class=\"n\">").append(e.scored() ? String.format(Locale.ROOT, "%.1f", e.index()) : "-")
              .append("</td><td class=\"n\">").append(e.runs().stream().filter(Run::fit).count()).append('/')
              .append(workloads.size()).append("</td><td>").append(Svg.escape(e.note())).append("</td></tr>\n");
        }
        sb.append("</table>\n");
        List<Entry> best = ranked.stream().filter(e -> e.scored() && e.runs().size() == workloads.size()).limit(top).toList();
        for (int w = 0; w < workloads.size(); w++) {
            Workload wl = workloads.get(w);
            List<RunChart.Series> series = new ArrayList<>();
            series.add(Scoreboard.series(referenceName + " (reference)", reference.get(w), wl));
            for (Entry e : best) series.add(Scoreboard.series(e.student(), e.runs().get(w), wl));
            sb.append("<h2>").append(Svg.escape(wl.name())).append("</h2>\n<p>")
              .append(Svg.escape(wl.shape() + "; card " + Bytes.formatSize(wl.card()) + "."))
              .append("</p>\n").append(RunChart.svg(wl.name() + ": memory held (thick) and requested (thin), the best "
                      + best.size() + " and " + referenceName, series, wl.card()));
        }
        return sb.append("</body>\n</html>\n").toString();
    }
}
