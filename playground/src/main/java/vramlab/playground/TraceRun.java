package vramlab.playground;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import vramlab.alloc.CachingAllocator;
import vramlab.driver.Gpu;
import vramlab.figures.SegmentMapFigure;
import vramlab.kit.Scenario;
import vramlab.lab.Todo;
import vramlab.replay.CsvListener;
import vramlab.replay.Policies;
import vramlab.replay.Replayer;
import vramlab.replay.SummaryListener;
import vramlab.replay.Timeline;
import vramlab.trace.TraceEvent;
import vramlab.trace.TraceException;
import vramlab.trace.TraceReader;
import vramlab.units.Bytes;

/**
 * A playground's trace, replayed from the start up to a step, the way {@code ./vramlab replay}
 * replays a file: the same reader, the same replayer, the same listeners, so after the last
 * step the page prints exactly what the command prints ({@code summary}), and the rows of
 * {@code --csv} ({@code csv}). Each call starts from nothing: a step is a replay one event
 * longer, so the page never holds state the JVM does not.
 */
public final class TraceRun {
    /** The choices of the page's policy menu, as {@code ./vramlab replay} spells them. */
    public enum Choice {
        TOY("toy", "toy", ""),
        PYTORCH("pytorch", "pytorch", ""),
        EXPANDABLE("pytorch+expandable", "pytorch", "expandable_segments:True");

        final String id, policy, allocConf;

        Choice(String id, String policy, String allocConf) {
            this.id = id;
            this.policy = policy;
            this.allocConf = allocConf;
        }

        public String id() { return id; }

        /** The replay command's options for this choice. */
        public String options() {
            return "--policy " + policy + (allocConf.isEmpty() ? "" : " --alloc-conf " + allocConf);
        }

        public static Choice of(String id) {
            for (Choice c : values()) if (c.id.equals(id)) return c;
            throw new IllegalArgumentException("policy '" + id + "': expected toy, pytorch or pytorch+expandable");
        }
    }

    /**
     * What the page shows after {@code step} of {@code events} events.
     *
     * @param summary what {@code ./vramlab replay} prints for the events replayed so far
     * @param csv     what {@code ./vramlab replay --csv} prints for them, line by line
     * @param svg     the segment map, drawn as the notes draw it
     * @param oom     the latest OOM line of the summary, or empty
     * @param error   {@code error: line N: what}, or {@code error: card: what}; empty when none
     */
    public record Result(int step, int events, String summary, List<String> csv, String svg,
                         long requested, long allocated, long reserved, String oom, String error) {}

    private TraceRun() {}

    /** Replays the first {@code steps} events of {@code trace} ({@code steps < 0}: all of them). */
    public static Result run(String trace, String policy, String card, int steps) {
        long device;
        Choice choice;
        try {
            device = card(card);
            choice = Choice.of(policy);
        } catch (IllegalArgumentException e) {
            return failed(0, 0, "error: " + e.getMessage());
        }
        List<TraceEvent> events;
        try {
            events = parse(trace);
        } catch (TraceException e) {
            return failed(0, 0, "error: line " + e.line() + ": " + e.what());
        }
        int n = steps < 0 ? events.size() : Math.min(steps, events.size());
        try {
            return replay(events, n, choice, device);
        } catch (RuntimeException e) {
            Todo todo = Scenario.todoIn(e);
            if (todo == null) throw e;
            return failed(0, events.size(), needs(todo));
        }
    }

    /**
     * The error a replay shows when it reaches a graded step that is not there: in the student
     * edition's bundle, compiled from the cores as handed out, every one is a {@link Todo}.
     */
    static String needs(Todo todo) {
        return "error: this replay needs step " + todo.step() + ", which this page's copy of the cores leaves out"
                + " (the graded steps are yours to write). " + todo.getMessage()
                + "; then ./vramlab replay runs this trace on your own cores.";
    }

    /** Every event of the trace, or the first bad line's error. */
    public static List<TraceEvent> parse(String trace) {
        List<TraceEvent> events = new ArrayList<>();
        TraceReader reader = new TraceReader(new BufferedReader(new StringReader(trace)), "trace");
        while (reader.hasNext()) events.add(reader.next());
        return events;
    }

    private static Result replay(List<TraceEvent> events, int n, Choice choice, long device) {
        CachingAllocator a = new CachingAllocator(new Gpu(device).openToyProcess(),
                Policies.create(choice.policy, choice.allocConf));
        ByteArrayOutputStream summaryBytes = new ByteArrayOutputStream();
        ByteArrayOutputStream csvBytes = new ByteArrayOutputStream();
        PrintStream summaryOut = new PrintStream(summaryBytes, true, StandardCharsets.UTF_8);
        PrintStream csvOut = new PrintStream(csvBytes, true, StandardCharsets.UTF_8);
        SummaryListener summary = new SummaryListener(summaryOut);
        Replayer r = new Replayer(a, Timeline.both(summary, new CsvListener(csvOut)), "trace", true);
        String error = "";
        int done = 0;
        try {
            for (; done < n; done++) r.apply(events.get(done));
        } catch (TraceException e) {
            error = "error: line " + e.line() + ": " + e.what();
        }
        summary.finish(a);
        String title = Bytes.readable(device) + " card, " + choice.id() + ", after step " + done
                + " of " + events.size();
        return new Result(done, events.size(), text(summaryBytes), List.of(text(csvBytes).split("\n")),
                SegmentMapFigure.svg(title, SegmentMapFigure.snapshot(a)),
                a.requested(), a.allocated(), a.reserved(), summary.lastOom(), error);
    }

    private static Result failed(int step, int events, String error) {
        return new Result(step, events, "", List.of(), "", 0, 0, 0, "", error);
    }

    /**
     * The card field: a size with a unit, as {@code ./vramlab replay --device} takes it (a bare
     * number is a unit forgotten there, and refused, so the command the page prints would be too).
     */
    static long card(String text) {
        long n = Bytes.parseWithUnit(text);
        if (n < 0) throw new IllegalArgumentException("card '" + text + "': expected a size such as 40MiB or 80GiB");
        return n;
    }

    private static String text(ByteArrayOutputStream b) {
        return new String(b.toByteArray(), StandardCharsets.UTF_8);
    }
}
