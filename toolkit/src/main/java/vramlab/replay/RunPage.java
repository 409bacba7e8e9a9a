package vramlab.replay;

import static vramlab.units.Bytes.formatSize;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import vramlab.figures.RunChart;
import vramlab.figures.Svg;

/**
 * One offline page of a run ({@code advise --html}, {@code replay --html}): reserved and
 * allocated over the run under each setting, the card line, each OOM marked, the verdicts, and
 * who held the memory at the peak. Inline SVG and CSS only: no script runs, nothing is fetched.
 * The figures the page draws are also embedded as JSON ({@code <script type="application/json"
 * id="vramlab-run">}, data, never executed), taken from the drawn series themselves.
 */
public final class RunPage {
    /**
     * One setting's run: its name, the series heard from its replay, its verdict in words, and
     * whether {@code advise} marks its peak as the state the recorded history starts from (the
     * history never reserved more under it; its table's mark and note say so).
     */
    public record Row(String name, Timeline timeline, String verdict, boolean peakAtStart) {
        public Row(String name, Timeline timeline, String verdict) { this(name, timeline, verdict, false); }
    }

    /** Beside a peak that is the recorded start's, as {@code advise}'s table marks it. */
    public static final String START_MARK = "*";

    private RunPage() {}

    /** @param card the bytes the card offers PyTorch, or -1 when unknown (no card line) */
    public static String html(String source, long card, List<Row> rows, WhoHolds atPeak) {
        return html(source, card, rows, atPeak, List.of(), null);
    }

    /**
     * The same, with lines that qualify the verdicts (shown under their table) and what to set,
     * in {@code advise}'s words (null for none: {@code replay}'s page), so that the page a
     * practitioner keeps or passes on carries the {@code PYTORCH_CUDA_ALLOC_CONF} line too.
     */
    public static String html(String source, long card, List<Row> rows, WhoHolds atPeak, List<String> notes,
                              String recommendation) {
        List<RunChart.Series> series = new ArrayList<>();
        List<Object> data = new ArrayList<>();
        for (Row r : rows) {
            Timeline t = r.timeline();
            long[] e = new long[t.size()], res = new long[t.size()], al = new long[t.size()];
            for (int i = 0; i < t.size(); i++) {
                e[i] = t.position(i);
                res[i] = t.reserved(i);
                al[i] = t.allocated(i);
            }
            series.add(new RunChart.Series(r.name(), e, res, al, t.ooms()));
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("name", r.name());
            m.put("peakReserved", t.peakReserved());
            m.put("peakAtStart", r.peakAtStart());
            List<Object> ooms = new ArrayList<>();
            for (int p : t.ooms()) ooms.add((long) p);
            m.put("ooms", ooms);
            m.put("verdict", r.verdict());
            data.add(m);
        }
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("source", source);
        root.put("card", card);
        root.put("series", data);
        root.put("atPeak", atPeak == null ? null : atPeak.map());
        StringBuilder sb = new StringBuilder();
        sb.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>vramlab: ")
          .append(Svg.escape(source)).append("</title>\n<style>\nbody{font-family:").append(Svg.FONT)
          .append(";margin:1.5em;max-width:960px}\ntable{border-collapse:collapse}td,th{padding:2px 8px;"
                  + "text-align:left;border-bottom:1px solid #ccc}td.n{text-align:right;white-space:nowrap}\npre{white-space:pre-wrap}\n</style>\n</head>\n<body>\n");
        sb.append("<h1>").append(Svg.escape(source)).append("</h1>\n<p>")
          .append(card > 0 ? "The card offers PyTorch " + formatSize(card) + " (the line across the chart)."
                  : "The card is unknown (no --device, no oom entry): no card line, settings ranked by peak.")
          .append("</p>\n");
        sb.append(RunChart.svg("Reserved and allocated over the run", series, card));
        sb.append("<table>\n<tr><th>setting</th><th>peak reserved</th><th>OOMs</th><th>verdict</th></tr>\n");
        for (int i = 0; i < rows.size(); i++) {
            Timeline t = rows.get(i).timeline();
            sb.append("<tr><td>").append(Svg.escape(rows.get(i).name())).append("</td><td class=\"n\">")
              .append(formatSize(t.peakReserved())).append(rows.get(i).peakAtStart() ? START_MARK : "")
              .append("</td><td class=\"n\">")
              .append(card > 0 ? String.valueOf(t.ooms().size()) : "?")     // on an assumed card: said of none
              .append("</td><td>").append(Svg.escape(rows.get(i).verdict())).append("</td></tr>\n");
        }
        sb.append("</table>\n");
        for (String note : notes) sb.append("<p class=\"note\">").append(Svg.escape(note)).append("</p>\n");
        if (recommendation != null) {
            sb.append("<h2>What to set</h2>\n<pre>").append(Svg.escape(recommendation.strip())).append("</pre>\n");
        }
        if (atPeak != null) {
            sb.append("<h2>Who holds the memory at ").append(Svg.escape(atPeak.when())).append("</h2>\n<table>\n"
                    + "<tr><th>bytes</th><th>blocks</th><th>allocated at</th></tr>\n");
            for (WhoHolds.Site s : atPeak.sites()) {
                sb.append("<tr><td class=\"n\">").append(formatSize(s.bytes())).append("</td><td class=\"n\">")
                  .append(s.count()).append("</td><td>").append(Svg.escape(s.where())).append("</td></tr>\n");
            }
            sb.append("</table>\n");
        }
        sb.append("<script type=\"application/json\" id=\"vramlab-run\">")
          .append(vramlab.triage.Json.write(root).replace("</", "<\\/")).append("</script>\n</body>\n</html>\n");
        return sb.toString();
    }
}
