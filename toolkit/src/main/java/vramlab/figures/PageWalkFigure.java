package vramlab.figures;

import java.util.List;

/**
 * The page-table walk as SVG: the virtual address cut into its index fields (one per level,
 * top level first, then the page offset), and below it the chain of tables the walk visits,
 * each entry pointing at the next table, the last at the physical page.
 */
public final class PageWalkFigure {
    /**
     * One level of the walk: its name as the code names it ({@code PDE3} ... {@code PTE}), how
     * many address bits index it, the index taken from the address, and what the entry holds.
     */
    public record Level(String name, int bits, long index, String entry) {
        public Level {
            if (bits <= 0 || bits > 20) throw new IllegalArgumentException(name + ": bits " + bits);
            if (index < 0 || index >= 1L << bits) {
                throw new IllegalArgumentException(name + ": index " + index + " does not fit " + bits + " bits");
            }
        }
    }

    private static final int WIDTH = 780;
    private static final int LEFT = 20;

    private PageWalkFigure() {}

    /**
     * @param va         the virtual address walked
     * @param levels     top level first
     * @param offsetBits bits of the page offset (12 for 4 KiB pages, 16 for 64 KiB, 21 for 2 MiB)
     * @param result     what the walk ends in, e.g. {@code "frame 0x2a000 (local vidmem)"}
     */
    public static String svg(String title, long va, List<Level> levels, int offsetBits, String result) {
        if (levels.isEmpty()) throw new IllegalArgumentException("a walk has at least one level");
        int bits = offsetBits;
        for (Level l : levels) bits += l.bits();
        Svg svg = new Svg(WIDTH, 330);
        svg.text(LEFT, 22, title, "start", 15);
        svg.text(LEFT, 46, String.format("virtual address 0x%x (%d bits used)", va, bits), "start", 12);
        double perBit = (WIDTH - 2.0 * LEFT) / bits;
        double x = LEFT;
        double[] fieldMid = new double[levels.size()];
        for (int i = 0; i < levels.size(); i++) {
            Level l = levels.get(i);
            double w = l.bits() * perBit;
            svg.rect(x, 56, w, 34, Palette.STRUCTURE, ".line", l.name() + " index");
            svg.text(x + w / 2, 71, l.name(), "middle", 11);
            svg.text(x + w / 2, 85, "[" + l.index() + "]", "middle", 11);
            fieldMid[i] = x + w / 2;
            x += w;
        }
        double ow = offsetBits * perBit;
        svg.rect(x, 56, ow, 34, Palette.FREE, null, "page offset");
        svg.text(x + ow / 2, 78, "offset (" + offsetBits + " bits)", "middle", 11);
        double box = Math.min(120, (WIDTH - 2.0 * LEFT) / (levels.size() + 1) - 14);
        double gap = ((WIDTH - 2.0 * LEFT) - box * (levels.size() + 1)) / levels.size();
        for (int i = 0; i < levels.size(); i++) {
            Level l = levels.get(i);
            double bx = LEFT + i * (box + gap);
            svg.arrow(fieldMid[i], 90, bx + box / 2, 168, null);
            svg.rect(bx, 170, box, 96, Palette.FREE, null, l.name() + " table");
            svg.text(bx + box / 2, 186, l.name() + " table", "middle", 11);
            svg.rect(bx + 6, 208, box - 12, 22, Palette.STRUCTURE, ".line", l.entry());
            svg.text(bx + box / 2, 223, "entry " + l.index(), "middle", 11);
            svg.text(bx + box / 2, 254, l.entry(), "middle", 10);
            svg.arrow(bx + box - 6, 219, bx + box + gap, 219, null);
        }
        double rx = LEFT + levels.size() * (box + gap);
        svg.rect(rx, 196, box, 46, Palette.LIVE, null, result);
        svg.text(rx + box / 2, 223, "page", "middle", 11, ".on-colour", false);
        svg.text(WIDTH / 2.0, 300, "walk ends in: " + result, "middle", 12);
        return svg.toString(title);
    }
}
