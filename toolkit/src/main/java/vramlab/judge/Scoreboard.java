package vramlab.judge;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import vramlab.contest.Contestant;
import vramlab.driver.CostModel;
import vramlab.lab.Todo;
import vramlab.units.Bytes;
import vramlab.workload.Workload;

/**
 * Every entry on every workload, and the performance index (chapter 8, "How the contest
 * scores"). Per workload {@code w} an entry that fit earns
 * <pre>
 *   P_w = 0.6 U_w + 0.4 D_w
 *   U_w = peak requested / peak reserved            (space: 1 when nothing is held beyond the requests)
 *   D_w = min(1, C_ref,w / C_w)                     (driver calls: their simulated cost against PyTorch's)
 * </pre>
 * and one that ran out of memory earns 0; the index is {@code 100 x} the mean of {@code P_w}
 * over the workloads, and 0 for an entry that broke any check. The weights are CS:APP's malloc
 * lab's (0.6 utilisation, 0.4 throughput: {@code UTIL_WEIGHT .60} in the malloclab handout's
 * config.h; its mdriver.c caps throughput at the C library's, as {@code D_w} caps at 1), with throughput measured by the driver's simulated
 * cost ({@link CostModel#ORDER_OF_MAGNITUDE}) rather than wall time, so the index is the same on
 * every machine. {@code C_ref,w} is the first entry's cost (PyTorch's default); where that entry
 * did not fit, or could not run, {@code D_w} is 1.
 */
public final class Scoreboard {
    public static final double SPACE_WEIGHT = 0.6;

    private final List<Workload> workloads;
    private final List<Contestant> entries;
    private final Map<String, List<Run>> runs = new LinkedHashMap<>();
    private final Map<String, Todo> unwritten = new LinkedHashMap<>();
    private final java.util.Set<String> recorded = new java.util.HashSet<>();

    /** Runs every entry on every workload; {@code reference} is the entry the index prices driver calls against. */
    public Scoreboard(Contestant reference, List<Contestant> entries, List<Workload> workloads) {
        this(reference, entries, workloads, null);
    }

    /**
     * The same, taking a run from {@code recorded} where it holds one for the entry and the very
     * workload ({@link RecordedRuns#find}) instead of running it here; null records nothing.
     */
    public Scoreboard(Contestant reference, List<Contestant> entries, List<Workload> workloads, RecordedRuns recorded) {
        this.workloads = List.copyOf(workloads);
        List<Contestant> all = new ArrayList<>(entries);
        all.remove(reference);
        all.add(0, reference);
        this.entries = all;
        for (Contestant c : all) {
            List<Run> row = new ArrayList<>();
            try {
                for (Workload w : workloads) {
                    Run r = recorded == null ? null : recorded.find(c.name(), w);
                    if (r != null) this.recorded.add(c.name() + "\n" + row.size());
                    row.add(r != null ? r : Judge.run(c, w));
                }
            } catch (Todo t) {
                unwritten.put(c.name(), t);
                row.clear();
            }
            runs.put(c.name(), row);
        }
    }

    /** Was {@code entry}'s run of workload number {@code workload} read from a recording rather than run here? */
    public boolean recorded(String entry, int workload) { return recorded.contains(entry + "\n" + workload); }

    /** The entries, best index first (an entry whose step is not written yet last), ties in entry order. */
    public List<Contestant> ranked() {
        List<Contestant> ranked = new ArrayList<>(entries);
        ranked.sort(java.util.Comparator.comparingDouble(
                (Contestant c) -> unwritten.containsKey(c.name()) ? -1 : index(c.name())).reversed());
        return ranked;
    }

    public List<Run> runs(String entry) { return runs.get(entry); }

    public List<Contestant> entries() { return entries; }

    public List<Workload> workloads() { return workloads; }

    // tag::points[]
    /**
     * {@code P_w} of {@code r}, with {@code ref} the reference entry's run of the same workload
     * (null when the reference could not run: a lab step it needs is not written yet; D is then 1).
     */
    public static double points(Run r, Run ref) {
        if (!r.fit()) return 0;
        double u = r.peakReserved() == 0 ? 1 : Math.min(1, (double) r.peakRequested() / r.peakReserved());
        double d = ref == null || !ref.fit() || r.driverMicros() == 0 ? 1 : Math.min(1, ref.driverMicros() / r.driverMicros());
        return SPACE_WEIGHT * u + (1 - SPACE_WEIGHT) * d;
    }
    // end::points[]

    /** The lab step {@code entry} needs that is not written yet, or null. */
    public Todo unwritten(String entry) { return unwritten.get(entry); }

