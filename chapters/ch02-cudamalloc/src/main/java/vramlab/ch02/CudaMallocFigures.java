package vramlab.ch02;

import static vramlab.units.Bytes.gib;

import vramlab.driver.Gpu;
import vramlab.driver.GpuProcess;
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
        StringBuilder b = new StringBuilder(String.format("<svg xmlns=\"http://www.w3.org/2000/svg\" "
                + "width=\"640\" height=\"%d\" font-family=\"monospace\" font-size=\"12\">%n", 20 + rowH * sizes.length));
        int y = 10;
        for (long size : sizes) {
            long mapped = p.allocationSize(p.cudaMalloc(size));
            double wMapped = mapped / (double) Bytes.MiB * pxPerMiB;
            double wAsked = Math.max(1, size / (double) Bytes.MiB * pxPerMiB);
            b.append(String.format("<text x=\"4\" y=\"%d\">%s</text>%n", y + 18, size + " B"));
            for (long page = 0; page < mapped; page += Gpu.PAGE) {
                b.append(String.format("<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"24\" fill=\"#f3e2c7\" "
                        + "stroke=\"#555\"/>%n", 110 + page / (double) Bytes.MiB * pxPerMiB, y,
                        Gpu.PAGE / (double) Bytes.MiB * pxPerMiB));
            }
            b.append(String.format("<rect x=\"110\" y=\"%d\" width=\"%.1f\" height=\"24\" fill=\"#4a7bb7\"/>%n",
                    y, wAsked));
            b.append(String.format("<text x=\"%.1f\" y=\"%d\">%s mapped</text>%n", 116 + wMapped, y + 17,
                    Bytes.toyMiB(mapped)));
            y += rowH;
        }
        return b.append("</svg>\n").toString();
    }
}
