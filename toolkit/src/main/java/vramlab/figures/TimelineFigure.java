package vramlab.figures;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import vramlab.units.Bytes;

/**
 * The active-memory timeline as PyTorch's visualizer draws it ({@code process_alloc_data} and
 * {@code MemoryPlot} in {@code torch/utils/viz/MemoryViz.js}, pytorch commit 00067369): live
 * allocations are stacked bottom-up in the order they were made; each takes one time step;
 * when one is freed, the allocations above it slide down over three time steps; allocation
 * number {@code i} is drawn in Tableau10 colour {@code i % 10} there; here every band is in the
 * course's live colour ({@link Palette#LIVE}), bands parted by a thin line, so the legend holds.
 *
 * <p>Simplified: MemoryViz.js summarises the smallest allocations into one band when there are
 * many; the figures here are small, so every allocation gets its own band.
 */
public final class TimelineFigure {
    /** One trace event: an alloc of {@code size} bytes under a handle, or a free of a handle. */
    public record Event(boolean alloc, String handle, long size) {
        public static Event alloc(String handle, long size) { return new Event(true, handle, size); }
        public static Event free(String handle) { return new Event(false, handle, 0); }
    }

    /** The band of one allocation: its corners over time (x = step, y = bytes below it). */
    record Band(int index, String handle, long size, List<Integer> steps, List<Long> offsets) {}

    private static final int WIDTH = 760;
    private static final int HEIGHT = 320;
    private static final int LEFT = 70;
    private static final int TOP = 36;
    private static final int BOTTOM = 60;

    private TimelineFigure() {}

    public static String svg(String title, List<Event> events) {
        List<Band> bands = stack(events);
        int steps = 1;
        long max = 1;
        for (Band b : bands) {
            steps = Math.max(steps, b.steps().get(b.steps().size() - 1));
            for (long o : b.offsets()) max = Math.max(max, o + b.size());
        }
        Svg svg = new Svg(WIDTH, HEIGHT);
        svg.text(10, 22, title, "start", 15);
        double plotW = WIDTH - LEFT - 20;
        double plotH = HEIGHT - TOP - BOTTOM;
        double xs = plotW / steps;
        double ys = plotH / max;
        svg.rect(LEFT, TOP, plotW, plotH, Palette.FREE, null, null);
        for (Band b : bands) {
            int n = b.steps().size();
            double[] px = new double[2 * n];
            double[] py = new double[2 * n];
            for (int i = 0; i < n; i++) {
                px[i] = LEFT + b.steps().get(i) * xs;
                py[i] = TOP + plotH - b.offsets().get(i) * ys;
                px[2 * n - 1 - i] = px[i];
                py[2 * n - 1 - i] = TOP + plotH - (b.offsets().get(i) + b.size()) * ys;
            }
            svg.polygon(px, py, Palette.LIVE, b.handle() + ": " + SegmentMapFigure.size(b.size()));
            for (int i = 0; i + 1 < n; i++) {
                svg.line(px[i], py[i], px[i + 1], py[i + 1], Palette.GAP);
            }
        }
        for (int t = 0; t <= 4; t++) {
            long bytes = max * t / 4;
            double y = TOP + plotH - bytes * ys;
            svg.line(LEFT - 5, y, LEFT, y, null);
            svg.text(LEFT - 8, y + 4, Bytes.formatSize(bytes), "end", 10);
        }
        svg.text(LEFT + plotW / 2, HEIGHT - 38, "time (one step per event; frees slide the stack down)",
                "middle", 11);
        svg.legend(LEFT, HEIGHT - 26, List.of(new Svg.Key(Palette.LIVE, "live tensor (one band each)")), 10);
        return svg.toString(title);
    }

    /** MemoryViz.js's stacking, on this figure's events. */
    static List<Band> stack(List<Event> events) {
        List<Band> all = new ArrayList<>();
        List<Band> current = new ArrayList<>();
        Map<String, Band> byHandle = new HashMap<>();
        int t = 0;
        long total = 0;
        for (Event e : events) {
            if (e.alloc()) {
                if (byHandle.containsKey(e.handle())) {
                    throw new IllegalArgumentException("alloc " + e.handle() + ": handle already live");
                }
                Band b = new Band(all.size(), e.handle(), e.size(), new ArrayList<>(List.of(t)),
                        new ArrayList<>(List.of(total)));
                all.add(b);
                current.add(b);
                byHandle.put(e.handle(), b);
                total += e.size();
                t += 1;
                continue;
            }
            Band gone = byHandle.remove(e.handle());
            if (gone == null) throw new IllegalArgumentException("free " + e.handle() + ": handle not live");
            t += 1;
            gone.steps().add(t);
            gone.offsets().add(last(gone.offsets()));
            int idx = current.indexOf(gone);
            current.remove(idx);
            if (idx < current.size()) {
                for (Band above : current.subList(idx, current.size())) {
                    above.steps().add(t);
                    above.offsets().add(last(above.offsets()));
                    above.steps().add(t + 3);
                    above.offsets().add(last(above.offsets()) - gone.size());
                }
                t += 3;
            }
            total -= gone.size();
        }
        for (Band b : current) {
            b.steps().add(t);
            b.offsets().add(last(b.offsets()));
        }
        return all;
    }

    private static long last(List<Long> l) { return l.get(l.size() - 1); }
}