    /**
     * The entry's performance index, 0 to 100.
     *
     * @throws Todo the lab step the entry needs, when it is not written yet
     */
    public double index(String entry) {
        if (unwritten.containsKey(entry)) throw unwritten.get(entry);
        List<Run> row = runs.get(entry);
        List<Run> ref = runs.get(entries.get(0).name());
        double sum = 0;
        for (int i = 0; i < row.size(); i++) {
            if (!row.get(i).correct()) return 0;
            sum += points(row.get(i), i < ref.size() ? ref.get(i) : null);
        }
        return row.isEmpty() ? 0 : 100 * sum / row.size();
    }

    /** The first broken check of {@code entry}, or null. */
    public Broken firstBroken(String entry) {
        for (Run r : runs.get(entry)) if (r.broken() != null) return r.broken();
        return null;
    }

    /**
     * The leaderboard as CSV (RFC 4180, through Commons CSV): a row per entry and workload with
     * its figures, points and whether it ran here ({@code run} "live") or was read from a recording
     * ("recorded"), then a row per entry with its index ({@code workload} "index").
     */
    public void csv(Appendable out) throws java.io.IOException {
        try (var p = new org.apache.commons.csv.CSVPrinter(out,
                org.apache.commons.csv.CSVFormat.RFC4180.builder().setRecordSeparator('\n').get())) {
            p.printRecord("entry", "workload", "card", "fit", "broken", "oom_event", "peak_reserved", "peak_requested",
                    "driver_calls", "driver_micros", "host_ns_per_event", "points", "run");
            List<Run> ref = runs.get(entries.get(0).name());
            for (Contestant c : entries) {
                List<Run> row = runs.get(c.name());
                for (int i = 0; i < row.size(); i++) {
                    Run r = row.get(i);
                    p.printRecord(c.name(), r.workload(), r.card(), r.fit(), r.broken() == null ? "" : r.broken().check().word(),
                            r.oomStep(), r.peakReserved(), r.peakRequested(), r.driverCalls(),
                            String.format(Locale.ROOT, "%.1f", r.driverMicros()),
                            r.nanosPerEvent(""),
                            String.format(Locale.ROOT, "%.4f", points(r, i < ref.size() ? ref.get(i) : null)),
                            source(c.name(), i));
                }
            }
            for (Contestant c : entries) {
                p.printRecord(c.name(), "index", "", "", "", "", "", "", "", "", "",
                        unwritten.containsKey(c.name()) ? "" : String.format(Locale.ROOT, "%.2f", index(c.name())), "");
            }
        }
    }

    /** A run's curves as one series of a chart, under {@code name}. */
    public static vramlab.figures.RunChart.Series series(String name, Run r, Workload w) {
        int n = r.curve().length;
        long[] at = new long[n];
        for (int i = 0; i < n; i++) at[i] = (long) i * w.events().size() / n + 1;
        List<Integer> ooms = r.oomStep() > 0 ? List.of((int) r.oomStep()) : List.of();
        return new vramlab.figures.RunChart.Series(name, at, r.curve(), r.requestedCurve(), ooms);
    }

    /** One workload's curves as a chart: memory held (thick) and requested (thin) per entry, the card as a line. */
    public String chart(int workload) {
        List<vramlab.figures.RunChart.Series> series = new ArrayList<>();
        Workload w = workloads.get(workload);
        for (Contestant c : entries) {
            if (unwritten.containsKey(c.name())) continue;
            series.add(series(c.name(), runs.get(c.name()).get(workload), w));
        }
        return vramlab.figures.RunChart.svg(w.name() + ": memory held from the driver (thick) and requested (thin)",
                series, w.card());
    }

