package vramlab.ch01;

import static vramlab.units.Bytes.mib;

import java.util.List;

import vramlab.driver.Gpu;
import vramlab.driver.GpuProcess;
import vramlab.figures.Palette;
import vramlab.figures.Svg;
import vramlab.figures.TextMetrics;
import vramlab.gmmu.Access;
import vramlab.gmmu.PageSize;
import vramlab.gmmu.Pte;
import vramlab.gmmu.Tlb;
import vramlab.gmmu.Walk;
import vramlab.units.Bytes;

/** The chapter's figures, drawn from the simulator (the site build turns them into files). */
public final class Ch01Figures {
    private Ch01Figures() {}

    /** figures/page-walk.svg: the walk of the lab's second cudaMalloc, one box per level. */
    public static String figurePageWalk() {
        GpuProcess p = new Gpu(mib(40)).openToyProcess();
        p.cudaMalloc(mib(2));
        long ptr = p.cudaMalloc(mib(2));
        return walkSvg(p.walk(ptr + 0x40));
    }

    /** The 64 KiB page the second walk figure maps, at VA_BASE + 2 MiB + 192 KiB, frame 0x4_5670_0000. */
    static final long WALK64_VA = GpuProcess.VA_BASE + mib(2) + 0x30000, WALK64_FRAME = 0x4_5670_0000L;

    /** The walk {@link #figurePageWalk64k} draws: one 64 KiB page mapped, read at offset 0x1234 into it. */
    static Walk walk64k() {
        vramlab.gmmu.AddressSpace s = new vramlab.gmmu.AddressSpace(vramlab.gmmu.MmuFormat.VER2, new vramlab.gmmu.Tlb(64));
        s.map(WALK64_VA, Pte.local(PageSize.SIZE_64K, WALK64_FRAME, Access.READWRITE, 0));
        return s.walk(WALK64_VA + 0x1234);
    }

    /** figures/page-walk-64k.svg: the same walk for a 64 KiB page, one level deeper than a 2 MiB one. */
    public static String figurePageWalk64k() {
        return walkSvg(walk64k());
    }

    /** Any walk as an SVG: a column of level boxes, each with its index and the entry it read. */
    public static String walkSvg(Walk w) {
        int rowH = 46;
        String end = w.found() ? String.format("physical 0x%x", w.physical()) : w.fault().getMessage();
        double textW = TextMetrics.width(end, 13) + 40;
        for (Walk.Step s : w.steps()) textW = Math.max(textW, 135 + TextMetrics.width(s.entry(), 13) + 20);
        int width = (int) Math.ceil(Math.max(640, textW + 10));
        Svg svg = new Svg(width, 40 + rowH * (w.steps().size() + 1) + 36);
        String title = String.format("walk(0x%x)", w.va());
        svg.text(10, 22, title, "start", 14, ".ink", true);
        int y = 36;
        for (Walk.Step s : w.steps()) {
            svg.rect(10, y, 110, 34, Palette.STRUCTURE, ".line", s.level() + " table");
            svg.text(18, y + 22, s.level() + "[" + s.index() + "]", "start", 13);
            svg.text(135, y + 22, s.entry(), "start", 13);
            svg.line(65, y + 34, 65, y + rowH, null);
            y += rowH;
        }
        svg.rect(10, y, width - 20, 34, w.found() ? Palette.LIVE : Palette.ROUNDING, null, end);
        svg.text(18, y + 22, end, "start", 13, ".on-colour", false);
        svg.legend(10, y + 44, List.of(new Svg.Key(Palette.STRUCTURE, "page-table level: the index read, the entry"
                + " found"), new Svg.Key(Palette.LIVE, "the memory the walk ends in")), 11);
        return svg.toString(title);
    }

    /** One field of a VER2 PTE: its name and its bits, high to low (dev_mmu.h, NV_MMU_VER2_PTE_*). */
    record Field(String name, int high, int low) {
        long value(long bits) { return bits >>> low & ((1L << (high - low + 1)) - 1); }
    }

    /** The fields {@link Pte#bits()} writes; every other bit of the 64 stays 0. */
    static final List<Field> PTE_FIELDS = List.of(new Field("COMPTAGLINE", 53, 36), new Field("PEER", 35, 33),
            new Field("ADDRESS_VID", 32, 8), new Field("READ_ONLY", 6, 6), new Field("APERTURE", 2, 1),
            new Field("VALID", 0, 0));

    /** The example the figure encodes: a 2 MiB page of local memory at 0x123400000, read-write. */
    static Pte examplePte() {
        return Pte.local(PageSize.SIZE_2M, 0x1_2340_0000L, Access.READWRITE, 0);
    }

