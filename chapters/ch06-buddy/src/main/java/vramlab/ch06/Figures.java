package vramlab.ch06;

import static vramlab.units.Bytes.gib;
import static vramlab.units.Bytes.mib;

import java.util.List;
import java.util.Locale;

import vramlab.buddy.BuddyAllocator;
import vramlab.driver.Gpu;

/**
 * The notes' figures as SVG strings, drawn from the simulators at build time (the site build
 * writes them to {@code figures/<name>.svg}).
 */
public final class Figures {
    private Figures() {}

    private static final String[] COLORS = {"#d62728", "#1f77b4", "#9467bd", "#2ca02c", "#ff7f0e", "#8c564b"};

    // tag::split-tree[]
    /** The split tree of the mechanics pool after three allocations: one row per order. */
    public static String figureSplitTree() {
        BuddyAllocator b = BuddyAllocator.upfront(new Gpu(gib(1)).openToyProcess(), mib(16), 20, 24);
        b.alloc(mib(3));
        b.alloc(mib(1));
        b.alloc(mib(2));
        return splitTree(b);
    }
    // end::split-tree[]

    /**
     * Any pool's split tree: a node (offset, order) is drawn when the block covering its first
     * byte is of that order or smaller; grey when it is split, green when free, red when live.
     */
    public static String splitTree(BuddyAllocator b) {
        int rows = b.maxOrder() - b.minOrder() + 1, w = 640, rowH = 34, top = 24;
        StringBuilder svg = header(w + 20, top + rows * rowH + 30);
        svg.append(text(10, 16, "buddy split tree: grey split, green free, red live (sizes in minimum blocks)", 12));
        List<BuddyAllocator.Span> spans = b.spans();
        for (int r = 0; r < rows; r++) {
            int order = b.maxOrder() - r;
            for (long off = 0; off < b.poolBytes(); off += 1L << order) {
                BuddyAllocator.Span cover = covering(spans, off);
                if (cover.order() > order) continue;
                String fill = cover.order() < order ? "#dddddd" : cover.free() ? "#b7e4b0" : "#f4a6a6";
                double x = 10 + (double) w * off / b.poolBytes(), bw = (double) w * (1L << order) / b.poolBytes();
                int y = top + r * rowH;
                svg.append(String.format(Locale.ROOT,
                        "<rect x='%.1f' y='%d' width='%.1f' height='%d' fill='%s' stroke='#333'/>%n",
                        x, y, bw, rowH - 8, fill));
                if (bw > 24) svg.append(text(x + bw / 2 - 6, y + 17, Long.toString((1L << order) >> b.minOrder()), 11));
            }
        }
        svg.append(text(10, top + rows * rowH + 14, "buddyinfo: " + b.buddyinfo().trim(), 11));
        return svg.append("</svg>\n").toString();
    }

    private static BuddyAllocator.Span covering(List<BuddyAllocator.Span> spans, long off) {
        for (BuddyAllocator.Span s : spans) if (s.offset() <= off && off < s.offset() + s.size()) return s;
        throw new IllegalStateException("no block covers offset " + off);
    }

    // tag::largest-servable[]
    /** The largest servable sequence over time for each contender of the standard comparison. */
    public static String figureLargestServable() {
        Comparison c = Comparison.standard(1);
        return largestServable(c.run(false), c.budget() / c.model().kvBytesPerToken());
    }
    // end::largest-servable[]

    /** A line per result: the longest sequence it could admit at each step, in tokens. */
    public static String largestServable(List<Result> results, long yMax) {
        int w = 640, h = 260, left = 60, top = 30;
        long xMax = results.stream().mapToLong(Result::steps).max().orElse(1);
        StringBuilder svg = header(w + left + 20, h + top + 50);
        svg.append(text(left, 18, "largest servable sequence (tokens) per decode step", 12));
        svg.append(String.format(Locale.ROOT, "<line x1='%d' y1='%d' x2='%d' y2='%d' stroke='#333'/>%n",
                left, top + h, left + w, top + h));
        svg.append(String.format(Locale.ROOT, "<line x1='%d' y1='%d' x2='%d' y2='%d' stroke='#333'/>%n",
                left, top, left, top + h));
        svg.append(text(4, top + 8, Long.toString(yMax), 10)).append(text(24, top + h, "0", 10));
        svg.append(text(left + w - 40, top + h + 14, xMax + " steps", 10));
        for (int i = 0; i < results.size(); i++) {
            Result r = results.get(i);
            StringBuilder pts = new StringBuilder();
            int stride = Math.max(1, r.samples().size() / 600);
            for (int k = 0; k < r.samples().size(); k += stride) {
                Serving.Sample s = r.samples().get(k);
                double x = left + (double) w * s.step() / xMax;
                double y = top + h - (double) h * Math.min(yMax, s.largestServableTokens()) / yMax;
                pts.append(String.format(Locale.ROOT, "%.1f,%.1f ", x, y));
            }
            String color = COLORS[i % COLORS.length];
            svg.append("<polyline fill='none' stroke-width='1.2' stroke='").append(color)
               .append("' points='").append(pts.toString().trim()).append("'/>\n");
            svg.append(String.format(Locale.ROOT, "<rect x='%d' y='%d' width='12' height='3' fill='%s'/>%n",
                    left + 10 + i * 150, top + h + 30, color));
            svg.append(text(left + 26 + i * 150, top + h + 35, r.name(), 11));
        }
        return svg.append("</svg>\n").toString();
    }

    private static StringBuilder header(int w, int h) {
        return new StringBuilder(String.format(Locale.ROOT,
                "<svg xmlns='http://www.w3.org/2000/svg' width='%d' height='%d' font-family='sans-serif'>%n"
                + "<rect width='100%%' height='100%%' fill='white'/>%n", w, h));
    }

    private static String text(double x, double y, String s, int size) {
        String esc = s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
        return String.format(Locale.ROOT, "<text x='%.1f' y='%.1f' font-size='%d'>%s</text>%n", x, y, size, esc);
    }

    /** Prints one figure's SVG: {@code Figures split-tree} or {@code Figures largest-servable}. */
    public static void main(String[] args) {
        System.out.print(args.length > 0 && args[0].equals("largest-servable")
                ? figureLargestServable() : figureSplitTree());
    }
}
