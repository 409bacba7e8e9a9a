package vramlab.ch07;

import java.util.ArrayList;
import java.util.List;

import vramlab.driver.Clock;
import vramlab.driver.CopyEngine;
import vramlab.driver.Stream;
import vramlab.figures.Palette;
import vramlab.figures.Svg;
import vramlab.pinned.PinnedSim;

/**
 * Figures for the notes, drawn from the simulator's recorded spans in the course's palette
 * (the site build turns each {@code figureXxx()} into {@code figures/xxx.svg}).
 */
public final class PinnedFigures {
    private static final int LANE_H = 26, LEFT = 150, WIDTH = 900, STEPS = 3;

    private PinnedFigures() {}

    /** Three training steps under each strategy: host lane and stream lane, on one time axis. */
    public static String figureTimeline() {
        List<Panel> panels = new ArrayList<>();
        long end = 0;
        for (TrainingLoop.Strategy s : TrainingLoop.Strategy.values()) {
            PinnedSim sim = new PinnedSim();
            TrainingLoop.run(s, STEPS, sim);
            panels.add(new Panel(s.name(), sim.clock().spans()));
            end = Math.max(end, sim.clock().now());
        }
        double scale = (WIDTH - LEFT - 20) / (double) end;
        Svg svg = new Svg(WIDTH, panels.size() * (3 * LANE_H + 20) + 70);
        int y = 10;
        for (Panel p : panels) {
            svg.text(4, y + 12, p.title, "start", 11, ".ink", true);
            y += 18;
            for (String lane : List.of("host", "stream 0")) {
                svg.text(4, y + 16, lane, "start", 11);
                for (Clock.Span s : p.spans) {
                    if (!s.lane().equals(lane)) continue;
                    double x = LEFT + s.start() * scale, w = Math.max(1, s.duration() * scale);
                    svg.rect(x, y, w, LANE_H - 6, role(s.label()), null, s.label() + ": " + Clock.ms(s.duration()));
                }
                y += LANE_H;
            }
            y += 20;
        }
        svg.text(LEFT, y + 4, "0 ms", "start", 11);
        svg.text(WIDTH - 20, y + 4, Clock.ms(end), "end", 11);
        svg.legend(4, y + 16, List.of(new Svg.Key(Palette.SLOW, "cudaHostAlloc / cudaFreeHost (slow driver calls)"),
                new Svg.Key(Palette.WORK, "host fills the batch"), new Svg.Key(Palette.COPY, "host-to-device copy"),
                new Svg.Key(Palette.COMPUTE, "the step's compute")), 11);
        return svg.toString("Three training steps: hold the pinned batch, or free and re-pin it every step");
    }

    /** The spans of the head-of-line scenario, as the notes' misconception runs it. */
    static List<Clock.Span> headOfLineSpans() {
        PinnedSim sim = new PinnedSim();
        Ch07Outputs.headOfLine(sim, new Stream(1, "stream 1", sim.clock(), CopyEngine.PCIE4));
        return sim.clock().spans();
    }

    /**
     * The event queue's head-of-line blocking as a timeline: the 16 MiB block's copy waits behind
     * a 50 ms kernel on stream 1, the 2 MiB block's copy is done at once on stream 0, and the
     * 2 MiB request made while the first still waits pays for a new block (the host lane's
     * second slow call). Every span is the simulator's.
     */
    public static String figureHeadOfLine() {
        List<Clock.Span> spans = headOfLineSpans();
        List<String> lanes = List.of("host", "stream 0", "stream 1");
        long end = 0;
        for (Clock.Span s : spans) end = Math.max(end, s.end());
        int left = 90, width = 900, top = 30;
        double scale = (width - left - 20) / (double) end;
        Svg svg = new Svg(width, top + lanes.size() * LANE_H + 120);
        String title = "Head-of-line blocking: a finished 2 MiB copy waits behind a 16 MiB one, and a new block is pinned";
        svg.text(4, 18, title, "start", 12, ".ink", true);
        int y = top;
        for (String lane : lanes) {
            svg.text(4, y + 15, lane, "start", 11);
            for (Clock.Span s : spans) {
                if (!s.lane().equals(lane)) continue;
                double x = left + s.start() * scale, w = Math.max(2, s.duration() * scale);
                svg.rect(x, y, w, LANE_H - 6, headOfLineRole(s.label()), null, s.label() + ": " + Clock.ms(s.duration()));
                String text = s.label();
                if (vramlab.figures.TextMetrics.width(text, 10) + 8 <= w) {
                    svg.text(x + 4, y + 14, text, "start", 10, ".on-colour", false);
                }
            }
            y += LANE_H;
        }
        Clock.Span repin = null;
        for (Clock.Span s : spans) {
            if (s.lane().equals("host") && s.label().startsWith("cudaHostAlloc")) repin = s;
        }
        if (repin != null) {
            double x = left + repin.start() * scale;
            svg.line(x, top - 4, x, y + 4, ".faint");
            svg.text(x + 4, y + 16, "at " + Clock.ms(repin.start()) + ": pin(2 MiB) finds the queue's oldest event (16 MiB) not ready,",
                    "start", 10);
            svg.text(x + 4, y + 30, "stops there, and pins a new 2 MiB block: " + repin.label(), "start", 10);
        }
        svg.text(left, y + 48, "0 ms", "start", 10);
        svg.text(width - 20, y + 48, Clock.ms(end), "end", 10);
        svg.legend(4, y + 58, List.of(new Svg.Key(Palette.SLOW, "cudaHostAlloc (slow driver call)"),
                new Svg.Key(Palette.COPY, "host-to-device copy"), new Svg.Key(Palette.COMPUTE, "kernel")), 11);
        return svg.toString(title);
    }

    private static String headOfLineRole(String label) {
        if (label.startsWith("cudaHostAlloc") || label.startsWith("cudaFreeHost")) return Palette.SLOW;
        if (label.startsWith("copy") || label.contains("memcpy") || label.contains("H2D")) return Palette.COPY;
        if (label.contains("kernel")) return Palette.COMPUTE;
        return Palette.WORK;
    }

    private record Panel(String title, List<Clock.Span> spans) {}

    private static String role(String label) {
        if (label.startsWith("cudaHostAlloc") || label.startsWith("cudaFreeHost")) return Palette.SLOW;
        if (label.startsWith("copy")) return Palette.COPY;
        if (label.startsWith("fill")) return Palette.WORK;
        return Palette.COMPUTE;
    }
}
