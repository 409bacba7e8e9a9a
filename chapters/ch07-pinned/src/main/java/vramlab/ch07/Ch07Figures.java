package vramlab.ch07;

import static vramlab.units.Bytes.mib;

import java.util.ArrayList;
import java.util.List;

import vramlab.driver.Clock;
import vramlab.driver.CopyEngine;
import vramlab.driver.Stream;
import vramlab.figures.Palette;
import vramlab.figures.Svg;
import vramlab.pinned.CachingHostAllocator;
import vramlab.pinned.HostBlock;
import vramlab.pinned.PinnedSim;

/**
 * Figures for the notes, drawn from the simulator's recorded spans in the course's palette
 * (the site build turns each {@code figureXxx()} into {@code figures/xxx.svg}).
 */
public final class Ch07Figures {
    private static final int LANE_H = 26, LEFT = 150, WIDTH = 900, STEPS = 3;

    private Ch07Figures() {}

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

    /** One block's state at one moment of {@link #heldByEventsRun}. */
    enum Held { CHECKED_OUT, WAITING, FREE_LIST }

    /** The blocks' states after each call of the run, at the host's clock. */
    record Sample(long at, String call, List<Held> blocks, int pendingEvents) {}

    /** Steps of the loop the figure draws. */
    static final int HELD_STEPS = 5;

    /**
     * A loop whose host runs ahead of the GPU: each step pins an 8 MiB batch, fills it for 1 ms,
     * queues its copy behind the step's 3 ms kernel and deletes the batch. The state of
     * every block is read from the allocator after each call.
     */
    static List<Sample> heldByEventsRun() {
        PinnedSim sim = new PinnedSim();
        CachingHostAllocator a = sim.allocator();
        List<HostBlock> order = new ArrayList<>();
        List<Sample> out = new ArrayList<>();
        out.add(sample(sim, order, "start"));
        for (int step = 1; step <= HELD_STEPS; step++) {
            HostBlock b = sim.pin(mib(8));
            if (!order.contains(b)) order.add(b);
            out.add(sample(sim, order, "step " + step + ": pin(8 MiB)"));
            sim.clock().advanceBy(1_000_000);                 // the host fills the batch
            sim.kernel("step " + step, 3_000_000);
            sim.copyToDevice(sim.cuda(mib(8)), b);
            sim.del(b);
            out.add(sample(sim, order, "step " + step + ": copy queued, del"));
        }
        sim.synchronize();
        a.processEvents();
        out.add(sample(sim, order, "synchronize(), then the next allocate's processEvents()"));
        return out;
    }

    private static Sample sample(PinnedSim sim, List<HostBlock> order, String call) {
        List<Held> states = new ArrayList<>();
        for (HostBlock b : order) {
            states.add(b.allocated() ? Held.CHECKED_OUT : b.eventCount() > 0 ? Held.WAITING : Held.FREE_LIST);
        }
        return new Sample(sim.clock().now(), call, states, sim.allocator().pendingEvents());
    }

