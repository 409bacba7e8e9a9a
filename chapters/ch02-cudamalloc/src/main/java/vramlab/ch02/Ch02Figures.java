package vramlab.ch02;

import static vramlab.units.Bytes.gib;

import java.util.List;

import vramlab.driver.Gpu;
import vramlab.driver.GpuProcess;
import vramlab.figures.Palette;
import vramlab.figures.Svg;
import vramlab.units.Bytes;

/** The chapter's figures, drawn from the simulator (the site build turns them into files). */
public final class Ch02Figures {
    private Ch02Figures() {}

    /**
     * figures/rounding-tax.svg: for each size, the bytes asked for inside the page or pages that
     * hold them. The two small ones are slices of one shared page; the large ones own theirs.
     */
    public static String figureRoundingTax() {
        GpuProcess p = new Gpu(gib(1)).openToyProcess();
        long[] sizes = {64, Bytes.kib(512), Bytes.mib(2), Bytes.mib(3) + 1, Bytes.mib(5) + 1};
        double pxPerMiB = 60;
        int rowH = 34;
        int left = 120;
        Svg svg = new Svg(720, 40 + rowH * sizes.length + 40);
        String title = "Small cudaMallocs share a page; large ones map whole 2 MiB pages";
        svg.text(10, 22, title, "start", 14, ".ink", true);
        int y = 36;
        for (long size : sizes) {
            long ptr = p.cudaMalloc(size);
            boolean packed = p.isPacked(ptr);
            long held = packed ? Gpu.PAGE : p.allocationSize(ptr);           // the page(s) drawn
            double offset = packed ? (ptr % Gpu.PAGE) / (double) Bytes.MiB * pxPerMiB : 0;
            double wAsked = Math.max(1, size / (double) Bytes.MiB * pxPerMiB);
            svg.text(10, y + 17, Bytes.readable(size), "start", 12);
            for (long page = 0; page < held; page += Gpu.PAGE) {
                svg.rect(left + page / (double) Bytes.MiB * pxPerMiB, y, Gpu.PAGE / (double) Bytes.MiB * pxPerMiB,
                        24, packed ? Palette.FREE : Palette.ROUNDING, null,
                        packed ? "a shared page" : "mapped but not asked for");
            }
            svg.rect(left + offset, y, wAsked, 24, Palette.LIVE, null, Bytes.readable(size) + " asked for");
            for (long page = 0; page < held; page += Gpu.PAGE) {
                svg.rect(left + page / (double) Bytes.MiB * pxPerMiB, y, Gpu.PAGE / (double) Bytes.MiB * pxPerMiB,
                        24, "none", ".line", null);
            }
            String label = packed ? Bytes.formatSize(p.allocationSize(ptr)) + " of a shared page"
                    : Bytes.toyMiB(held) + " mapped";
            svg.text(left + held / (double) Bytes.MiB * pxPerMiB + 8, y + 17, label, "start", 12);
            y += rowH;
        }
        svg.legend(10, y + 6, List.of(new Svg.Key(Palette.LIVE, "asked for"),
                new Svg.Key(Palette.FREE, "shared page, free for other small requests"),
                new Svg.Key(Palette.ROUNDING, "lost to rounding (mapped, not asked for)")), 12);
        return svg.toString(title);
    }

    /** The largest request {@link #figureTaxBySize} plots. */
    static final long TAX_MAX = Bytes.mib(24);

    /**
     * What the driver maps for each request size of the tax curve: every multiple of 64 KiB up to
     * {@link #TAX_MAX}, and one byte more, each a cudaMalloc on a fresh toy process. Pairs of
     * (asked, mapped); mapped is {@code allocationSize}, the slice for a small request.
     */
    static List<long[]> taxPoints() {
        List<long[]> out = new java.util.ArrayList<>();
        GpuProcess p = new Gpu(gib(1)).openToyProcess();
        for (long m = 1; m * Bytes.kib(64) <= TAX_MAX; m++) {
            for (long size : new long[] {m * Bytes.kib(64), m * Bytes.kib(64) + 1}) {
                if (size > TAX_MAX) continue;
                long ptr = p.cudaMalloc(size);
                out.add(new long[] {size, p.allocationSize(ptr)});
                p.cudaFree(ptr);
            }
        }
        return out;
    }

    static double taxShare(long[] point) { return (point[1] - point[0]) / (double) point[1]; }

    /**
     * The rounding tax as a share of what is mapped, per request size: zero at every multiple of
     * 2 MiB, almost half one byte later at 2 MiB + 1 B, and falling with each page as requests grow.
     */
    public static String figureTaxBySize() {
        List<long[]> pts = taxPoints();
        int left = 60, top = 40, w = 640, h = 220;
        Svg svg = new Svg(left + w + 30, top + h + 70);
        String title = "The rounding tax per request size: the share of the mapping nobody asked for";
        svg.text(10, 20, title, "start", 12, ".ink", true);
        svg.line(left, top + h, left + w, top + h, null);
        svg.line(left, top, left, top + h, null);
        double yMax = 0.5;
        for (int pct = 0; pct <= 50; pct += 10) {
            double y = top + h - h * (pct / 100.0) / yMax;
            svg.text(left - 6, y + 4, pct + "%", "end", 10);
            if (pct > 0) svg.line(left, y, left + w, y, ".faint");
        }
        for (long mib = 0; mib <= TAX_MAX / Bytes.MiB; mib += 4) {
            double x = left + w * (mib * (double) Bytes.MiB) / TAX_MAX;
            svg.text(x, top + h + 16, mib + " MiB", "middle", 10);
        }
        List<double[]> line = new java.util.ArrayList<>();
        for (long[] p : pts) {
            line.add(new double[] {left + w * (double) p[0] / TAX_MAX, top + h - h * taxShare(p) / yMax});
        }
        svg.polyline(line, 1, 1.4, "tax share of each request size, one byte past every 64 KiB");
        for (long[] p : pts) {
            if (p[0] == Bytes.mib(2) + 1 || p[0] == Bytes.mib(8) + 1 || p[0] == Bytes.mib(16) + 1) {
                double x = left + w * (double) p[0] / TAX_MAX, y = top + h - h * taxShare(p) / yMax;
                svg.text(x + 5, y - 2, Bytes.readable(p[0]) + ": " + pct(taxShare(p)), "start", 10);
            }
        }
        svg.text(left, top + h + 36, "request size (up to 1 MiB: a 512 B slice of a shared page, almost no tax)", "start", 10,
                ".muted", false);
        svg.legend(left, top + h + 46, List.of(new Svg.Key(Palette.SERIES.get(1),
                "(mapped - asked) / mapped, asked = every multiple of 64 KiB and one byte more")), 10);
        return svg.toString(title);
    }

