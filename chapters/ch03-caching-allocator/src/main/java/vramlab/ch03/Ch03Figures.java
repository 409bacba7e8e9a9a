package vramlab.ch03;

import static vramlab.units.Bytes.mib;

import java.util.ArrayList;
import java.util.List;

import java.util.LinkedHashMap;
import java.util.Map;

import vramlab.alloc.Block;
import vramlab.alloc.MemoryStats;
import vramlab.alloc.MemorySummary;
import vramlab.alloc.Policy;
import vramlab.alloc.PyTorchPolicy;
import vramlab.alloc.Segment;
import vramlab.alloc.Sim;
import vramlab.alloc.ToyPolicy;
import vramlab.figures.Palette;
import vramlab.figures.Svg;
import vramlab.figures.TextMetrics;
import vramlab.units.Bytes;
import vramlab.figures.SegmentMapFigure;
import vramlab.figures.SegmentMapFigure.Step;

/**
 * The figures of chapter 03's notes, drawn from the simulator at build time. The site finds
 * every public static {@code String figureXxx()} of this package and writes it as
 * {@code figures/xxx.svg} (and {@code figures/ch03-xxx.svg}).
 */
public final class Ch03Figures {
    private Ch03Figures() {}

    /** {@link CachingAllocatorLab#splitAndMerge}'s steps, each drawn from the simulator's state. */
    public static String figureSplitMerge() {
        Sim sim = new Sim(mib(40));
        List<Step> steps = new ArrayList<>();
        Block a = sim.alloc(mib(4));
        steps.add(step("alloc 4 MiB: the new 20 MiB segment is split", sim));
        Block b = sim.alloc(mib(6));
        Block c = sim.alloc(mib(4));
        steps.add(step("alloc 6 MiB, then 4 MiB: each split off the free remainder", sim));
        sim.free(b);
        steps.add(step("free the 6 MiB block: a hole between two live blocks", sim));
        sim.free(a);
        steps.add(step("free the first 4 MiB: it merges with the hole on its right", sim));
        sim.free(c);
        steps.add(step("free the last: one free block covers the segment again", sim));
        sim.emptyCache();
        steps.add(step("empty_cache(): the whole free segment goes back to the driver", sim));
        return SegmentMapFigure.steps("Split and merge on one segment (toy policy)", steps);
    }

    /** {@link Ch03Outputs#outputPoolsNeverMix}'s run as segment maps: a free 20 MiB large segment, then 900 KiB. */
    static List<Step> poolsNeverMixSteps() {
        Sim sim = new Sim(mib(64));
        List<Step> steps = new ArrayList<>();
        Block big = sim.alloc(mib(20));
        sim.free(big);
        steps.add(step("alloc(20 MiB), then free it: the large pool caches a whole free segment", sim));
        sim.alloc(vramlab.units.Bytes.kib(900));
        steps.add(step("alloc(900 KiB): small, so a new 2 MiB small segment; the 20 MiB stays free", sim));
        return steps;
    }

    /** Pools never mix: a small request beside a free large segment still costs a cudaMalloc. */
    public static String figurePoolsNeverMix() {
        return SegmentMapFigure.steps("Pools never mix: 900 KiB does not use the free 20 MiB large segment",
                poolsNeverMixSteps());
    }

    private static Step step(String caption, Sim sim) {
        return new Step(caption, SegmentMapFigure.snapshot(sim.allocator()));
    }

    /**
     * {@link Ch03Outputs#outputMemorySummary}'s table, row by row as {@link MemorySummary} lays it
     * out, with the rows the notes read marked and annotated: requested, then allocated (what
     * rounding added), then reserved (the segments behind it), then non-releasable (the free
     * pieces a live block pins). Every number, in the table and in the notes beside it, is the
     * simulator's.
     */
    public static String figureMemorySummary() {
        Sim sim = Ch03Outputs.summaryRun();
        MemoryStats stats = sim.allocator().memoryStats();
        Map<String, Note> notes = summaryNotes(sim);
        String[] lines = MemorySummary.format(stats, 0, true).split("\n");
        int size = 11, rowH = 17, top = 34, nameX = 26, colW = 84, valuesX = nameX + 160;
        double tableRight = valuesX + 4 * colW, noteX = tableRight + 22, widest = 0;
        for (Note n : notes.values()) widest = Math.max(widest, TextMetrics.width(n.text(), size));
        String title = "memory_summary() of one short run, read in the order of the three numbers";
        int width = (int) Math.ceil(Math.max(noteX + widest + 12, 12 + TextMetrics.width(title, 12, true)));
        Svg svg = new Svg(width, top + lines.length * rowH + 40);
        svg.text(10, 20, title, "start", 12, ".ink", true);
        double y = top;
        for (String raw : lines) {
            String line = raw.substring(1, raw.length() - 1);
            if (line.chars().allMatch(c -> c == '=' || c == '-')) {
                svg.line(nameX - 6, y + rowH / 2.0, tableRight, y + rowH / 2.0, line.startsWith("=") ? ".line" : ".faint");
                y += rowH / 2.0 + 2;
                continue;
            }
            String[] cells = line.split("\\|", -1);
            if (cells.length != 5) {
                svg.text(nameX, y + 12, line.trim().replaceAll(" {2,}", "   "), "start", size, ".muted", false);
                y += rowH;
                continue;
            }
            String name = cells[0].trim();
            boolean header = name.equals("Metric");
            Note note = notes.get(name);
            if (note != null) {
                svg.rect(nameX - 14, y + 1, 7, rowH - 3, note.role(), ".line", note.text());
                svg.rect(noteX - 14, y + 1, 7, rowH - 3, note.role(), ".line", null);
                svg.text(noteX, y + 12, note.text(), "start", size);
            }
            svg.text(nameX, y + 12, name, "start", size, ".ink", header || note != null);
            for (int c = 1; c < 5; c++) {
                svg.text(valuesX + c * colW - 6, y + 12, cells[c].trim(), "end", size, ".ink", header);
            }
            y += rowH;
        }
        svg.height((int) Math.ceil(y + 10));
        return svg.toString(title);
    }

