package vramlab.ch05;

import static vramlab.units.Bytes.mib;

import java.util.List;

import vramlab.alloc.Block;
import vramlab.alloc.CachingAllocator;
import vramlab.alloc.Policy;
import vramlab.alloc.PyTorchPolicy;
import vramlab.alloc.Segment;
import vramlab.driver.Gpu;
import vramlab.figures.Palette;
import vramlab.figures.Svg;
import vramlab.figures.TextMetrics;
import vramlab.units.Bytes;

/**
 * The chapter's figures, drawn from the simulator in the course's palette: one row per
 * allocator, one bar per segment, 6 px per MiB; live blocks live, free blocks free, address space
 * with no pages under it unmapped (dashed). The site build writes them to {@code figures/}.
 */
public final class Ch05Figures {
    private static final double PX_PER_MIB = 6;
    private static final int ROW = 50;

    private Ch05Figures() {}

    private static final List<Svg.Key> KEYS = List.of(new Svg.Key(Palette.LIVE, "live"),
            new Svg.Key(Palette.FREE, "free (mapped, cached)"), new Svg.Key(Palette.UNMAPPED, "reserved VA, no pages"));

    /** {@code figures/ch05-three-allocators.svg}: the lab's workload, final state of each allocator. */
    public static String figureThreeAllocators() {
        var policies = ExpandableLab.policies();
        double width = 320;
        for (Policy p : policies) {
            CachingAllocator a = finalState(p);
            double x = 10;
            for (Segment s : a.segments()) x += extent(s) / (double) mib(1) * PX_PER_MIB + 12;
            width = Math.max(width, Math.max(x, 10 + TextMetrics.width(label(p, a), 12)) + 10);
        }
        Svg svg = new Svg((int) Math.ceil(Math.max(width, 560)), 10 + policies.size() * ROW + 34);
        int y = 10;
        for (Policy p : policies) {
            CachingAllocator a = finalState(p);
            svg.text(10, y + 14, label(p, a), "start", 12);
            double x = 10;
            for (Segment s : a.segments()) x = segment(svg, s, x, y + 20) + 12;
            y += ROW;
        }
        svg.legend(10, y + 4, KEYS, 12);
        return svg.toString("One workload, three allocators: final state on a 64 MiB card");
    }

    private static String label(Policy p, CachingAllocator a) {
        return ExpandableLab.label(p) + "  reserved " + Bytes.toyMiB(a.reserved());
    }

    /** {@code figures/ch05-pages.svg}: a 25 MiB block on two 20 MiB pages, the rest free. */
    public static String figurePages() {
        CachingAllocator a = new CachingAllocator(new Gpu(mib(64)).openToyProcess(),
                new PyTorchPolicy("expandable_segments:True"));
        a.alloc(mib(25));
        Segment s = a.segments().iterator().next();
        double end = 10 + extent(s) / (double) mib(1) * PX_PER_MIB;
        Svg svg = new Svg((int) Math.max(end + 10, 520), 96);
        svg.text(10, 16, "alloc(25 MiB): two 20 MiB pages mapped", "start", 12);
        segment(svg, s, 10, 24);
        for (int page = 0; page <= 2; page++) {
            double x = 10 + page * 20 * PX_PER_MIB;
            svg.line(x, 20, x, 50, null);
        }
        svg.text(10, 64, "| page boundary", "start", 11, ".muted", false);
        svg.legend(10, 72, KEYS.subList(0, 2), 11);
        return svg.toString("A 25 MiB block over two 20 MiB pages");
    }

    /** The requests of {@link #figureGrowing}, made in order and never freed. */
    static final long[] GROWING = {mib(8), mib(14), mib(14)};

    /** The two allocators of {@link #figureGrowing} after the first {@code k} requests: classic, then expandable. */
    static List<CachingAllocator> growingAfter(int k) {
        List<CachingAllocator> out = new java.util.ArrayList<>();
        for (String conf : new String[] {"", "expandable_segments:True"}) {
            CachingAllocator a = new CachingAllocator(new Gpu(ExpandableLab.DEVICE).openToyProcess(),
                    conf.isEmpty() ? new PyTorchPolicy() : new PyTorchPolicy(conf));
            for (int i = 0; i < k; i++) a.alloc(GROWING[i]);
            out.add(a);
        }
        return out;
    }