    /**
     * The scattered-frames experiment, as the simulator leaves it: an 8 MiB toy card, four
     * cudaMalloc(2 MiB), the first and third freed, then one cudaMalloc(4 MiB). {@code freed}
     * are the physical addresses of the two freed allocations' frames, {@code kept} those of the
     * two still live, {@code pages} the physical address behind each 2 MiB page of the new one.
     */
    record Scatter(GpuProcess process, long card, long va, List<Long> freed, List<Long> kept, long freeBefore,
                   List<Long> pages) {}

    static Scatter scatter() {
        long card = Bytes.mib(8);
        GpuProcess p = new Gpu(card).openToyProcess();
        List<Long> ptrs = new java.util.ArrayList<>();
        for (int i = 0; i < 4; i++) ptrs.add(p.cudaMalloc(Bytes.mib(2)));
        List<Long> freed = List.of(p.translate(ptrs.get(0)).physical(), p.translate(ptrs.get(2)).physical());
        List<Long> kept = List.of(p.translate(ptrs.get(1)).physical(), p.translate(ptrs.get(3)).physical());
        p.cudaFree(ptrs.get(0));
        p.cudaFree(ptrs.get(2));
        long freeBefore = p.cudaMemGetInfo().free();
        long big = p.cudaMalloc(Bytes.mib(4));
        List<Long> pages = new java.util.ArrayList<>();
        for (long off = 0; off < Bytes.mib(4); off += Gpu.PAGE) pages.add(p.translate(big + off).physical());
        return new Scatter(p, card, big, freed, kept, freeBefore, List.copyOf(pages));
    }

    /**
     * figures/scattered-frames.svg: one cudaMalloc(4 MiB) on a card whose free memory is two 2 MiB
     * frames that are not neighbours. Its VA is one range; each page's PTE points at whichever
     * free frame the driver took. Every address on it is the simulator's.
     */
    public static String figureScatteredFrames() {
        Scatter sc = scatter();
        double pxPerMiB = 70;
        int left = 150, vaY = 50, paY = 170, h = 30;
        double page = Gpu.PAGE / (double) Bytes.MiB * pxPerMiB;
        Svg svg = new Svg(left + (int) (sc.card() / (double) Bytes.MiB * pxPerMiB) + 40, paY + h + 80);
        String title = "One cudaMalloc(4 MiB): contiguous virtual addresses, frames that are not neighbours";
        svg.text(10, 22, title, "start", 13, ".ink", true);
        svg.text(10, vaY + 13, "virtual addresses", "start", 12);
        svg.text(10, vaY + 27, "(one range)", "start", 10, ".muted", false);
        svg.text(10, paY + 13, "physical frames", "start", 12);
        svg.text(10, paY + 27, "(the 8 MiB card)", "start", 10, ".muted", false);
        for (int i = 0; i < sc.pages().size(); i++) {
            double x = left + i * page;
            svg.rect(x, vaY, page, h, Palette.LIVE, ".line", "page " + i + " of the 4 MiB allocation");
            svg.text(x + page / 2, vaY + h / 2.0 + 4, String.format("0x%x", sc.va() + i * Gpu.PAGE), "middle", 11,
                    ".on-colour", false);
        }
        for (long frame = 0; frame < sc.card(); frame += Gpu.PAGE) {
            double x = left + frame / (double) Bytes.MiB * pxPerMiB;
            boolean taken = sc.pages().contains(frame);
            svg.rect(x, paY, page, h, taken ? Palette.LIVE : Palette.OTHER, ".line",
                    taken ? "now the 4 MiB allocation's" : "an earlier cudaMalloc(2 MiB), still live");
            svg.text(x + page / 2, paY + h + 16, String.format("0x%x", frame), "middle", 11);
        }
        for (int i = 0; i < sc.pages().size(); i++) {
            double from = left + i * page + page / 2;
            double to = left + sc.pages().get(i) / (double) Bytes.MiB * pxPerMiB + page / 2;
            svg.arrow(from, vaY + h, to, paY - 2, ".line");
        }
        svg.text(left, vaY - 8, "one 2M PTE per page: any free frame will do", "start", 11, ".muted", false);
        svg.legend(10, paY + h + 30, List.of(new Svg.Key(Palette.LIVE, "the 4 MiB allocation"),
                new Svg.Key(Palette.OTHER, "the 2nd and 4th cudaMalloc(2 MiB), still live")), 12);
        return svg.toString(title);
    }

    static String pct(double share) { return String.format(java.util.Locale.ROOT, "%.1f%%", 100 * share); }
}