    /** figures/pte-bits.svg: the 64 bits of one PTE as the simulator encodes it, field by field. */
    public static String figurePteBits() {
        Pte pte = examplePte();
        long bits = pte.bits();
        int cell = 14, left = 20, top = 58;
        Svg svg = new Svg(left * 2 + 64 * cell, top + 150);
        String title = String.format("One VER2 PTE: %s = 0x%016x", pte, bits);
        svg.text(10, 22, title, "start", 13, ".ink", true);
        svg.text(left, 44, "bit 63", "start", 10, ".muted", false);
        svg.text(left + 64 * cell, 44, "bit 0", "end", 10, ".muted", false);
        for (int b = 63; b >= 0; b--) {
            double x = left + (63 - b) * cell;
            boolean inField = false;
            for (Field f : PTE_FIELDS) inField |= b <= f.high() && b >= f.low();
            long v = bits >>> b & 1;
            svg.rect(x, top, cell, 22, inField ? (v == 1 ? Palette.ACCENT : Palette.FREE) : Palette.STRUCTURE, ".line",
                    "bit " + b + " = " + v);
            svg.text(x + cell / 2.0, top + 15, Long.toString(v), "middle", 10, ".ink", false);
        }
        int row = 0;
        for (Field f : PTE_FIELDS) {
            double x1 = left + (63 - f.high()) * cell, x2 = left + (64 - f.low()) * cell;
            double y = top + 30 + (row % 2) * 40;
            svg.line(x1 + 1, y, x2 - 1, y, ".line");
            svg.line(x1 + 1, y - 4, x1 + 1, y, ".line");
            svg.line(x2 - 1, y - 4, x2 - 1, y, ".line");
            String label = f.name() + " " + f.high() + (f.high() == f.low() ? "" : ":" + f.low());
            String value = "= 0x" + Long.toHexString(f.value(bits));
            double cx = (x1 + x2) / 2;
            String anchor = cx < 80 ? "start" : cx > left + 64 * cell - 80 ? "end" : "middle";
            double tx = anchor.equals("start") ? x1 : anchor.equals("end") ? x2 : cx;
            svg.text(tx, y + 14, label, anchor, 10, ".ink", true);
            svg.text(tx, y + 27, value, anchor, 10);
            row++;
        }
        svg.legend(left, top + 116, List.of(new Svg.Key(Palette.ACCENT, "a 1 bit"), new Svg.Key(Palette.FREE, "a 0 bit"),
                new Svg.Key(Palette.STRUCTURE, "fields the kit leaves 0 (VOL, PRIVILEGE, KIND ...)")), 11);
        return svg.toString(title);
    }

    /** figures/tlb-reach.svg: what 64 TLB entries cover, and the walks a 16 MiB sweep pays, per page size. */
    public static String figureTlbReach() {
        List<PageSize> sizes = List.of(PageSize.SIZE_4K, PageSize.SIZE_64K, PageSize.SIZE_2M);
        int left = 150, barW = 560, rowH = 54, top = 44;
        Svg svg = new Svg(left + barW + 190, top + rowH * sizes.size() + 50);
        String title = "TLB reach: 64 entries in front of 16 MiB, read once in 4 KiB steps";
        svg.text(10, 22, title, "start", 13, ".ink", true);
        int y = top;
        for (PageSize size : sizes) {
            Tlb tlb = Ch01Outputs.sweep(size);
            long reach = 64 * size.bytes();
            double covered = Math.min(1.0, reach / (double) mib(16));
            svg.text(10, y + 15, size + " pages", "start", 12, ".ink", true);
            svg.rect(left, y, barW, 18, Palette.FREE, null, "16 MiB mapped");
            svg.rect(left, y, Math.max(2, barW * covered), 18, Palette.LIVE, null, "64 entries reach " + Bytes.readable(reach));
            svg.text(left + barW + 8, y + 14, "reach " + Bytes.readable(reach), "start", 11);
            long walks = tlb.misses(), reads = tlb.hits() + tlb.misses();
            svg.rect(left, y + 22, Math.max(2, barW * walks / (double) reads), 12, Palette.ROUNDING, null,
                    walks + " of " + reads + " reads walk the tables");
            svg.text(left + barW + 8, y + 33, walks + " walks / " + reads + " reads", "start", 11);
            y += rowH;
        }
        svg.legend(10, y + 4, List.of(new Svg.Key(Palette.LIVE, "what 64 entries cover, of the 16 MiB"),
                new Svg.Key(Palette.ROUNDING, "reads that miss and walk")), 11);
        return svg.toString(title);
    }
}
