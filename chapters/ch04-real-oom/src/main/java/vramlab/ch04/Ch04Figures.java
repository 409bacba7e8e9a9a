package vramlab.ch04;

import static vramlab.units.Bytes.mib;

import java.io.OutputStream;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

import vramlab.alloc.Block;
import vramlab.alloc.Sim;
import vramlab.ch04.causes.Causes;
import vramlab.ch04.causes.VariableBatchRatchet;
import vramlab.figures.Palette;
import vramlab.figures.Svg;
import vramlab.figures.SegmentMapFigure;
import vramlab.figures.TimelineFigure;
import vramlab.figures.TimelineFigure.Event;

/**
 * The figures of chapter 04's notes, drawn from the simulator at build time. The site finds
 * every public static {@code String figureXxx()} of this package and writes it as
 * {@code figures/xxx.svg} (and {@code figures/ch04-xxx.svg}).
 */
public final class Ch04Figures {
    private Ch04Figures() {}

    /** The triage ladder of the six causes, each step linked to its scenario. */
    public static String figureLadder() { return vramlab.ch04.causes.LadderFigure.figureLadder(); }

    // tag::figure-fragmentation[]
    /** The lab's fragmentation scenario, run now, its segments drawn as it leaves them. */
    public static String figureFragmentation() {
        Sim sim = RealOomLab.fragmentation(new PrintStream(OutputStream.nullOutputStream()));
        return SegmentMapFigure.svg("Fragmentation: 4 MiB holes between live 6 MiB blocks (toy policy, 40 MiB GPU)",
                SegmentMapFigure.snapshot(sim.allocator()));
    }
    // end::figure-fragmentation[]

    /** The same fill and free as an active-memory timeline: the stack shrinks, the holes stay. */
    public static String figureFragmentationTimeline() {
        Sim sim = new Sim(mib(40));
        List<Event> events = new ArrayList<>();
        List<Block> small = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            Block a = sim.alloc(mib(3) + 1);
            events.add(Event.alloc("a" + i, a.requested()));
            small.add(a);
            Block b = sim.alloc(mib(5) + 1);
            events.add(Event.alloc("b" + i, b.requested()));
        }
        for (int i = 0; i < small.size(); i++) {
            sim.free(small.get(i));
            events.add(Event.free("a" + i));
        }
        return TimelineFigure.svg("Active memory: four 3 MiB and four 5 MiB tensors, then the 3 MiB ones freed",
                events);
    }

    /** One run of the ratchet: reserved after each completed step, and the step that ran out, or -1. */
    public record ReservedCurve(String name, List<long[]> points, int oomStep) {}

    /**
     * The ratchet of cause 1 and its padded twin under PyTorch's rules, reserved after every
     * step's {@code empty_cache()}: lengths as they come climb to the OOM; padded to 128 tokens,
     * reserved stays flat. The padded run is drawn over as many steps as the first one lasted.
     */
    public static synchronized List<ReservedCurve> ratchetCurves() {
        if (ratchetCurves == null) ratchetCurves = List.copyOf(runRatchetCurves());
        return ratchetCurves;
    }

    /** The two runs take seconds (the scenario checks the allocator's invariants every step): run once. */
    private static List<ReservedCurve> ratchetCurves;

    private static List<ReservedCurve> runRatchetCurves() {
        List<ReservedCurve> out = new ArrayList<>();
        int horizon = VariableBatchRatchet.MAX_STEPS;
        for (int bucket : new int[] {1, 128}) {
            List<long[]> pts = new ArrayList<>();
            int oom = -1;
            try {
                new VariableBatchRatchet(bucket).run(Causes.defaultPolicy(), 1, horizon,
                        (step, reserved) -> pts.add(new long[] {step, reserved}));
                oom = pts.size() + 1;
            } catch (IllegalStateException noOom) {
                oom = -1;
            }
            if (bucket == 1) horizon = Math.max(oom, 100);
            out.add(new ReservedCurve(bucket == 1 ? "lengths as they come" : "padded to 128 tokens", pts, oom));
        }
        return out;
    }

    /** Reserved per step: the ratchet against padding, two curves on one scale. */
    public static String figureRatchetAndPadding() {
        return reservedChart("Reserved after each step's empty_cache(): the ratchet against padding (PyTorch's rules)",
                ratchetCurves());
    }

    /** A chart of reserved bytes per step, one line per curve, an OOM marked where a curve ends in one. */
    static String reservedChart(String title, List<ReservedCurve> curves) {
        int w = 600, h = 220, left = 80, top = 36;
        long xMax = 1, yMax = 1;
        for (ReservedCurve c : curves) {
            for (long[] p : c.points()) {
                xMax = Math.max(xMax, p[0]);
                yMax = Math.max(yMax, p[1]);
            }
        }
        yMax = (yMax + vramlab.units.Bytes.GiB / 4 - 1) / (vramlab.units.Bytes.GiB / 4) * (vramlab.units.Bytes.GiB / 4);
        Svg svg = new Svg(w + left + 40, h + top + 70);
        svg.text(10, 20, title, "start", 12);
        svg.line(left, top + h, left + w, top + h, null);
        svg.line(left, top, left, top + h, null);
        svg.text(left - 6, top + 8, vramlab.units.Bytes.formatSize(yMax), "end", 10);
        svg.text(left - 6, top + h, "0", "end", 10);
        svg.text(left, top + h + 16, "step 0", "start", 10);
        svg.text(left + w, top + h + 16, "step " + xMax, "end", 10);
        List<Svg.Key> keys = new ArrayList<>();
        for (int i = 0; i < curves.size(); i++) {
            ReservedCurve c = curves.get(i);
            List<double[]> pts = new ArrayList<>();
            for (long[] p : c.points()) {
                pts.add(new double[] {left + (double) w * p[0] / xMax, top + h - (double) h * p[1] / yMax});
            }
            svg.polyline(pts, i, 2.2, c.name());
            String label = c.name() + (c.oomStep() > 0 ? ": OOM at step " + c.oomStep() : ": no OOM");
            if (c.oomStep() > 0 && !pts.isEmpty()) {
                double[] last = pts.get(pts.size() - 1);
                svg.rect(last[0] - 4, last[1] - 4, 8, 8, Palette.ROUNDING, null, "OOM at step " + c.oomStep());
            }
            keys.add(new Svg.Key(Palette.series(i), label));
        }
        double below = svg.legend(left, top + h + 28, keys, 11);
        svg.height((int) Math.ceil(below + 6));
        return svg.toString(title);
    }
}