    /**
     * One segment growing in its reserved address range against classic segments: after each
     * request of {@link #GROWING}, PyTorch's default allocator (each segment its own cudaMalloc,
     * a block never crosses from one to the next) and the expandable segment (one reserved VA
     * range, 20 MiB pages mapped as blocks need them, a block may straddle two pages).
     */
    public static String figureGrowing() {
        String[] names = {"classic segments", "expandable segment"};
        int left = 10, top = 30, rowH = 46, stepGap = 14;
        double widest = 0;
        for (int k = 1; k <= GROWING.length; k++) {
            for (CachingAllocator a : growingAfter(k)) {
                double x = left;
                for (Segment seg : a.segments()) x += seg.size() / (double) mib(1) * PX_PER_MIB + 12;
                widest = Math.max(widest, x);
            }
        }
        String title = "Three requests, 8, 14 and 14 MiB: new segments, or one segment mapping pages as it grows";
        int width = (int) Math.ceil(Math.max(widest + 10, 20 + TextMetrics.width(title, 12, true)));
        Svg svg = new Svg(width, top + GROWING.length * (2 * rowH + stepGap) + 40);
        svg.text(left, 18, title, "start", 12, ".ink", true);
        int y = top;
        for (int k = 1; k <= GROWING.length; k++) {
            List<CachingAllocator> both = growingAfter(k);
            for (int i = 0; i < both.size(); i++) {
                CachingAllocator a = both.get(i);
                svg.text(left, y + 12, growingLabel(k, names[i], a), "start", 11, ".ink", i == 0);
                double x = left;
                for (Segment seg : a.segments()) {
                    wholeSegment(svg, seg, x, y + 18, names[i]);
                    x += seg.size() / (double) mib(1) * PX_PER_MIB + 12;
                }
                y += rowH;
            }
            y += stepGap;
        }
        double below = svg.legend(left, y, KEYS, 11);
        svg.text(left, below + 8, "faint vertical lines: the expandable segment's 20 MiB page boundaries", "start", 11,
                ".muted", false);
        svg.height((int) Math.ceil(below + 16));
        return svg.toString(title);
    }

    /** One row of {@link #figureShrinking}: what was done, and the segment after it. */
    record ShrinkStep(String caption, CachingAllocator allocator, long released) {}

    /**
     * {@link #GROWING}'s three blocks under expandable segments, then: free the middle one and
     * empty the cache, free the last one and empty it again. Each step is a fresh allocator
     * replayed to that point, so every row is the simulator's state at that moment.
     */
    static List<ShrinkStep> shrinkingRun() {
        List<ShrinkStep> out = new java.util.ArrayList<>();
        for (int step = 0; step < 3; step++) {
            CachingAllocator a = new CachingAllocator(new Gpu(ExpandableLab.DEVICE).openToyProcess(),
                    new PyTorchPolicy("expandable_segments:True"));
            List<Block> live = new java.util.ArrayList<>();
            for (long n : GROWING) live.add(a.alloc(n));
            long released = 0;
            String caption = "8, 14 and 14 MiB live";
            if (step >= 1) {
                a.free(live.get(1));
                released = a.emptyCache();
                caption = "free the first 14 MiB block, empty_cache()";
            }
            if (step >= 2) {
                a.free(live.get(2));
                released = a.emptyCache();
                caption = "then free the second 14 MiB block, empty_cache()";
            }
            out.add(new ShrinkStep(caption, a, released));
        }
        return out;
    }

    static String shrinkLabel(ShrinkStep s) {
        return s.caption() + ": released " + Bytes.readable(s.released()) + ", reserved "
                + Bytes.readable(s.allocator().reserved());
    }

