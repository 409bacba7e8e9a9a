package vramlab.figures;

import java.util.List;

import vramlab.units.Bytes;

/**
 * A buddy allocator's split tree as SVG, drawn as rows by order: the whole arena on top, each
 * row below halves the blocks of the row above, in the course's {@link Palette}: a split block
 * is structure (its halves live on the row below), a free block free, an allocated block live.
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
                case SPLIT -> Palette.STRUCTURE;
                case FREE -> Palette.FREE;
                case ALLOCATED -> Palette.LIVE;
            };
            svg.rect(x, y, w, ROW - 8, fill, ".line", n.state().name().toLowerCase() + " "
                    + SegmentMapFigure.size(n.size()) + " at +" + SegmentMapFigure.size(n.offset()));
            String label = n.state().name().toLowerCase();
            if (TextMetrics.width(label, 11) + 6 <= w) {
                svg.text(x + w / 2, y + 20, label, "middle", 11, n.state() == State.ALLOCATED ? ".on-colour" : ".ink",
                        false);
            }
        }
        double ly = 40 + (depth + 1) * ROW + 10;
        svg.legend(10, ly, java.util.List.of(new Svg.Key(Palette.STRUCTURE, "split"),
                new Svg.Key(Palette.FREE, "free"), new Svg.Key(Palette.LIVE, "allocated")), 12);
        return svg.toString(title);
    }

    private static int level(long arena, long size) {
        return Long.numberOfTrailingZeros(arena) - Long.numberOfTrailingZeros(size);
    }
}
