package vramlab.figures;

import java.util.List;

import vramlab.units.Bytes;

/**
 * A buddy allocator's split tree as SVG, drawn as rows by order: the whole arena on top, each
 * row below halves the blocks of the row above. A split block is grey (its halves live on the
 * row below), a free block white, an allocated block in a Tableau10 colour by its offset.
 */
public final class BuddyTreeFigure {
    public enum State { SPLIT, FREE, ALLOCATED }

    /** One block of the tree: where it starts in the arena, its power-of-two size, its state. */
    public record Node(long offset, long size, State state) {
        public Node {
            if (!Bytes.isPowerOfTwo(size)) throw new IllegalArgumentException("size " + size + " is not a power of two");
            if (offset < 0 || offset % size != 0) {
                throw new IllegalArgumentException("offset " + offset + " is not aligned to its size " + size);
            }
        }
    }

    private static final int WIDTH = 760;
    private static final int ROW = 40;
    private static final int LEFT = 80;

    private BuddyTreeFigure() {}

    /** @param arena the root block's size; every node must lie inside it */
    public static String svg(String title, long arena, List<Node> nodes) {
        if (!Bytes.isPowerOfTwo(arena)) throw new IllegalArgumentException("arena " + arena + " is not a power of two");
        int depth = 0;
        for (Node n : nodes) {
            if (n.offset() + n.size() > arena) throw new IllegalArgumentException("node " + n + " outside arena");
            depth = Math.max(depth, level(arena, n.size()));
        }
        Svg svg = new Svg(WIDTH, 40 + (depth + 1) * ROW + 40);
        svg.text(10, 22, title, "start", 15);
        double scale = (WIDTH - LEFT - 20) / (double) arena;
        for (int d = 0; d <= depth; d++) {
            svg.text(10, 40 + d * ROW + 19, SegmentMapFigure.size(arena >> d), "start", 11);
        }
        for (Node n : nodes) {
            double x = LEFT + n.offset() * scale;
            double y = 40 + level(arena, n.size()) * ROW;
            double w = n.size() * scale;
            String fill = switch (n.state()) {
                case SPLIT -> "#d9d9d9";
                case FREE -> MemoryVizColors.FREE;
                case ALLOCATED -> MemoryVizColors.blockColor(n.offset());
            };
            svg.rect(x, y, w, ROW - 8, fill, "black", n.state().name().toLowerCase() + " "
                    + SegmentMapFigure.size(n.size()) + " at +" + SegmentMapFigure.size(n.offset()));
            if (w >= 40) svg.text(x + w / 2, y + 20, n.state().name().toLowerCase(), "middle", 11);
        }
        double ly = 40 + (depth + 1) * ROW + 10;
        svg.rect(10, ly, 16, 12, "#d9d9d9", "black", null).text(32, ly + 11, "split", "start", 12);
        svg.rect(110, ly, 16, 12, MemoryVizColors.FREE, "black", null).text(132, ly + 11, "free", "start", 12);
        svg.rect(210, ly, 16, 12, MemoryVizColors.TABLEAU10[0], "black", null)
           .text(232, ly + 11, "allocated", "start", 12);
        return svg.toString(title);
    }

    private static int level(long arena, long size) {
        return Long.numberOfTrailingZeros(arena) - Long.numberOfTrailingZeros(size);
    }
}