    /**
     * Shrinking an expandable segment: empty_cache unmaps only the pages that lie wholly inside a
     * free block. Freeing the block that straddles the page boundary unmaps nothing; freeing the
     * last block too leaves the second page wholly free, and it goes.
     */
    public static String figureShrinking() {
        List<ShrinkStep> steps = shrinkingRun();
        int left = 10, top = 30, rowH = 50;
        double widest = 0;
        for (ShrinkStep st : steps) {
            for (Segment seg : st.allocator().segments()) widest = Math.max(widest, left + seg.size() / (double) mib(1) * PX_PER_MIB);
            widest = Math.max(widest, left + TextMetrics.width(shrinkLabel(st), 11));
        }
        String title = "empty_cache() on an expandable segment unmaps only pages wholly inside free blocks";
        Svg svg = new Svg((int) Math.ceil(Math.max(widest + 10, 20 + TextMetrics.width(title, 12, true))),
                top + steps.size() * rowH + 60);
        svg.text(left, 18, title, "start", 12, ".ink", true);
        int y = top;
        for (ShrinkStep st : steps) {
            svg.text(left, y + 12, shrinkLabel(st), "start", 11);
            for (Segment seg : st.allocator().segments()) wholeSegment(svg, seg, left, y + 18, "expandable segment");
            y += rowH;
        }
        double below = svg.legend(left, y, KEYS, 11);
        svg.text(left, below + 8, "faint vertical lines: 20 MiB page boundaries", "start", 11, ".muted", false);
        svg.height((int) Math.ceil(below + 16));
        return svg.toString(title);
    }

    /** Every block of a segment from {@code x}, unmapped address space dashed, page boundaries faint. */
    private static void wholeSegment(Svg svg, Segment seg, double x, int y, String name) {
        for (Block b : seg.blocks()) {
            double bx = x + b.offset() / (double) mib(1) * PX_PER_MIB, w = b.size() / (double) mib(1) * PX_PER_MIB;
            String role = b.isAllocated() ? Palette.LIVE : !b.isMapped() ? Palette.UNMAPPED : Palette.FREE;
            svg.rect(bx, y, w, 20, role, role.equals(Palette.LIVE) ? ".line" : null,
                    name + ", segment " + seg.id() + ": " + Bytes.readable(b.size())
                    + (b.isAllocated() ? " live" : b.isMapped() ? " free" : " reserved VA, no pages"));
        }
        if (seg.isExpandable()) {
            for (int p = 1; p < seg.pages().pageCount(); p++) {
                double px = x + p * seg.pages().pageSize() / (double) mib(1) * PX_PER_MIB;
                svg.line(px, y - 3, px, y + 23, ".faint");
            }
        }
    }

    static String growingLabel(int k, String name, CachingAllocator a) {
        StringBuilder asked = new StringBuilder();
        for (int i = 0; i < k; i++) asked.append(i == 0 ? "" : ", ").append(Bytes.readable(GROWING[i]));
        return "after " + asked + ": " + name + ", " + a.segments().size() + " segment"
                + (a.segments().size() == 1 ? "" : "s") + ", reserved " + Bytes.readable(a.reserved());
    }

    static CachingAllocator finalState(Policy p) {
        CachingAllocator a = new CachingAllocator(new Gpu(ExpandableLab.DEVICE).openToyProcess(), p);
        Block act = a.alloc(mib(30));
        a.alloc(mib(3) / 2);
        a.free(act);
        try {
            a.alloc(mib(46));
        } catch (vramlab.alloc.CudaOutOfMemoryError e) {
            // the figure shows the state the OOM left
        }
        return a;
    }

    /** How much of a segment to draw: all of a fixed one; an expandable one up to its last mapped page. */
    private static long extent(Segment s) {
        if (!s.isExpandable()) return s.size();
        long extent = 0;
        for (Block b : s.blocks()) if (b.isMapped()) extent = b.offset() + b.size();
        return Math.max(extent, s.pages().pageSize());
    }

    /** Draws a segment's blocks from {@code x}; returns the x after it. */
    private static double segment(Svg svg, Segment s, double x, int y) {
        long extent = extent(s);
        for (Block b : s.blocks()) {
            if (b.offset() >= extent) break;
            double w = Math.min(b.size(), extent - b.offset()) / (double) mib(1) * PX_PER_MIB;
            double bx = x + b.offset() / (double) mib(1) * PX_PER_MIB;
            String role = b.isAllocated() ? Palette.LIVE : !b.isMapped() ? Palette.UNMAPPED : Palette.FREE;
            String tip = Bytes.readable(b.size()) + (b.isAllocated() ? " live" : b.isMapped() ? " free" : " unmapped");
            svg.rect(bx, y, w, 22, role, role.equals(Palette.LIVE) ? ".line" : null, tip);
        }
        return x + extent / (double) mib(1) * PX_PER_MIB;
    }
}
