package vramlab.ch06;

import static vramlab.units.Bytes.gib;
import static vramlab.units.Bytes.mib;

import java.util.ArrayList;
import java.util.List;

import vramlab.buddy.BuddyAllocator;
import vramlab.driver.Gpu;
import vramlab.figures.Palette;
import vramlab.figures.Svg;
import vramlab.figures.TextMetrics;
import vramlab.kv.KvBlockPool;
import vramlab.kv.KvCacheManager;
import vramlab.units.Bytes;

/**
 * The notes' figures as SVG strings, drawn from the simulators at build time (the site build
 * writes them to {@code figures/<name>.svg}).
 */
public final class Ch06Figures {
    private Ch06Figures() {}

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
     * byte is of that order or smaller; structure when it is split, free when free, live when
     * live (the course's palette). Each node carries a tooltip; the legend's swatches do not.
     */
    public static String splitTree(BuddyAllocator b) {
        int rows = b.maxOrder() - b.minOrder() + 1, w = 640, rowH = 34, top = 30;
        String buddyinfo = "buddyinfo: " + b.buddyinfo().trim().replaceAll("\\s+", " ");
        int width = (int) Math.ceil(Math.max(w + 20, 20 + TextMetrics.width(buddyinfo, 11)));
        Svg svg = new Svg(width, top + rows * rowH + 56);
        String title = "Buddy split tree, one row per order (sizes in minimum blocks)";
        svg.text(10, 18, title, "start", 12);
        List<BuddyAllocator.Span> spans = b.spans();
        for (int r = 0; r < rows; r++) {
            int order = b.maxOrder() - r;
            for (long off = 0; off < b.poolBytes(); off += 1L << order) {
                BuddyAllocator.Span cover = covering(spans, off);
                if (cover.order() > order) continue;
                String role = cover.order() < order ? Palette.STRUCTURE : cover.free() ? Palette.FREE : Palette.LIVE;
                double x = 10 + (double) w * off / b.poolBytes(), bw = (double) w * (1L << order) / b.poolBytes();
                int y = top + r * rowH;
                String state = cover.order() < order ? "split" : cover.free() ? "free" : "live";
                svg.rect(x, y, bw, rowH - 8, role, role.equals(Palette.FREE) ? null : ".line",
                        state + " order " + order + " at +" + Bytes.readable(off));
                String n = Long.toString((1L << order) >> b.minOrder());
                String ink = role.equals(Palette.LIVE) ? ".on-colour" : ".ink";
                if (TextMetrics.width(n, 11) + 6 <= bw) svg.text(x + bw / 2, y + 17, n, "middle", 11, ink, false);
            }
        }
        int y = top + rows * rowH;
        svg.text(10, y + 10, buddyinfo, "start", 11, ".muted", false);
        svg.legend(10, y + 20, List.of(new Svg.Key(Palette.STRUCTURE, "split"), new Svg.Key(Palette.FREE, "free"),
                new Svg.Key(Palette.LIVE, "live")), 12);
        return svg.toString(title);
    }

    private static BuddyAllocator.Span covering(List<BuddyAllocator.Span> spans, long off) {
        for (BuddyAllocator.Span s : spans) if (s.offset() <= off && off < s.offset() + s.size()) return s;
        throw new IllegalStateException("no block covers offset " + off);
    }

    // tag::largest-servable[]
    /** The largest servable sequence over time for each contender of the standard comparison. */
    public static String figureLargestServable() {
        Comparison c = Comparison.standard(1);
        return largestServable(standardResults(), c.budget() / c.model().kvBytesPerToken());
    }
    // end::largest-servable[]

    /** The standard comparison's results: the serving runs take seconds, so both charts share one run. */
    static synchronized List<Result> standardResults() {
        if (standard == null) standard = List.copyOf(Comparison.standard(1).run(false));
        return standard;
    }

    private static List<Result> standard;

    /** The comparison as a chart: internal waste and external fragmentation per contender. */
    public static String figureComparison() {
        return comparison(standardResults());
    }

    /** Two bars per result, internal waste and external fragmentation, in percent, one scale. */
    public static String comparison(List<Result> results) {
        int left = 250, barW = 420, rowH = 44, top = 44;
        Svg svg = new Svg(left + barW + 130, top + rowH * results.size() + 50);
        String title = "The standard workload: what each allocator wastes inside blocks, and leaves unusable between them";
        svg.text(10, 22, title, "start", 12, ".ink", true);
        double max = 0.05;
        for (Result r : results) max = Math.max(max, Math.max(r.internalWaste(), r.externalFragmentation()));
        int y = top;
        for (Result r : results) {
            svg.text(10, y + 16, r.name(), "start", 11, ".ink", true);
            double wi = barW * r.internalWaste() / max, we = barW * r.externalFragmentation() / max;
            svg.rect(left, y, Math.max(1, wi), 14, Palette.ROUNDING, null, "internal waste " + pct(r.internalWaste()));
            svg.text(left + Math.max(1, wi) + 6, y + 12, pct(r.internalWaste()), "start", 10);
            svg.rect(left, y + 17, Math.max(1, we), 14, Palette.OTHER, null,
                    "external fragmentation " + pct(r.externalFragmentation()));
            svg.text(left + Math.max(1, we) + 6, y + 29, pct(r.externalFragmentation()), "start", 10);
            y += rowH;
        }
        svg.legend(10, y + 4, List.of(new Svg.Key(Palette.ROUNDING, "internal waste (handed out, not asked for)"),
                new Svg.Key(Palette.OTHER, "external fragmentation (free, but in pieces too small)")), 11);
        return svg.toString(title);
    }

    private static String pct(double f) { return String.format(java.util.Locale.ROOT, "%.1f%%", 100 * f); }

    /**
     * A line per result: the longest sequence it could admit at each step, in tokens. Each
     * contender has its own colour and dash, so lines that coincide both show; contenders whose
     * lines are identical share one legend entry that names them all.
     */
    public static String largestServable(List<Result> results, long yMax) {
        int w = 640, h = 260, left = 70, top = 34;
        long xMax = results.stream().mapToLong(Result::steps).max().orElse(1);
        Svg svg = new Svg(w + left + 30, h + top + 60);
        String title = "Largest servable sequence (tokens) per decode step";
        svg.text(left, 20, title, "start", 12);
        svg.line(left, top + h, left + w, top + h, null);
        svg.line(left, top, left, top + h, null);
        svg.text(left - 6, top + 8, Long.toString(yMax), "end", 10);
        svg.text(left - 6, top + h, "0", "end", 10);
        svg.text(left + w, top + h + 16, xMax + " steps", "end", 10);
        List<List<double[]>> lines = new ArrayList<>();
        for (Result r : results) {
            List<double[]> pts = new ArrayList<>();
            int stride = Math.max(1, r.samples().size() / 600);
            for (int k = 0; k < r.samples().size(); k += stride) {
                Serving.Sample s = r.samples().get(k);
                pts.add(new double[] {left + (double) w * s.step() / xMax,
                    top + h - (double) h * Math.min(yMax, s.largestServableTokens()) / yMax});
            }
            lines.add(pts);
        }
        List<Svg.Key> keys = new ArrayList<>();
        for (int i = 0; i < results.size(); i++) {
            svg.polyline(lines.get(i), i, i == 0 ? 2.6 : 1.6, results.get(i).name());
            StringBuilder label = new StringBuilder(results.get(i).name());
            boolean shown = false;
            for (int j = 0; j < i; j++) shown |= same(lines.get(j), lines.get(i));
            if (shown) continue;
            for (int j = i + 1; j < results.size(); j++) {
                if (same(lines.get(i), lines.get(j))) label.append(" = ").append(results.get(j).name());
            }
            keys.add(new Svg.Key(Palette.series(i), label.toString()));
        }
        double below = svg.legend(left, top + h + 26, keys, 11);
        svg.height((int) Math.ceil(below + 6));
        return svg.toString(title);
    }

    private static boolean same(List<double[]> a, List<double[]> b) {
        if (a.size() != b.size()) return false;
        for (int i = 0; i < a.size(); i++) {
            if (Math.abs(a.get(i)[0] - b.get(i)[0]) > 0.05 || Math.abs(a.get(i)[1] - b.get(i)[1]) > 0.05) return false;
        }
        return true;
    }

    /**
     * The checkerboard of "Free neighbours merge": the sixteen 1 MiB blocks of
     * {@link Ch06Outputs#outputNeighboursNotBuddies}, live or free as the pool's spans say, with
     * the buddy pairs bracketed below and the freed neighbour pairs above. Every free block's
     * buddy is live, so half the pool is free and no 2 MiB block exists.
     */
    public static String figureCheckerboard() {
        BuddyAllocator b = Ch06Outputs.neighboursNotBuddies();
        long unit = 1L << b.minOrder();
        int cells = (int) (b.poolBytes() / unit), cellW = 44, left = 14, top = 58, cellH = 34;
        String title = "Free neighbours that are not buddies: half the pool free, no 2 MiB block";
        Svg svg = new Svg(left * 2 + cells * cellW, top + cellH + 110);
        svg.text(left, 18, title, "start", 12, ".ink", true);
        for (BuddyAllocator.Span s : b.spans()) {
            for (long off = s.offset(); off < s.offset() + s.size(); off += unit) {
                int i = (int) (off / unit);
                double x = left + i * cellW;
                svg.rect(x, top, cellW - 2, cellH, s.free() ? Palette.FREE : Palette.LIVE, s.free() ? null : ".line",
                        (s.free() ? "free" : "live") + " block " + i + ", order " + s.order() + " at +" + Bytes.readable(off));
                svg.text(x + (cellW - 2) / 2.0, top + 21, Integer.toString(i), "middle", 11,
                        s.free() ? ".ink" : ".on-colour", false);
            }
        }
        // above: each pair of adjacent free blocks that are not buddies
        for (int i = 0; i + 1 < cells; i++) {
            if (!freeAt(b, i * unit) || !freeAt(b, (i + 1) * unit)
                    || BuddyAllocator.buddyOf(i * unit, b.minOrder()) == (i + 1) * unit) continue;
            double x1 = left + i * cellW + 4, x2 = left + (i + 2) * cellW - 6;
            svg.line(x1, top - 6, x2, top - 6, ".faint");
            svg.line(x1, top - 6, x1, top - 2, ".faint");
            svg.line(x2, top - 6, x2, top - 2, ".faint");
            svg.text((x1 + x2) / 2, top - 10, "free pair", "middle", 9, ".muted", false);
        }
        // below: each block's buddy, one XOR away
        int by = top + cellH + 6;
        for (int i = 0; i < cells; i += 2) {
            long buddy = BuddyAllocator.buddyOf(i * unit, b.minOrder());
            int j = (int) (buddy / unit);
            double x1 = left + Math.min(i, j) * cellW + 4, x2 = left + (Math.max(i, j) + 1) * cellW - 6;
            svg.line(x1, by + 4, x2, by + 4, ".line");
            svg.line(x1, by, x1, by + 4, ".line");
            svg.line(x2, by, x2, by + 4, ".line");
            svg.text((x1 + x2) / 2, by + 17, "buddies", "middle", 9, ".muted", false);
        }
        int ty = by + 40;
        svg.text(left, ty, "free " + Bytes.readable(b.freeBytes()) + ", largest free block "
                + Bytes.readable(b.largestFreeBlock()) + ": alloc(2 MiB) " + (b.fits(mib(2)) ? "fits" : "is refused")
                + "; unusable free space index for order 21: " + b.unusableIndex(21) + "/1000", "start", 11);
        svg.text(left, ty + 16, "buddyinfo: " + b.buddyinfo().trim().replaceAll("\\s+", " "), "start", 11, ".muted", false);
        svg.legend(left, ty + 26, List.of(new Svg.Key(Palette.LIVE, "live 1 MiB block"),
                new Svg.Key(Palette.FREE, "free 1 MiB block")), 11);
        return svg.toString(title);
    }

    private static boolean freeAt(BuddyAllocator b, long offset) {
        return covering(b.spans(), offset).free();
    }

    /** The run the block-table figure draws: a paged pool of 12 blocks, four requests, one freed. */
    static KvCacheManager blockTableRun() {
        KvCacheManager m = Ch06Outputs.paged(12);
        m.allocateSlots("a", 40);
        m.allocateSlots("b", 30);
        m.allocateSlots("c", 20);
        m.free("b");
        m.allocateSlots("d", 50);
        m.allocateSlots("a", 20);
        m.checkInvariants();
        return m;
    }

    /** The requests the block-table figure shows, in order, each with its own colour. */
    static final List<String> TABLE_REQUESTS = List.of("a", "c", "d");
    private static final List<String> OWNER_ROLES = List.of(Palette.LIVE, Palette.WORK, Palette.OTHER);

    /**
     * Block tables: each request's logical blocks, in order, point at physical blocks anywhere
     * in the pool (vLLM's block table); the pool row below shows whose each physical block is.
     * {@link #blockTableRun} frees b before d arrives, so d takes b's blocks and new ones, and
     * a's fourth block lands after them.
     */
    public static String figureBlockTable() {
        KvCacheManager m = blockTableRun();
        int n = m.pool().numBlocks(), cellW = 46, cellH = 26, labelW = 170, left = 14;
        int top = 40, rowGap = 36, poolY = top + TABLE_REQUESTS.size() * rowGap + 70;
        String title = "Block tables: a request's blocks in logical order, anywhere in the pool";
        int width = Math.max(left * 2 + labelW + n * cellW, (int) Math.ceil(20 + TextMetrics.width(title, 12, true)));
        Svg svg = new Svg(width, poolY + cellH + 90);
        svg.text(left, 20, title, "start", 12, ".ink", true);
        int[] owner = new int[n];
        java.util.Arrays.fill(owner, -1);
        int y = top;
        for (int r = 0; r < TABLE_REQUESTS.size(); r++) {
            String req = TABLE_REQUESTS.get(r);
            List<Integer> table = m.blocks(req);
            svg.text(left, y + 17, "request " + req + " (" + m.tokens(req) + " tokens)", "start", 11, ".ink", true);
            for (int k = 0; k < table.size(); k++) {
                int phys = table.get(k);
                owner[phys] = r;
                double x = left + labelW + k * cellW;
                svg.rect(x, y, cellW - 4, cellH, OWNER_ROLES.get(r), ".line",
                        "request " + req + ", logical block " + k + " is physical block " + phys);
                svg.text(x + (cellW - 4) / 2.0, y + 17, Integer.toString(phys), "middle", 11, ".on-colour", false);
                double px = left + labelW + phys * cellW + (cellW - 4) / 2.0;
                svg.line(x + (cellW - 4) / 2.0, y + cellH, px, poolY - 2, ".faint");
            }
            y += rowGap;
        }
        svg.text(left, poolY + 17, "the pool (physical)", "start", 11, ".ink", true);
        for (int p = 0; p < n; p++) {
            double x = left + labelW + p * cellW;
            String role = p == KvBlockPool.NULL_BLOCK ? Palette.STRUCTURE : owner[p] < 0 ? Palette.FREE
                    : OWNER_ROLES.get(owner[p]);
            String who = p == KvBlockPool.NULL_BLOCK ? "the null block" : owner[p] < 0 ? "free"
                    : "request " + TABLE_REQUESTS.get(owner[p]);
            svg.rect(x, poolY, cellW - 4, cellH, role, ".line", "physical block " + p + ": " + who);
            boolean dark = owner[p] >= 0 && p != KvBlockPool.NULL_BLOCK;
            svg.text(x + (cellW - 4) / 2.0, poolY + 17, Integer.toString(p), "middle", 11,
                    dark ? ".on-colour" : ".ink", false);
        }
        int ty = poolY + cellH + 20;
        svg.text(left, ty, "b (30 tokens) was freed before d (50 tokens) came: d took b's blocks and more; a grew by 20 tokens last.",
                "start", 11, ".muted", false);
        List<Svg.Key> keys = new ArrayList<>();
        for (int r = 0; r < TABLE_REQUESTS.size(); r++) {
            keys.add(new Svg.Key(OWNER_ROLES.get(r), "request " + TABLE_REQUESTS.get(r)));
        }
        keys.add(new Svg.Key(Palette.STRUCTURE, "block 0, the null block"));
        keys.add(new Svg.Key(Palette.FREE, "free"));
        svg.legend(left, ty + 12, keys, 11);
        return svg.toString(title);
    }

    /** Prints one figure's SVG: {@code Ch06Figures split-tree} or {@code Ch06Figures largest-servable}. */
    public static void main(String[] args) {
        System.out.print(args.length > 0 && args[0].equals("largest-servable")
                ? figureLargestServable() : figureSplitTree());
    }
}
