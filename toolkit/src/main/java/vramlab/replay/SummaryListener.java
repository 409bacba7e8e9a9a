package vramlab.replay;

import static vramlab.units.Columns.left;
import static vramlab.units.Columns.right;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import vramlab.alloc.CachingAllocator;
import vramlab.alloc.CudaOutOfMemoryError;
import vramlab.alloc.MemorySummary;
import vramlab.trace.TraceCursor;
import vramlab.trace.TraceEvent;
import vramlab.units.Bytes;

/** The human summary of a replay: peaks, each OOM with its message, the final state. */
public final class SummaryListener implements Replayer.Listener {
    private final PrintStream out;
    private long events, ooms, skipped;
    private long peakRequested, peakAllocated, peakReserved;
    // The latest OOM, its line made when asked for: its handle as a string, or (from the fast
    // path) as its bytes in the trace, decoded only if asked for.
    private long lastStep, lastLine, lastSize;
    private String lastHandle;              // null: not decoded yet from lastHandleBytes
    private byte[] lastHandleBytes = new byte[64];
    private int lastHandleLength;
    private CudaOutOfMemoryError lastError;
    private final AsciiLine printed = new AsciiLine();

    private final boolean fullMap;

    /** A summary whose segment map is compact beyond {@link MapSummary#FULL_MAP_LIMIT} segments or {@link MapSummary#FULL_MAP_BLOCKS} blocks. */
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
        lastHandle = e.handle();
        printOom(step, e.line(), e.size(), error);
    }

    /** The fast path's OOM: the handle's bytes are copied from the cursor, with no string made. */
    @Override
    public void oom(long step, long line, TraceCursor cursor, long size, CudaOutOfMemoryError error) {
        int n = cursor.handleLength();
        if (n > lastHandleBytes.length) lastHandleBytes = new byte[Math.max(n, 2 * lastHandleBytes.length)];
        lastHandleLength = cursor.copyHandle(lastHandleBytes, 0);
        lastHandle = null;
        printOom(step, line, size, error);
    }

    /** Counts the OOM whose handle is set, keeps it, and prints its line. */
    private void printOom(long step, long line, long size, CudaOutOfMemoryError error) {
        ooms++;
        lastStep = step;
        lastLine = line;
        lastSize = size;
        lastError = error;
        printed.clear();
        oomLine(printed);
        if (printed.ascii) {
            printed.text(System.lineSeparator());
            out.write(printed.bytes, 0, printed.length);
        } else {
            out.println(lastOom());
        }
    }

    /** The line printed for the latest OOM, as printed; empty before the first. */
    public String lastOom() {
        if (lastError == null) return "";
        if (lastHandle == null) lastHandle = new String(lastHandleBytes, 0, lastHandleLength, StandardCharsets.UTF_8);
        StringBuilder text = new StringBuilder();
        oomLine(new Pieces() {
            @Override public void text(String s) { text.append(s); }
            @Override public void utf8(byte[] b, int n) { text.append(new String(b, 0, n, StandardCharsets.UTF_8)); }
            @Override public void number(long n) { text.append(n); }
            @Override public void size(long bytes) { Bytes.formatSize(bytes, text); }
        });
        return text.toString();
    }

    /** Where an OOM line's pieces go: the bytes printed, or the text {@link #lastOom} returns. */
    private interface Pieces {
        void text(String s);
        /** Text as its first {@code n} UTF-8 bytes in {@code b} (a trace's handle). */
        void utf8(byte[] b, int n);
        void number(long n);
        /** A size as {@link Bytes#formatSize(long)} prints it. */
        void size(long bytes);
    }

    /** The latest OOM's line, piece by piece: written once, for both. */
    private void oomLine(Pieces to) {
        to.text("OOM at step ");
        to.number(lastStep);
        to.text(" (line ");
        to.number(lastLine);
        to.text(", alloc ");
        if (lastHandle != null) to.text(lastHandle);
        else to.utf8(lastHandleBytes, lastHandleLength);
        to.text(" ");
        to.size(lastSize);
        to.text("): ");
        to.text(lastError.getMessage());
    }

    /**
     * An OOM line as the bytes {@code println} would write, in one buffer reused line after
     * line, while it is ASCII (whose bytes are the same in every charset a terminal or a file
     * uses; any other line goes through println). println encoded each line char by char
     * through the stream's writer, and the line was a string of its own: most of what each OOM
     * cost a replay that prints tens of thousands, in time and in garbage.
     */
    private static final class AsciiLine implements Pieces {
        byte[] bytes = new byte[256];
        int length;
        boolean ascii;
        private final StringBuilder size = new StringBuilder(16);   // a size's text, reused
        private char[] chars = new char[256];                       // a piece's chars, reused

        void clear() {
            length = 0;
            ascii = true;
        }

        @Override public void size(long n) {
            if (!ascii) return;
            size.setLength(0);
            Bytes.formatSize(n, size);
            if (length + size.length() > bytes.length) bytes = Arrays.copyOf(bytes, 2 * (length + size.length()));
            for (int i = 0; i < size.length(); i++) bytes[length++] = (byte) size.charAt(i);   // digits, '.', units
        }

        @Override public void text(String s) {
            if (!ascii) return;
            int n = s.length();
            if (length + n > bytes.length) bytes = Arrays.copyOf(bytes, 2 * (length + n));
            if (n > chars.length) chars = new char[Math.max(n, 2 * chars.length)];
            s.getChars(0, n, chars, 0);              // one bulk copy, then a loop over an array: a
            for (int i = 0; i < n; i++) {            // charAt call per char cost a message of 500
                char c = chars[i];                   // chars (PyTorch's) a tenth of its OOM line
                if (c >= 0x80) {
                    ascii = false;
                    return;
                }
                bytes[length + i] = (byte) c;
            }
            length += n;
        }

        /** ASCII bytes are the line's own; any other byte sends the line through println. */
        @Override public void utf8(byte[] b, int n) {
            if (!ascii) return;
            if (length + n > bytes.length) bytes = Arrays.copyOf(bytes, 2 * (length + n));
            for (int i = 0; i < n; i++) {
                if (b[i] < 0) {                      // 0x80 and above: part of a multi-byte character
                    ascii = false;
                    return;
                }
                bytes[length + i] = b[i];
            }
            length += n;
        }

        @Override public void number(long n) {
            if (n < 0) {
                text(Long.toString(n));
                return;
            }
            if (length + 20 > bytes.length) bytes = Arrays.copyOf(bytes, 2 * (length + 20));
            int digits = 1;
            for (long rest = n / 10; rest > 0; rest /= 10) digits++;
            for (int i = length + digits - 1; i >= length; i--, n /= 10) bytes[i] = (byte) ('0' + n % 10);
            length += digits;
        }
    }

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
