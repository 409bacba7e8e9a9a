package vramlab.ch07;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import vramlab.driver.Clock;
import vramlab.pinned.PinnedSim;

/**
 * Figures for the notes, drawn from the simulator's recorded spans (the site build turns each
 * {@code figureXxx()} into {@code figures/xxx.svg}).
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
        StringBuilder svg = new StringBuilder();
        int height = panels.size() * (3 * LANE_H + 20) + 40;
        svg.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\""
                + " height=\"%d\" font-family=\"sans-serif\" font-size=\"11\">%n", WIDTH, height));
        int y = 10;
        for (Panel p : panels) {
            svg.append(text(4, y + 12, p.title, "bold"));
            y += 18;
            for (String lane : List.of("host", "stream 0")) {
                svg.append(text(4, y + 16, lane, "normal"));
                for (Clock.Span s : p.spans) {
                    if (s.lane().equals(lane)) svg.append(rect(s, y, scale));
                }
                y += LANE_H;
            }
            y += 20;
        }
        svg.append(text(LEFT, y + 4, "0 ms", "normal"));
        svg.append(text(WIDTH - 80, y + 4, Clock.ms(end), "normal"));
        return svg.append("</svg>\n").toString();
    }

    private record Panel(String title, List<Clock.Span> spans) {}

    private static String rect(Clock.Span s, int y, double scale) {
        double x = LEFT + s.start() * scale, w = Math.max(1, s.duration() * scale);
        return String.format(Locale.ROOT, "  <rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\""
                + " fill=\"%s\"><title>%s: %s</title></rect>%n", x, y, w, LANE_H - 6,
                colour(s.label()), escape(s.label()), Clock.ms(s.duration()));
    }

    private static String colour(String label) {
        if (label.startsWith("cudaHostAlloc")) return "#d62728";
        if (label.startsWith("cudaFreeHost")) return "#ff7f0e";
        if (label.startsWith("copy")) return "#1f77b4";
        if (label.startsWith("fill")) return "#2ca02c";
        return "#999999";
    }

    private static String text(int x, int y, String s, String weight) {
        return String.format(Locale.ROOT, "  <text x=\"%d\" y=\"%d\" font-weight=\"%s\">%s</text>%n",
                x, y, weight, escape(s));
    }

    private static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
