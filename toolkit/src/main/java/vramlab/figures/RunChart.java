package vramlab.figures;

import java.util.ArrayList;
import java.util.List;

import vramlab.units.Bytes;

/**
 * Reserved and allocated over one run, one line pair per setting (reserved thick, allocated
 * thin, in the setting's series colour and dash), the card as a horizontal line, and each OOM as
 * a mark on its setting's line with the entry in its tooltip ("OOM at entry N").
 *
 * <p>Simplified: a long run is drawn from at most {@link #POINTS} buckets per line, each at the
 * highest value of its steps, so the peak is always on the drawing.
 */
public final class RunChart {
    /** One setting's run: the trace entry of each step and the bytes after it. */
    public record Series(String name, long[] entry, long[] reserved, long[] allocated, List<Integer> ooms) {}

    static final int POINTS = 1200;
    private static final int WIDTH = 900, HEIGHT = 420, LEFT = 80, TOP = 40, RIGHT = 20, PLOT_H = 290;

    private RunChart() {}

    /** The chart; {@code card} is the bytes the card offers, or -1 when unknown (no card line). */
    public static String svg(String title, List<Series> series, long card) {
        long first = Long.MAX_VALUE, last = Long.MIN_VALUE, max = Math.max(1, card);
        for (Series s : series) {
            for (int i = 0; i < s.entry().length; i++) {
                first = Math.min(first, s.entry()[i]);
                last = Math.max(last, s.entry()[i]);
                max = Math.max(max, s.reserved()[i]);
            }
        }
        if (first > last) { first = 0; last = 1; }
        if (last == first) last = first + 1;
        max = max + max / 20;
        Svg svg = new Svg(WIDTH, HEIGHT);
        svg.text(10, 22, title, "start", 15);
        double plotW = WIDTH - LEFT - RIGHT;
        double x0 = first;
        double xs = plotW / (last - first);
        double ys = (double) PLOT_H / max;
        svg.rect(LEFT, TOP, plotW, PLOT_H, Palette.FREE, null, null);
        for (int t = 0; t <= 4; t++) {
            long bytes = max * t / 4;
            double y = TOP + PLOT_H - bytes * ys;
            svg.line(LEFT - 5, y, LEFT, y, null);
            svg.text(LEFT - 8, y + 4, Bytes.formatSize(bytes), "end", 10);
        }
        if (card > 0) {
            double y = TOP + PLOT_H - card * ys;
            svg.rect(LEFT, y - 1, plotW, 2, Palette.ACCENT, null, "card: " + Bytes.formatSize(card));
            svg.text(LEFT + plotW - 4, y - 5, "card " + Bytes.formatSize(card), "end", 10);
        }
        List<Svg.Key> keys = new ArrayList<>();
        for (int k = 0; k < series.size(); k++) {
            Series s = series.get(k);
            svg.polyline(points(s.entry(), s.allocated(), x0, xs, ys), k, 1.0, s.name() + ": allocated");
            svg.polyline(points(s.entry(), s.reserved(), x0, xs, ys), k, 2.5, s.name() + ": reserved");
            for (int entry : s.ooms()) {
                double x = LEFT + (entry - x0) * xs;
                double y = TOP + PLOT_H - reservedAt(s, entry) * ys;
                svg.polygon(new double[] {x, x - 5, x + 5}, new double[] {y, y - 9, y - 9}, Palette.ACCENT,
                        s.name() + ": OOM at entry " + entry);
            }
            keys.add(new Svg.Key(Palette.series(k), s.name()));
        }
        svg.text(LEFT + plotW / 2, TOP + PLOT_H + 22, "trace entry (thick: reserved, thin: allocated;"
                + " triangles: OOMs)", "middle", 11);
        double below = svg.legend(LEFT, TOP + PLOT_H + 36, keys, 11);
        svg.height((int) Math.max(HEIGHT, below + 10));
        return svg.toString(title);
    }

    /** Reserved at the last step at or before {@code entry} (the steps come in entry order). */
    private static long reservedAt(Series s, long entry) {
        int lo = 0, hi = s.entry().length - 1, at = -1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (s.entry()[mid] <= entry) { at = mid; lo = mid + 1; } else hi = mid - 1;
        }
        return at < 0 ? 0 : s.reserved()[at];
    }

    /** At most {@link #POINTS} points, each bucket at its highest value (the peak survives). */
    static List<double[]> points(long[] entry, long[] bytes, double x0, double xs, double ys) {
        List<double[]> out = new ArrayList<>();
        int n = entry.length;
        int per = Math.max(1, (n + POINTS - 1) / POINTS);
        for (int i = 0; i < n; i += per) {
            long top = 0;
            int at = i;
            for (int j = i; j < Math.min(n, i + per); j++) {
                if (bytes[j] >= top) { top = bytes[j]; at = j; }
            }
            out.add(new double[] {LEFT + (entry[at] - x0) * xs, TOP + PLOT_H - top * ys});
        }
        return out;
    }
}
