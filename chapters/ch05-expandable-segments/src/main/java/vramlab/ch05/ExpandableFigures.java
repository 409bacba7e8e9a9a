package vramlab.ch05;

import static vramlab.units.Bytes.mib;

import java.util.Locale;

import vramlab.alloc.Block;
import vramlab.alloc.CachingAllocator;
import vramlab.alloc.Policy;
import vramlab.alloc.PyTorchPolicy;
import vramlab.alloc.Segment;
import vramlab.driver.Gpu;
import vramlab.units.Bytes;

/**
 * The chapter's figures, drawn from the simulator as SVG: one row per allocator, one bar per
 * segment, 6 px per MiB; live blocks dark, free light, unmapped address space dashed. The
 * site build writes them to {@code figures/}.
 */
public final class ExpandableFigures {
    private static final double PX_PER_MIB = 6;
    private static final int ROW = 46;

    private ExpandableFigures() {}

    /** {@code figures/ch05-three-allocators.svg}: the lab's workload, final state of each allocator. */
    public static String figureThreeAllocators() {
        var policies = ExpandableLab.policies();
        StringBuilder body = new StringBuilder();
        int y = 10;
        double width = 0;
        for (Policy p : policies) {
            CachingAllocator a = finalState(p);
            body.append(text(10, y + 14, ExpandableLab.label(p) + "  reserved " + Bytes.toyMiB(a.reserved())));
            double x = 10;
            for (Segment s : a.segments()) {
                x = segment(body, s, x, y + 20) + 12;
            }
            width = Math.max(width, x);
            y += ROW;
        }
        return "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + (int) Math.max(width, 320) + "\" height=\""
                + (y + 4) + "\" font-family=\"monospace\" font-size=\"12\">\n" + body + "</svg>\n";
    }

    /** {@code figures/ch05-pages.svg}: a 25 MiB block on two 20 MiB pages, the rest free. */
    public static String figurePages() {
        CachingAllocator a = new CachingAllocator(new Gpu(mib(64)).openToyProcess(),
                new PyTorchPolicy("expandable_segments:True"));
        a.alloc(mib(25));
        StringBuilder body = new StringBuilder(text(10, 14, "alloc(25 MiB): two 20 MiB pages mapped"));
        double end = segment(body, a.segments().iterator().next(), 10, 20);
        for (int page = 0; page <= 2; page++) {
            double x = 10 + page * 20 * PX_PER_MIB;
            body.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"18\" x2=\"%.1f\" y2=\"44\" stroke=\"#c00\"/>%n", x, x));
        }
        return "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + (int) (end + 10)
                + "\" height=\"52\" font-family=\"monospace\" font-size=\"12\">\n" + body + "</svg>\n";
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

    /** Draws a segment's blocks from {@code x}; an expandable one up to its last mapped page. */
    private static double segment(StringBuilder sb, Segment s, double x, int y) {
        long extent = s.size();
        if (s.isExpandable()) {
            extent = 0;
            for (Block b : s.blocks()) if (b.isMapped()) extent = b.offset() + b.size();
            extent = Math.max(extent, s.pages().pageSize());
        }
        for (Block b : s.blocks()) {
            if (b.offset() >= extent) break;
            double w = Math.min(b.size(), extent - b.offset()) / (double) mib(1) * PX_PER_MIB;
            double bx = x + b.offset() / (double) mib(1) * PX_PER_MIB;
            String style = b.isAllocated() ? "fill=\"#2f6db5\""
                    : !b.isMapped() ? "fill=\"none\" stroke-dasharray=\"3,2\"" : "fill=\"#cfe0f3\"";
            sb.append(String.format(Locale.ROOT,
                    "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"22\" %s stroke=\"#333\"/>%n", bx, y, w, style));
        }
        return x + extent / (double) mib(1) * PX_PER_MIB;
    }

    private static String text(int x, int y, String s) {
        return "<text x=\"" + x + "\" y=\"" + y + "\">" + s + "</text>\n";
    }
}
