package vramlab.figures;

import java.util.ArrayList;
import java.util.List;

import vramlab.alloc.Block;
import vramlab.alloc.CachingAllocator;
import vramlab.alloc.Segment;
import vramlab.units.Bytes;

/**
 * A segment map as SVG: one row per segment, in address order, in the course's {@link Palette}:
 * the segment outlined, a live block in the live colour over its requested bytes, the bytes
 * lost to rounding after it, free blocks in the free colour; a thin line marks every block's
 * edge, so a student can count blocks and holes.
 *
 * <p>Where this picture departs from PyTorch's memory visualizer, on purpose: MemoryViz.js
 * packs segments into rows by size and colours each block by a hash of its address; here each
 * segment has its own labelled row and every live block has the one live colour, so the legend
 * is true of every block.
 */
public final class SegmentMapFigure {
    /** A block as the figure needs it: where, how big, how much was asked for, live or free. */
    public record BlockView(long offset, long size, long requested, boolean live) {
        public BlockView {
            if (size <= 0 || offset < 0) throw new IllegalArgumentException("bad block " + offset + "+" + size);
            if (live && (requested <= 0 || requested > size)) {
                throw new IllegalArgumentException("live block needs 0 < requested <= size, was " + requested);
            }
        }
    }

    /** A segment and the blocks that tile it, in address order. */
    public record SegmentView(String label, long address, long size, List<BlockView> blocks) {
        public SegmentView {
            blocks = List.copyOf(blocks);
            long at = 0;
            for (BlockView b : blocks) {
                if (b.offset() != at) throw new IllegalArgumentException(label + ": blocks do not tile at " + at);
                at += b.size();
            }
            if (at != size) throw new IllegalArgumentException(label + ": blocks cover " + at + " of " + size);
        }
    }

    /** One picture in a sequence: a caption and the segments at that moment. */
    public record Step(String caption, List<SegmentView> segments) {
        public Step { segments = List.copyOf(segments); }
    }

    private static final int WIDTH = 760;
    private static final int LABEL = 170;
    private static final int ROW = 34;
    private static final int BAR = 22;

    private SegmentMapFigure() {}

    /** Copies the allocator's segments now; later allocs and frees do not change the copy. */
    public static List<SegmentView> snapshot(CachingAllocator a) {
        List<SegmentView> out = new ArrayList<>();
        for (Segment s : a.segments()) {
            List<BlockView> blocks = new ArrayList<>();
            for (Block b : s.blocks()) {
                blocks.add(new BlockView(b.offset(), b.size(), b.isAllocated() ? b.requested() : 0, b.isAllocated()));
            }
            String label = "segment " + s.id() + " (" + s.pool().name().toLowerCase() + ", " + size(s.size()) + ")";
            out.add(new SegmentView(label, s.address(), s.size(), blocks));
        }
        return out;
    }

    /** The segments of one moment. */
    public static String svg(String title, List<SegmentView> segments) {
        return steps(title, List.of(new Step("", segments)));
    }

    /** Several moments, one under the other, on one scale (the largest segment spans the bar). */
    public static String steps(String title, List<Step> steps) {
        long max = 1;
        int rows = 0;
        for (Step st : steps) {
            rows += Math.max(1, st.segments().size()) + (st.caption().isEmpty() ? 0 : 1);
            for (SegmentView s : st.segments()) max = Math.max(max, s.size());
        }
        Svg svg = new Svg(WIDTH, 40 + rows * ROW + 50);
        svg.text(10, 22, title, "start", 15);
        double y = 40;
        double scale = (WIDTH - LABEL - 20) / (double) max;
        for (Step st : steps) {
            if (!st.caption().isEmpty()) {
                svg.text(10, y + 20, st.caption(), "start", 13);
                y += ROW;
            }
            if (st.segments().isEmpty()) {
                svg.text(LABEL, y + 16, "(no segments)", "start", 12);
                y += ROW;
            }
            for (SegmentView s : st.segments()) {
                drawSegment(svg, s, y, scale);
                y += ROW;
            }
        }
        legend(svg, y + 14);
        return svg.toString(title);
    }

    private static void drawSegment(Svg svg, SegmentView s, double y, double scale) {
        svg.text(10, y + 16, s.label(), "start", 12);
        svg.rect(LABEL, y, s.size() * scale, BAR, Palette.FREE, null, s.label());
        for (BlockView b : s.blocks()) {
            double x = LABEL + b.offset() * scale;
            if (b.live()) {
                String tip = size(b.requested()) + " requested in a " + size(b.size()) + " block";
                svg.rect(x, y, b.requested() * scale, BAR, Palette.LIVE, null, tip);
                if (b.size() > b.requested()) {
                    svg.rect(x + b.requested() * scale, y, (b.size() - b.requested()) * scale, BAR,
                            Palette.ROUNDING, null, "lost to rounding: " + size(b.size() - b.requested()));
                }
            }
            if (b.offset() > 0) svg.line(x, y + 1, x, y + BAR - 1, b.live() ? Palette.GAP : ".faint");
            String label = size(b.size()) + (b.live() ? "" : " free");
            if (TextMetrics.width(label, 11) + 6 <= b.size() * scale) {
                svg.text(x + b.size() * scale / 2, y + 15, label, "middle", 11, b.live() ? ".on-colour" : ".ink", false);
            }
        }
    }

    private static void legend(Svg svg, double y) {
        svg.legend(10, y, List.of(new Svg.Key(Palette.LIVE, "live block (requested bytes)"),
                new Svg.Key(Palette.ROUNDING, "lost to rounding"), new Svg.Key(Palette.FREE, "free (cached)")), 12);
    }

    static String size(long bytes) {
        return bytes % Bytes.MiB == 0 ? Bytes.toyM(bytes) : Bytes.formatSize(bytes);
    }
}
