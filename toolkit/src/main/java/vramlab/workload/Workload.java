package vramlab.workload;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.util.List;

import vramlab.trace.TraceEvent;

/**
 * One workload of the contest (chapter 8): a trace in the kit's format and the card it must
 * fit on.
 *
 * @param name     short name, unique in a set ({@code training-step})
 * @param card     the card's memory: the simulated GPU's capacity, no driver reserve, no context
 * @param shape    what the trace models, in one sentence
 * @param source   the published numbers it is modelled on
 * @param events   the trace; every block it allocates it also frees
 */
public record Workload(String name, long card, String shape, String source, List<TraceEvent> events) {
    public Workload {
        events = List.copyOf(events);
        if (card <= 0) throw new IllegalArgumentException(name + ": card of " + card + " bytes");
    }

    /** The trace as a text trace ({@code alloc h size}, {@code free h}, {@code empty_cache}), for {@code ./vramlab replay}. */
    public void writeTrace(Writer out) {
        try {
            out.write("# " + name + ": " + shape + "\n# card " + card + " B; modelled on " + source + "\n");
            for (TraceEvent e : events) {
                switch (e.op()) {
                    case ALLOC -> out.write("alloc " + e.handle() + " " + e.size() + "\n");
                    case FREE -> out.write("free " + e.handle() + "\n");
                    case EMPTY_CACHE -> out.write("empty_cache\n");
                }
            }
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The most bytes live at once, by the trace's requests. */
    public long peakRequested() {
        java.util.Map<String, Long> live = new java.util.HashMap<>();
        long now = 0, peak = 0;
        for (TraceEvent e : events) {
            if (e.op() == TraceEvent.Op.ALLOC) {
                live.put(e.handle(), e.size());
                now += e.size();
                peak = Math.max(peak, now);
            } else if (e.op() == TraceEvent.Op.FREE) {
                Long s = live.remove(e.handle());
                if (s != null) now -= s;
            }
        }
        return peak;
    }

    @Override public String toString() { return name + " (" + events.size() + " events)"; }
}
