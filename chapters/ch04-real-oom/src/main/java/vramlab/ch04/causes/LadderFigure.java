package vramlab.ch04.causes;

import java.util.ArrayList;
import java.util.List;

import vramlab.figures.Palette;
import vramlab.figures.Svg;
import vramlab.triage.Cause;

/**
 * The 3 a.m. ladder as an SVG flowchart (the course's palette): one question per step, "yes" to the cause and its
 * scenarios (each a link to its section of the notes), "no" down to the next step. The
 * questions are the triage's tests in words; the scenario names come from {@link Causes#all()}.
 */
public final class LadderFigure {
    private static final int W = 860, ROW = 78, TOP = 56, Q_W = 430, Q_H = 52;

    private LadderFigure() {}

    /** The question each step asks of the message, in the triage's terms. */
    static String question(Cause c) {
        return switch (c) {
            case FRAGMENTATION -> "reserved but unallocated >= the request?";
            case OTHER_PROCESSES -> "\"Process P has X\" lines, X large?";
            case NCCL_BUFFERS -> "this process >> PyTorch reserved, distributed run?";
            case OUTSIDE_ALLOCATOR -> "this process >> PyTorch reserved, no distributed run?";
            case CUDA_GRAPH_POOLS -> "\"allocated in private pools\" large?";
            case CUDNN_WORKSPACE -> "failed in a convolution (cudnn.benchmark)?";
            case FULL_OR_DRIVER_RESERVE -> "otherwise";
            case CANNOT_TELL -> "no figure and no words: collect the figures first";
            case NOT_PYTORCH_OOM -> "not a PyTorch CUDA message";
        };
    }

    // tag::figure[]
    /** The flowchart, as a standalone SVG document in the course's palette. */
    public static String figureLadder() {
        List<Cause> steps = new ArrayList<>();
        // OUTSIDE_ALLOCATOR shares step 3 with NCCL (the same gap, without a distributed run) and
        // has no scenario of its own: the flowchart keeps one box per scenario.
        for (Cause c : Cause.values()) if (c.step() > 0 && c != Cause.OUTSIDE_ALLOCATOR) steps.add(c);
        Svg svg = new Svg(W, TOP + steps.size() * ROW + 20);
        String title = "CUDA out of memory: the ladder, top to bottom";
        svg.text(20, 30, title, "start", 16, ".ink", true);
        for (int i = 0; i < steps.size(); i++) step(svg, steps.get(i), i, i == steps.size() - 1);
        return svg.toString(title);
    }
    // end::figure[]

    private static void step(Svg svg, Cause c, int i, boolean last) {
        int y = TOP + i * ROW;
        svg.rect(20, y, Q_W, Q_H, last ? Palette.STRUCTURE : Palette.FREE, last ? ".line" : null, null);
        svg.text(34, y + 31, c.step() + ".", "start", 13, ".ink", true);
        svg.text(58, y + 31, question(c), "start", 13);
        int cx = 20 + Q_W + 60;
        svg.arrow(20 + Q_W, y + Q_H / 2.0, cx - 4, y + Q_H / 2.0, null);
        if (!last) {
            svg.text(20 + Q_W + 18, y + Q_H / 2.0 - 5, "yes", "start", 11);
            svg.arrow(60, y + Q_H, 60, y + ROW, null);
            svg.text(66, y + Q_H + 16, "no", "start", 11);
        }
        List<String> names = new ArrayList<>();
        for (Scenario s : Causes.all()) if (s.cause() == c) names.add(s.name());
        svg.link("#cause-" + names.get(0), () -> {
            svg.rect(cx, y, W - cx - 20, Q_H, Palette.STRUCTURE, ".line", "scenario: " + String.join(", ", names));
            svg.text(cx + 12, y + 21, c.name(), "start", 13, ".ink", true);
            svg.text(cx + 12, y + 40, "scenario: " + String.join(", ", names), "start", 11);
        });
    }
}
