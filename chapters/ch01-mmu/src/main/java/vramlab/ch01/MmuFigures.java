package vramlab.ch01;

import static vramlab.units.Bytes.mib;

import java.util.List;

import vramlab.driver.Gpu;
import vramlab.driver.GpuProcess;
import vramlab.figures.Palette;
import vramlab.figures.Svg;
import vramlab.figures.TextMetrics;
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
}
