package vramlab.driver;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.PriorityQueue;

/**
 * Simulated time, in nanoseconds, shared by the host thread and every stream.
 *
 * <p>The host's "now" is the only time there is: GPU work is scheduled at absolute times, and
 * it completes (its action runs) when the host's clock passes that time, by a host call that
 * takes time ({@link #advanceBy}) or by a wait ({@link #advanceTo}). Completions run in
 * (time, order of scheduling) order, so every run is deterministic.
 *
 * <p>Invariants: {@code now} never decreases; every pending action is due at or after
 * {@code now}; every span has {@code start <= end}.
 */
public final class Clock {
    /** One nanosecond-stamped piece of work on one lane ("host", "stream 1", ...). */
    public record Span(String lane, String label, long start, long end) {
        public long duration() { return end - start; }
    }

    private record Pending(long at, long seq, Runnable action) {}

    private long now;
    private long nextSeq;
    private final PriorityQueue<Pending> pending = new PriorityQueue<>((a, b) -> a.at != b.at
            ? Long.compare(a.at, b.at) : Long.compare(a.seq, b.seq));
    private final List<Span> spans = new ArrayList<>();

    public long now() { return now; }

    /** Runs {@code action} when the clock reaches {@code at} (at once if {@code at <= now}). */
    public void schedule(long at, Runnable action) {
        if (at <= now) { action.run(); return; }
        pending.add(new Pending(at, nextSeq++, action));
    }

    /** Moves time forward to {@code t}, running every action due on the way, in order. */
    public void advanceTo(long t) {
        while (!pending.isEmpty() && pending.peek().at <= t) {
            Pending p = pending.poll();
            now = Math.max(now, p.at);
            p.action.run();
        }
        now = Math.max(now, t);
    }

    /** The host spends {@code nanos} (a blocking driver call, host work). */
    public void advanceBy(long nanos) {
        if (nanos < 0) throw new IllegalArgumentException("advanceBy: negative time " + nanos);
        advanceTo(now + nanos);
    }

    /** Waits until nothing is pending: what a device-wide synchronize does. */
    public void drain() {
        while (!pending.isEmpty()) advanceTo(pending.peek().at);
    }

    /** Number of scheduled actions not yet run. */
    public int pendingCount() { return pending.size(); }

    void record(Span span) {
        if (span.start > span.end) throw new IllegalStateException("span ends before it starts: " + span);
        spans.add(span);
    }

    /** Records host work that took {@code [start, now]}. */
    public void recordHost(String label, long start) { record(new Span("host", label, start, now)); }

    /** Everything that ran or is scheduled, in the order it was issued. */
    public List<Span> spans() { return Collections.unmodifiableList(spans); }

    /** Throws with the offending item when a pending action is overdue or a span is inverted. */
    public void checkInvariants() {
        for (Pending p : pending) {
            if (p.at < now) throw new IllegalStateException("Clock: action due at " + p.at + " < now " + now);
        }
        for (Span s : spans) {
            if (s.start > s.end) throw new IllegalStateException("Clock: inverted span " + s);
        }
    }

    /** Milliseconds with three decimals, for printing. */
    public static String ms(long nanos) {
        return String.format(java.util.Locale.ROOT, "%.3f ms", nanos / 1e6);
    }
}