    /**
     * Pinned blocks held by their events over time: one lane per block the loop pinned, coloured
     * by its state between one call and the next (checked out, freed but waiting for its copy's
     * event, on the free list). The host runs ahead of the GPU, so each step finds the last
     * step's block still waiting and pins another.
     */
    public static String figureHeldByEvents() {
        List<Sample> samples = heldByEventsRun();
        int blocks = samples.get(samples.size() - 1).blocks().size();
        long end = samples.get(samples.size() - 1).at() + 1_000_000;
        int left = 110, width = 900, top = 34;
        double scale = (width - left - 20) / (double) end;
        String title = "Pinned blocks held by events: the host runs ahead of the GPU, so a step finds the last batch's block still waiting";
        Svg svg = new Svg(width, top + blocks * LANE_H + 80);
        svg.text(4, 18, title, "start", 12, ".ink", true);
        for (int i = 0; i < blocks; i++) {
            int y = top + i * LANE_H;
            svg.text(4, y + 15, "block " + (i + 1), "start", 11);
            for (int k = 0; k < samples.size(); k++) {
                Sample s = samples.get(k);
                if (i >= s.blocks().size()) continue;
                long from = s.at(), to = k + 1 < samples.size() ? samples.get(k + 1).at() : end;
                if (to <= from) continue;
                Held h = s.blocks().get(i);
                double x = left + from * scale, w = Math.max(1, (to - from) * scale);
                svg.rect(x, y, w, LANE_H - 6, heldRole(h), h == Held.FREE_LIST ? null : ".line",
                        "block " + (i + 1) + " " + heldLabel(h) + " from " + Clock.ms(from) + " to " + Clock.ms(to)
                        + " (after " + s.call() + ")");
                String step = s.call().split(":")[0];
                if (h == Held.CHECKED_OUT && vramlab.figures.TextMetrics.width(step, 10) + 6 <= w) {
                    svg.text(x + 3, y + 14, step, "start", 10, ".on-colour", false);
                }
            }
        }
        int y = top + blocks * LANE_H;
        svg.text(left, y + 12, "0 ms", "start", 10);
        svg.text(width - 20, y + 12, Clock.ms(end) + " (host clock)", "end", 10);
        svg.legend(4, y + 24, List.of(new Svg.Key(Palette.LIVE, heldLabel(Held.CHECKED_OUT)),
                new Svg.Key(Palette.ACCENT, heldLabel(Held.WAITING)), new Svg.Key(Palette.FREE, heldLabel(Held.FREE_LIST))), 11);
        return svg.toString(title);
    }

    static String heldLabel(Held h) {
        return switch (h) {
            case CHECKED_OUT -> "checked out";
            case WAITING -> "freed, in the event queue";
            case FREE_LIST -> "on the free list";
        };
    }

    private static String heldRole(Held h) {
        return switch (h) {
            case CHECKED_OUT -> Palette.LIVE;
            case WAITING -> Palette.ACCENT;
            case FREE_LIST -> Palette.FREE;
        };
    }

    /** The batch sizes {@link #figurePowerOfTwoBill} pins, in bytes. */
    static final long[] BILL_SIZES = {mib(3), mib(4), mib(5), mib(8) + 1, mib(10), mib(12), mib(16), mib(17)};

    /**
     * Rule 1's bill: each batch size, asked of a fresh allocator, inside the power-of-two block it
     * gets; the red part is pinned and unused. Every block size is the allocator's own.
     */
    public static String figurePowerOfTwoBill() {
        long max = 0;
        long[] blocks = new long[BILL_SIZES.length];
        for (int i = 0; i < BILL_SIZES.length; i++) {
            PinnedSim sim = new PinnedSim();
            blocks[i] = sim.pin(BILL_SIZES[i]).size();
            max = Math.max(max, blocks[i]);
        }
        int left = 110, barW = 520, rowH = 24, top = 34;
        String title = "pin_memory=True rounds every request up to a power of two";
        Svg svg = new Svg(left + barW + 250, top + rowH * BILL_SIZES.length + 50);
        svg.text(4, 18, title, "start", 12, ".ink", true);
        int y = top;
        for (int i = 0; i < BILL_SIZES.length; i++) {
            long asked = BILL_SIZES[i], block = blocks[i];
            svg.text(4, y + 13, vramlab.units.Bytes.readable(asked), "start", 11);
            svg.rect(left, y, barW * (double) block / max, rowH - 8, Palette.ROUNDING, null,
                    "block of " + vramlab.units.Bytes.readable(block) + " for " + vramlab.units.Bytes.readable(asked));
            svg.rect(left, y, barW * (double) asked / max, rowH - 8, Palette.LIVE, null, null);
            svg.text(left + barW * (double) block / max + 6, y + 12, billLabel(asked, block), "start", 10);
            y += rowH;
        }
        svg.legend(4, y + 6, List.of(new Svg.Key(Palette.LIVE, "asked for"),
                new Svg.Key(Palette.ROUNDING, "pinned, never used (the block less the request)")), 11);
        return svg.toString(title);
    }

    static String billLabel(long asked, long block) {
        return vramlab.units.Bytes.readable(block) + " block, " + String.format(java.util.Locale.ROOT, "%.0f%%",
                100.0 * (block - asked) / block) + " unused";
    }
}
