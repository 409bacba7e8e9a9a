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

    /** figures/rounding-tax.svg: for each lab size, the bytes asked for inside the pages mapped. */
    public static String figureRoundingTax() {
        GpuProcess p = new Gpu(gib(1)).openToyProcess();
        long[] sizes = {64, Bytes.kib(512), Bytes.mib(2), Bytes.mib(3) + 1, Bytes.mib(5) + 1};
        double pxPerMiB = 60;
        int rowH = 34;
        int left = 120;
        Svg svg = new Svg(720, 40 + rowH * sizes.length + 40);
        String title = "cudaMalloc maps whole 2 MiB pages";
        svg.text(10, 22, title, "start", 14, ".ink", true);
        int y = 36;
        for (long size : sizes) {
            long mapped = p.allocationSize(p.cudaMalloc(size));
            double wMapped = mapped / (double) Bytes.MiB * pxPerMiB;
            double wAsked = Math.max(1, size / (double) Bytes.MiB * pxPerMiB);
            svg.text(10, y + 17, Bytes.readable(size), "start", 12);
            svg.rect(left, y, wMapped, 24, Palette.ROUNDING, null, "mapped but not asked for");
            svg.rect(left, y, wAsked, 24, Palette.LIVE, null, Bytes.readable(size) + " asked for");
            for (long page = 0; page < mapped; page += Gpu.PAGE) {
                svg.rect(left + page / (double) Bytes.MiB * pxPerMiB, y, Gpu.PAGE / (double) Bytes.MiB * pxPerMiB, 24,
                        "none", ".line", null);
            }
            svg.text(left + wMapped + 8, y + 17, Bytes.toyMiB(mapped) + " mapped", "start", 12);
            y += rowH;
        }
        svg.legend(10, y + 6, List.of(new Svg.Key(Palette.LIVE, "asked for"),
                new Svg.Key(Palette.ROUNDING, "lost to rounding (mapped, not asked for)")), 12);
        return svg.toString(title);
    }
}
