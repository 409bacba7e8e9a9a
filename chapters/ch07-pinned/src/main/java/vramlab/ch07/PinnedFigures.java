package vramlab.ch07;

import java.util.ArrayList;
import java.util.List;

import vramlab.driver.Clock;
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

    private record Panel(String title, List<Clock.Span> spans) {}

    private static String role(String label) {
        if (label.startsWith("cudaHostAlloc") || label.startsWith("cudaFreeHost")) return Palette.SLOW;
        if (label.startsWith("copy")) return Palette.COPY;
        if (label.startsWith("fill")) return Palette.WORK;
        return Palette.COMPUTE;
    }
}
