package vramlab.ch02;

import static vramlab.units.Bytes.gib;

import java.util.List;

import vramlab.driver.Gpu;
import vramlab.driver.GpuProcess;
import vramlab.figures.Palette;
import vramlab.figures.Svg;
import vramlab.units.Bytes;

/** The chapter's figures, drawn from the simulator (the site build turns them into files). */
public final class CudaMallocFigures {
    private CudaMallocFigures() {}

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
}
