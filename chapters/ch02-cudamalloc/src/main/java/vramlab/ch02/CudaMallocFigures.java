package vramlab.ch02;

import static vramlab.units.Bytes.gib;

import vramlab.driver.Gpu;
import vramlab.driver.GpuProcess;
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
        StringBuilder b = new StringBuilder(String.format("<svg xmlns=\"http://www.w3.org/2000/svg\" "
                + "width=\"640\" height=\"%d\" font-family=\"monospace\" font-size=\"12\">%n", 20 + rowH * sizes.length));
        int y = 10;
        for (long size : sizes) {
            long ptr = p.cudaMalloc(size);
            boolean packed = p.isPacked(ptr);
            long held = packed ? Gpu.PAGE : p.allocationSize(ptr);           // the page(s) drawn
            double offset = packed ? (ptr % Gpu.PAGE) / (double) Bytes.MiB * pxPerMiB : 0;
            double wAsked = Math.max(1, size / (double) Bytes.MiB * pxPerMiB);
            b.append(String.format("<text x=\"4\" y=\"%d\">%s</text>%n", y + 18, size + " B"));
            for (long page = 0; page < held; page += Gpu.PAGE) {
                b.append(String.format("<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"24\" fill=\"#f3e2c7\" "
                        + "stroke=\"#555\"/>%n", 110 + page / (double) Bytes.MiB * pxPerMiB, y,
                        Gpu.PAGE / (double) Bytes.MiB * pxPerMiB));
            }
            b.append(String.format("<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"24\" fill=\"#4a7bb7\"/>%n",
                    110 + offset, y, wAsked));
            String label = packed ? Bytes.formatSize(p.allocationSize(ptr)) + " of a shared page"
                    : Bytes.toyMiB(held) + " mapped";
            b.append(String.format("<text x=\"%.1f\" y=\"%d\">%s</text>%n",
                    116 + held / (double) Bytes.MiB * pxPerMiB, y + 17, label));
            y += rowH;
        }
        return b.append("</svg>\n").toString();
    }
}
