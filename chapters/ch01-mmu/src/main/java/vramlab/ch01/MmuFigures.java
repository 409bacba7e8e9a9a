package vramlab.ch01;

import static vramlab.units.Bytes.mib;

import vramlab.driver.Gpu;
import vramlab.driver.GpuProcess;
import vramlab.gmmu.Walk;

/** The chapter's figures, drawn from the simulator (the site build turns them into files). */
public final class MmuFigures {
    private MmuFigures() {}

    /** figures/page-walk.svg: the walk of the lab's second cudaMalloc, one box per level. */
    public static String figurePageWalk() {
        GpuProcess p = new Gpu(mib(40)).openToyProcess();
        p.cudaMalloc(mib(2));
        long ptr = p.cudaMalloc(mib(2));
        return walkSvg(p.walk(ptr + 0x40));
    }

    /** Any walk as an SVG: a column of level boxes, each with its index and its entry. */
    public static String walkSvg(Walk w) {
        int rowH = 46;
        int width = 640;
        int height = 40 + rowH * (w.steps().size() + 1);
        StringBuilder b = new StringBuilder();
        b.append(String.format("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                + "font-family=\"monospace\" font-size=\"13\">%n", width, height));
        b.append(String.format("<text x=\"10\" y=\"22\" font-weight=\"bold\">walk(0x%x)</text>%n", w.va()));
        int y = 36;
        for (Walk.Step s : w.steps()) {
            b.append(String.format("<rect x=\"10\" y=\"%d\" width=\"110\" height=\"34\" fill=\"#dde8f5\" "
                    + "stroke=\"#345\"/>%n", y));
            b.append(String.format("<text x=\"18\" y=\"%d\">%s[%d]</text>%n", y + 22, s.level(), s.index()));
            b.append(String.format("<text x=\"135\" y=\"%d\">%s</text>%n", y + 22, escape(s.entry())));
            b.append(String.format("<line x1=\"65\" y1=\"%d\" x2=\"65\" y2=\"%d\" stroke=\"#345\"/>%n",
                    y + 34, y + rowH));
            y += rowH;
        }
        String end = w.found() ? String.format("physical 0x%x", w.physical()) : w.fault().getMessage();
        b.append(String.format("<rect x=\"10\" y=\"%d\" width=\"620\" height=\"34\" fill=\"%s\" stroke=\"#345\"/>%n",
                y, w.found() ? "#e2f3e2" : "#f8dddd"));
        b.append(String.format("<text x=\"18\" y=\"%d\">%s</text>%n", y + 22, escape(end)));
        return b.append("</svg>\n").toString();
    }

    private static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
