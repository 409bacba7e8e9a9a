package vramlab.replay;

import static vramlab.units.Columns.left;
import static vramlab.units.Columns.right;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import vramlab.alloc.CachingAllocator;
import vramlab.alloc.CudaOutOfMemoryError;
import vramlab.alloc.MemorySummary;
import vramlab.trace.TraceEvent;
import vramlab.units.Bytes;

/** The human summary of a replay: peaks, each OOM with its message, the final state. */
public final class SummaryListener implements Replayer.Listener {
    private final PrintStream out;
    private long events, ooms, skipped;
    private long peakRequested, peakAllocated, peakReserved;
    private String lastOom = "";

    private final boolean fullMap;

    /** A summary whose segment map is compact beyond {@link MapSummary#FULL_MAP_LIMIT} segments. */
    public SummaryListener(PrintStream out) { this(out, false); }

    /** With {@code fullMap}, the map draws every segment however many there are. */
    public SummaryListener(PrintStream out, boolean fullMap) {
        this.out = out;
        this.fullMap = fullMap;
    }

    @Override
    public void event(long step, TraceEvent e, Replayer.Result result, long bytes, CachingAllocator a) {
        count(result, a);
    }

    @Override
    public void event(long step, TraceEvent.Op op, long line, String handle, long size, Replayer.Result result,
                      long bytes, CachingAllocator a) {
        count(result, a);
    }

    @Override
    public boolean readsHandles() { return false; }

    private void count(Replayer.Result result, CachingAllocator a) {
        events++;
        if (result == Replayer.Result.SKIPPED) skipped++;
        peakRequested = Math.max(peakRequested, a.requested());
        peakAllocated = Math.max(peakAllocated, a.allocated());
        peakReserved = Math.max(peakReserved, a.reserved());
    }

    @Override
    public void oom(long step, TraceEvent e, CudaOutOfMemoryError error) {
        ooms++;
        lastOom = "OOM at step " + step + " (line " + e.line() + ", alloc " + e.handle() + " "
                + Bytes.formatSize(e.size()) + "): " + error.getMessage();
        printLine(lastOom);
    }

    private static final byte[] NEWLINE = System.lineSeparator().getBytes(StandardCharsets.ISO_8859_1);

    /**
     * {@code out.println(line)}, an ASCII line written as its bytes: println encodes it char by
     * char through the stream's writer, which was half of what each OOM cost a replay that
     * prints tens of thousands of them. ASCII's bytes are the same in every charset a terminal
     * or a file uses; any other line goes through println.
     */
    private void printLine(String line) {
        for (int i = 0; i < line.length(); i++) {
            if (line.charAt(i) >= 0x80) {
                out.println(line);
                return;
            }
        }
        byte[] bytes = line.getBytes(StandardCharsets.ISO_8859_1);
        out.write(bytes, 0, bytes.length);
        out.write(NEWLINE, 0, NEWLINE.length);
    }

    /** The line printed for the latest OOM, as printed; empty before the first. */
    public String lastOom() { return lastOom; }

    /**
     * Prints the totals, the final {@code memory_summary()} and the segment map: every segment
     * when there are few or the map was asked for in full, else {@link MapSummary#compact}.
     */
    public void finish(CachingAllocator a) {
        out.println("events: " + events + ", OOMs: " + ooms + ", skipped frees: " + skipped
                + " (policy " + a.policy().name() + ")");
        out.println(left("", 10) + " " + right("requested", 14) + " " + right("allocated", 14) + " " + right("reserved", 14));
        out.println(left("peak", 10) + " " + right(peakRequested, 14) + " " + right(peakAllocated, 14) + " "
                + right(peakReserved, 14));
        out.println(left("final", 10) + " " + right(a.requested(), 14) + " " + right(a.allocated(), 14) + " "
                + right(a.reserved(), 14));
        out.print(MemorySummary.format(a.memoryStats(), a.process().gpu().id()));
        MapSummary.print(a, fullMap, out);
    }
}