    /** What the figure writes beside a row of the summary, and the colour that marks it. */
    record Note(String role, String text) {}

    /** The notes beside the summary's rows, each computed from the run's blocks and segments. */
    static Map<String, Note> summaryNotes(Sim sim) {
        Map<String, Note> out = new LinkedHashMap<>();
        out.put("Requested memory", new Note(Palette.LIVE,
                "1. what the live tensors asked for: " + Bytes.readable(sim.requested())));
        out.put("Allocated memory", new Note(Palette.ROUNDING,
                "2. their blocks, rounded up: " + Bytes.readable(sim.allocated() - sim.requested()) + " more"));
        List<String> segs = new ArrayList<>();
        for (Segment s : sim.allocator().segments()) {
            segs.add(Bytes.readable(s.size()) + " " + s.pool().name().toLowerCase(java.util.Locale.ROOT)
                    + (hasLive(s) ? " (holds a live block)" : " (all free)"));
        }
        out.put("GPU reserved memory", new Note(Palette.STRUCTURE, "3. the segments: " + String.join(" + ", segs)));
        out.put("Non-releasable memory", new Note(Palette.FREE,
                "free, but pinned by a live neighbour: " + Bytes.readable(pinnedFree(sim))));
        return out;
    }

    static boolean hasLive(Segment s) {
        for (Block b = s.first(); b != null; b = b.next()) if (b.isAllocated()) return true;
        return false;
    }

    /** Free bytes in segments that also hold a live block: what empty_cache() cannot return. */
    static long pinnedFree(Sim sim) {
        long n = 0;
        for (Segment s : sim.allocator().segments()) {
            if (!hasLive(s)) continue;
            for (Block b = s.first(); b != null; b = b.next()) if (!b.isAllocated()) n += b.size();
        }
        return n;
    }

    /**
     * The size ladder of {@link Ch03Outputs#outputLadderBothPolicies} drawn to one linear scale:
     * for each request, under the toy policy and under PyTorch's, the segment it would get (the
     * outline), the block inside it, and the request inside the block; the red part is the
     * rounding. Every size is the policy's own answer.
     */
    public static String figureSizeLadder() {
        List<Policy> policies = List.of(new ToyPolicy(), new PyTorchPolicy());
        List<String> names = List.of("toy", "PyTorch");
        long max = 0;
        for (long n : Ch03Outputs.LADDER_SIZES) {
            for (Policy p : policies) max = Math.max(max, p.segmentSize(p.roundSize(n)));
        }
        int left = 14, labelW = 120, policyW = 60, barW = 420, laneH = 15, rowGap = 10, top = 34;
        double barX = left + labelW + policyW, textX = barX + barW + 10, widest = 0;
        for (long n : Ch03Outputs.LADDER_SIZES) {
            for (Policy p : policies) widest = Math.max(widest, TextMetrics.width(Ch03Outputs.cell(p, n), 10));
        }
        String title = "The size ladder to scale: segment (outline), block, and the request inside it";
        int rows = Ch03Outputs.LADDER_SIZES.length;
        Svg svg = new Svg((int) Math.ceil(Math.max(textX + widest + 12, 20 + TextMetrics.width(title, 12, true))),
                top + rows * (2 * laneH + rowGap) + 60);
        svg.text(left, 20, title, "start", 12, ".ink", true);
        double y = top;
        for (long n : Ch03Outputs.LADDER_SIZES) {
            svg.text(left, y + laneH + 4, Bytes.readable(n), "start", 11, ".ink", true);
            for (int i = 0; i < policies.size(); i++) {
                Policy p = policies.get(i);
                long block = p.roundSize(n), segment = p.segmentSize(block);
                svg.text(barX - 8, y + 11, names.get(i), "end", 10, ".muted", false);
                double sw = Math.max(2, barW * (double) segment / max), bw = barW * (double) block / max;
                double rw = barW * (double) n / max;
                svg.rect(barX, y, sw, laneH - 3, Palette.FREE, null, names.get(i) + ": " + Bytes.readable(segment)
                        + " " + p.poolFor(block).name().toLowerCase(java.util.Locale.ROOT) + " segment");
                svg.rect(barX, y, bw, laneH - 3, Palette.ROUNDING, null,
                        names.get(i) + ": block of " + Bytes.readable(block) + " for " + Bytes.readable(n));
                svg.rect(barX, y, rw, laneH - 3, Palette.LIVE, null, null);
                svg.text(textX, y + 10, Ch03Outputs.cell(p, n), "start", 10);
                y += laneH;
            }
            y += rowGap;
        }
        svg.text(barX, y + 4, "scale: " + Bytes.readable(max) + " = " + barW + " px; the small requests are there, too thin to see",
                "start", 10, ".muted", false);
        svg.legend(left, y + 14, List.of(new Svg.Key(Palette.LIVE, "requested"),
                new Svg.Key(Palette.ROUNDING, "rounding (block less request)"),
                new Svg.Key(Palette.FREE, "rest of the segment the block would come from")), 11);
        return svg.toString(title);
    }
}