    /**
     * The leaderboard as one offline HTML page: the index of each entry, best first, then per
     * workload its curves and its table. Inline SVG and CSS only: no script runs, nothing is fetched.
     */
    public String html(String title) {
        StringBuilder sb = new StringBuilder();
        String t = vramlab.figures.Svg.escape(title);
        sb.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>").append(t)
          .append("</title>\n<style>\nbody{font-family:").append(vramlab.figures.Svg.FONT)
          .append(";margin:1.5em;max-width:960px}\ntable{border-collapse:collapse}td,th{padding:2px 8px;"
                  + "text-align:left;border-bottom:1px solid #ccc}td.n{text-align:right}\n</style>\n</head>\n<body>\n");
        sb.append("<h1>").append(t).append("</h1>\n<p>Performance index: 100 x the mean over the workloads of "
                + "0.6 x (peak requested / peak reserved) + 0.4 x min(1, PyTorch's driver cost / the entry's); "
                + "0 for a workload that did not fit, 0 in all for a broken check.</p>\n");
        sb.append("<table>\n<tr><th>entry</th><th>index</th><th>first broken check</th></tr>\n");
        for (Contestant c : ranked()) {
            Broken b = unwritten.containsKey(c.name()) ? null : firstBroken(c.name());
            sb.append("<tr><td>").append(vramlab.figures.Svg.escape(c.name())).append("</td><td class=\"n\">")
              .append(unwritten.containsKey(c.name()) ? "-" : String.format(Locale.ROOT, "%.1f", index(c.name())))
              .append("</td><td>").append(vramlab.figures.Svg.escape(unwritten.containsKey(c.name())
                      ? unwritten.get(c.name()).getMessage() : b == null ? "" : b.toString().lines().findFirst().orElse("")))
              .append("</td></tr>\n");
        }
        sb.append("</table>\n");
        for (int w = 0; w < workloads.size(); w++) {
            Workload wl = workloads.get(w);
            sb.append("<h2>").append(vramlab.figures.Svg.escape(wl.name())).append("</h2>\n<p>")
              .append(vramlab.figures.Svg.escape(wl.shape() + "; card " + Bytes.formatSize(wl.card())
                      + ". Modelled on " + wl.source() + ".")).append("</p>\n").append(chart(w));
            sb.append("<table>\n<tr><th>entry</th><th>fit</th><th>reserved / requested</th><th>driver calls</th>"
                    + "<th>driver cost</th><th>run</th></tr>\n");
            for (Contestant c : ranked()) {
                if (unwritten.containsKey(c.name())) continue;
                Run r = runs.get(c.name()).get(w);
                sb.append("<tr><td>").append(vramlab.figures.Svg.escape(c.name())).append("</td><td>")
                  .append(r.broken() != null ? "broken: " + r.broken().check().word() : r.fit() ? "yes" : "OOM at event " + r.oomStep())
                  .append("</td><td class=\"n\">").append(String.format(Locale.ROOT, "%.3f", r.overhead()))
                  .append("</td><td class=\"n\">").append(r.driverCalls()).append("</td><td class=\"n\">")
                  .append(CostModel.format(r.driverMicros())).append("</td><td>").append(source(c.name(), w))
                  .append("</td></tr>\n");
            }
            sb.append("</table>\n");
        }
        return sb.append("</body>\n</html>\n").toString();
    }

    /** "recorded" when {@code entry}'s run of workload number {@code w} was read from a recording, else "live". */
    public String source(String entry, int w) { return recorded(entry, w) ? "recorded" : "live"; }

    /**
     * The table: a row per workload and entry, the entries best index first, each row saying
     * whether it ran here ("live") or was read from a recording; then each entry's index, best first.
     */
    public String table() { return table(true); }

    /**
     * The table, with the host time per event ({@link Run#nanosPerEvent}) or without it: that
     * column is measured, so it differs from run to run, and output recorded for the notes or a
     * release leaves it out to stay the same bytes on every build. Every other column is exact.
     */
    public String table(boolean hostTime) {
        StringBuilder s = new StringBuilder();
        String time = hostTime ? " %8s" : "%s";
        s.append(String.format(Locale.ROOT, "%-22s %-18s %-5s %9s %12s %12s %8s %12s" + time + " %-8s%n", "workload", "entry",
                "fit", "reserved/", "peak", "peak", "driver", "driver cost", hostTime ? "host ns" : "", "run"));
        s.append(String.format(Locale.ROOT, "%-22s %-18s %-5s %9s %12s %12s %8s %12s" + time + "%n", "", "", "",
                "requested", "reserved", "requested", "calls", "(simulated)", hostTime ? "/event" : ""));
        List<Contestant> ranked = ranked();
        for (int w = 0; w < workloads.size(); w++) {
            for (Contestant c : ranked) {
                if (unwritten.containsKey(c.name())) continue;
                Run r = runs.get(c.name()).get(w);
                String fit = r.broken() != null ? "BAD" : r.fit() ? "yes" : "OOM";
                s.append(String.format(Locale.ROOT, "%-22s %-18s %-5s %9.3f %12s %12s %8d %12s" + time + " %s%n",
                        r.workload(), c.name(), fit, r.overhead(),
                        Bytes.formatSize(r.peakReserved()), Bytes.formatSize(r.peakRequested()), r.driverCalls(),
                        CostModel.format(r.driverMicros()),
                        hostTime ? r.nanosPerEvent("-") : "", source(c.name(), w)));
            }
        }
        s.append("\nperformance index, best first (100 x mean of 0.6 U + 0.4 D; 0 on a broken check):\n");
        for (Contestant c : ranked) {
            if (unwritten.containsKey(c.name())) {
                s.append(String.format(Locale.ROOT, "  %-18s %6s  %s%n", c.name(), "-", unwritten.get(c.name()).getMessage()));
                continue;
            }
            s.append(String.format(Locale.ROOT, "  %-18s %6.1f%n", c.name(), index(c.name())));
            Broken b = firstBroken(c.name());
            if (b != null) s.append("    ").append(b.toString().replace("\n", "\n    ")).append('\n');
        }
        return s.toString();
    }
}
