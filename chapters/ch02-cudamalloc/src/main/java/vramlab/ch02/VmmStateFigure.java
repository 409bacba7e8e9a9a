package vramlab.ch02;

import static vramlab.units.Bytes.gib;
import static vramlab.units.Bytes.mib;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import vramlab.driver.CudaException;
import vramlab.driver.Gpu;
import vramlab.driver.GpuProcess;
import vramlab.figures.Palette;
import vramlab.figures.Svg;
import vramlab.figures.TextMetrics;
import vramlab.gmmu.Access;
import vramlab.gmmu.PageFault;

/**
 * The VMM calls as a state machine: one 2 MiB range from nothing to readable and back, and in
 * each state the calls the driver refuses there, with the error it returns. Every label is what
 * the simulator answered when the figure was drawn: each state is rebuilt on a fresh process
 * and the call is made on it, so a rule changed in the driver changes the figure.
 */
public final class VmmStateFigure {
    private VmmStateFigure() {}

    /** One state: how to reach it from a fresh process, and what the range holds there. */
    record State(String name, String holds) {}

    /** The range every state is about, and its handle, on one fresh process. */
    static final class Range {
        final GpuProcess p = new Gpu(gib(1)).openToyProcess();
        long va = -1, handle = -1;
    }

    static final List<State> STATES = List.of(
            new State("nothing", "no address, no memory"),
            new State("reserved", "2 MiB of VA, no memory under it"),
            new State("reserved + handle", "VA, and 2 MiB of memory with no address"),
            new State("mapped", "PTEs written, access NONE"),
            new State("accessible", "PTEs valid, READWRITE"));

    /** The calls that lead from state i to state i + 1. */
    static final List<String> FORWARD = List.of("cuMemAddressReserve(2 MiB)", "cuMemCreate(2 MiB)",
            "cuMemMap(va, 2 MiB, handle)", "cuMemSetAccess(va, 2 MiB, RW)");

    /** Brings a fresh range to state {@code i}, by the forward calls. */
    static Range at(int i) {
        Range r = new Range();
        if (i >= 1) r.va = r.p.cuMemAddressReserve(mib(2));
        if (i >= 2) r.handle = r.p.cuMemCreate(mib(2));
        if (i >= 3) r.p.cuMemMap(r.va, mib(2), r.handle);
        if (i >= 4) r.p.cuMemSetAccess(r.va, mib(2), Access.READWRITE);
        return r;
    }

    /** A call the driver refuses in one state. */
    record Refusal(int state, String call, Consumer<Range> attempt) {
        /** What the simulator answers: the error's name, "page fault", or "accepted". */
        String answer() {
            Range r = at(state);
            try {
                attempt.accept(r);
                return "accepted";
            } catch (CudaException e) {
                return e.error().name();
            } catch (PageFault f) {
                return "page fault";
            }
        }
    }

    static final List<Refusal> REFUSALS = List.of(
            new Refusal(1, "cuMemSetAccess(va, 2 MiB, RW)", r -> r.p.cuMemSetAccess(r.va, mib(2), Access.READWRITE)),
            new Refusal(2, "cuMemCreate(1 MiB)", r -> r.p.cuMemCreate(mib(1))),
            new Refusal(3, "a kernel reads va", r -> r.p.translate(r.va)),
            new Refusal(3, "cuMemAddressFree(va, 2 MiB)", r -> r.p.cuMemAddressFree(r.va, mib(2))),
            new Refusal(4, "cuMemMap(va, 2 MiB, handle) again", r -> r.p.cuMemMap(r.va, mib(2), r.handle)),
            new Refusal(4, "cuMemUnmap(va, 1 MiB)", r -> r.p.cuMemUnmap(r.va, mib(1))));

    /** The way back, each call made in the state it leaves; the state it reaches is named. */
    record Back(int from, int to, String call, Consumer<Range> make) {}

    static final List<Back> BACK = List.of(
            new Back(4, 2, "cuMemUnmap(va, 2 MiB)", r -> r.p.cuMemUnmap(r.va, mib(2))),
            new Back(2, 1, "cuMemRelease(handle)", r -> r.p.cuMemRelease(r.handle)),
            new Back(1, 0, "cuMemAddressFree(va, 2 MiB)", r -> r.p.cuMemAddressFree(r.va, mib(2))));

    /** The forward edges' answers, in order: each must be "ok" for the figure to be drawn. */
    static List<String> forwardAnswers() {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < FORWARD.size(); i++) {
            try {
                at(i + 1);
                out.add("ok");
            } catch (CudaException e) {
                out.add(e.error().name());
            }
        }
        return out;
    }

    /** The way back's answers: "ok" when the call succeeds in the state it leaves. */
    static List<String> backAnswers() {
        List<String> out = new ArrayList<>();
        for (Back b : BACK) {
            Range r = at(b.from());
            if (b.from() == 2) {        // a handle that was mapped and unmapped, as after the first edge back
                r = at(4);
                r.p.cuMemUnmap(r.va, mib(2));
            }
            try {
                b.make().accept(r);
                out.add("ok");
            } catch (CudaException e) {
                out.add(e.error().name());
            }
        }
        return out;
    }

    public static String figureVmmStates() {
        int boxW = 250, boxH = 44, gap = 46, left = 330, top = 44;
        int errX = left + boxW + 40;
        Svg svg = new Svg(1000, top + STATES.size() * (boxH + gap) + 10);
        String title = "One 2 MiB range through the VMM calls: the way there, the way back, and what the driver refuses";
        svg.text(10, 22, title, "start", 13, ".ink", true);
        List<String> fwd = forwardAnswers();
        for (int i = 0; i < STATES.size(); i++) {
            double y = top + i * (boxH + gap);
            State s = STATES.get(i);
            svg.rect(left, y, boxW, boxH, Palette.STRUCTURE, ".line", s.holds());
            svg.text(left + 10, y + 18, s.name(), "start", 12, ".ink", true);
            svg.text(left + 10, y + 35, s.holds(), "start", 10);
            if (i < FORWARD.size()) {
                double x = left + 30;
                svg.arrow(x, y + boxH, x, y + boxH + gap, null);
                svg.text(x + 10, y + boxH + gap / 2.0 + 4, FORWARD.get(i) + ": " + fwd.get(i), "start", 10);
            }
            double ey = y;
            for (Refusal ref : REFUSALS) {
                if (ref.state() != i) continue;
                String label = ref.call() + " \u2192 " + ref.answer();
                svg.arrow(left + boxW, ey + 13, errX - 2, ey + 13, ".faint");
                svg.rect(errX, ey + 3, TextMetrics.width(label, 10) + 12, 20, Palette.FREE, null,
                        "refused: the state does not change");
                svg.text(errX + 6, ey + 17, label, "start", 10, ".ink", false);
                ey += 24;
            }
        }
        List<String> back = backAnswers();
        for (int k = 0; k < BACK.size(); k++) {
            Back b = BACK.get(k);
            double x = left - 20 - k * 22;
            double yFrom = top + b.from() * (boxH + gap) + boxH / 2.0 - 8;
            double yTo = top + b.to() * (boxH + gap) + boxH / 2.0 + 8;
            svg.line(left, yFrom, x, yFrom, ".line");
            svg.line(x, yFrom, x, yTo, ".line");
            svg.arrow(x, yTo, left - 2, yTo, ".line");
            svg.text(x - 6, (yFrom + yTo) / 2 + 4, b.call() + ": " + back.get(k), "end", 10, ".muted", false);
        }
        return svg.toString(title);
    }
}
