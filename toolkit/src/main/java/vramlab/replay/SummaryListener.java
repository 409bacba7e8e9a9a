package vramlab.replay;

import static vramlab.units.Columns.left;
import static vramlab.units.Columns.right;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

import vramlab.alloc.CachingAllocator;
import vramlab.alloc.CudaOutOfMemoryError;
import vramlab.alloc.MemorySummary;
import vramlab.trace.TraceCursor;
import vramlab.trace.TraceEvent;
import vramlab.units.Bytes;

/**
 * The human summary of a replay: peaks, each OOM with its message, the final state.
 *
 * <p>Each OOM's line is printed as it happens, or, once {@link #writeBehind()} is called, on a
 * second thread a batch of OOMs behind the replay: the same lines in the same order, since
 * nothing else is printed until {@link #finish} (or {@link #close}) has printed them all. A
 * replay of a full card OOMs every dozen events; writing each message (a graded step's text for
 * the toy, PyTorch's for the other) and its line was a fifth of the replay's thread (issue 38).
 * A message is written from its report alone (the report is the state at the failure), so
 * writing it later, on another thread, writes the same text.
 */
public final class SummaryListener implements Replayer.Listener, AutoCloseable {
    private final PrintStream out;
    private long events, ooms, skipped;
    private long peakRequested, peakAllocated, peakReserved;
    private Oom last;                       // the latest OOM; null before the first
    private final AsciiLine printed = new AsciiLine();
    private WriteBehind behind;             // null: each line is printed as its OOM happens

    private final boolean fullMap;

    /** A summary whose segment map is compact beyond {@link MapSummary#FULL_MAP_LIMIT} segments or {@link MapSummary#FULL_MAP_BLOCKS} blocks. */
    public SummaryListener(PrintStream out) { this(out, false); }

    /** With {@code fullMap}, the map draws every segment however many there are. */
    public SummaryListener(PrintStream out, boolean fullMap) {
        this.out = out;
        this.fullMap = fullMap;
    }

    /**
     * From now on, OOM lines are printed on a second thread, in order, a batch behind the
     * replay; {@link #finish} or {@link #close} waits for them all (call one of them, even when
     * the replay fails). An error a line's message throws there is thrown here, at the next
     * batch or at the end. Returns this listener.
     */
    public SummaryListener writeBehind() {
        if (behind == null) behind = new WriteBehind();
        return this;
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

    /** The fast path's call, answered here: the summary counts events and reads no handle. */
    @Override
    public void event(long step, TraceEvent.Op op, long line, TraceCursor cursor, long size, Replayer.Result result,
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
        Oom o = next();
        o.set(step, e.line(), e.size(), error);
        o.handle = e.handle();
        printOom(o);
    }

    /** The fast path's OOM: the handle's bytes are copied from the cursor, with no string made. */
    @Override
    public void oom(long step, long line, TraceCursor cursor, long size, CudaOutOfMemoryError error) {
        Oom o = next();
        o.set(step, line, size, error);
        int n = cursor.handleLength();
        if (n > o.handleBytes.length) o.handleBytes = new byte[Math.max(n, 2 * o.handleBytes.length)];
        o.handleLength = cursor.copyHandle(o.handleBytes, 0);
        o.handle = null;
        printOom(o);
    }

    /** Where the next OOM is kept: the one record, or the next slot of the batch being filled. */
    private Oom next() {
        if (behind != null) return behind.slot();
        if (last == null) last = new Oom();
        return last;
    }

    /** Counts the OOM, keeps it as the latest, and prints its line (or hands it to the second thread). */
    private void printOom(Oom o) {
        ooms++;
        last = o;
        if (behind != null) {
            behind.added();
        } else {
            print(o, printed, out);
        }
    }

    /** Prints {@code o}'s line through {@code line}, a buffer of the printing thread's own. */
    private static void print(Oom o, AsciiLine line, PrintStream out) {
        line.clear();
        o.pieces(line);
        if (line.ascii) {
            line.text(System.lineSeparator());
            out.write(line.bytes, 0, line.length);
        } else {
            out.println(o.text());
        }
    }

    /**
     * The line printed for the latest OOM, as printed; empty before the first. While lines are
     * written behind, ask only after {@link #finish} or {@link #close}.
     */
    public String lastOom() { return last == null ? "" : last.text(); }

    /** One OOM's line, in the parts it is printed from: its handle as a string, or its bytes in the trace. */
    private static final class Oom {
        long step, line, size;
        String handle;                      // null: the handle is handleBytes[0, handleLength), UTF-8
        byte[] handleBytes = new byte[64];
        int handleLength;
        CudaOutOfMemoryError error;

        void set(long step, long line, long size, CudaOutOfMemoryError error) {
            this.step = step;
            this.line = line;
            this.size = size;
            this.error = error;
        }

        /** The line as a string (its handle decoded here, not kept: another thread may be printing it). */
        String text() {
            StringBuilder text = new StringBuilder();
            pieces(new Pieces() {
                @Override public void text(String s) { text.append(s); }
                @Override public void utf8(byte[] b, int n) { text.append(new String(b, 0, n, StandardCharsets.UTF_8)); }
                @Override public void number(long n) { text.append(n); }
                @Override public void size(long bytes) { Bytes.formatSize(bytes, text); }
            });
            return text.toString();
        }

        /** The line, piece by piece: written once, for both the bytes printed and {@link #text}. */
        void pieces(Pieces to) {
            to.text("OOM at step ");
            to.number(step);
            to.text(" (line ");
            to.number(line);
            to.text(", alloc ");
            if (handle != null) to.text(handle);
            else to.utf8(handleBytes, handleLength);
            to.text(" ");
            to.size(size);
            to.text("): ");
            to.text(error.getMessage());
        }
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

    /**
     * The second thread: takes batches of OOMs in order, prints each line with a buffer of its
     * own, and hands the batch back to be filled again. At most {@link #BATCHES} batches are in
     * flight, so a replay that OOMs faster than lines print waits rather than growing without
     * bound. The first error a line throws stops the printing and is thrown on the replay's
     * thread.
     */
    private final class WriteBehind {
        static final int BATCH = 256;
        static final int BATCHES = 4;

        private final BlockingQueue<Oom[]> ready = new ArrayBlockingQueue<>(BATCHES + 1);
        private final BlockingQueue<Oom[]> spare = new ArrayBlockingQueue<>(BATCHES + 1);
        private final Thread printer;
        private volatile Throwable failed;
        private boolean reported;                       // failed was thrown on the replay's thread
        private Oom[] filling = batch();
        private int n;
        private boolean done;

        WriteBehind() {
            for (int k = 1; k < BATCHES; k++) spare.add(batch());
            printer = new Thread(this::run, "vramlab summary printer");
            printer.setDaemon(true);
            printer.start();
        }

        private static Oom[] batch() {
            Oom[] b = new Oom[BATCH];
            for (int i = 0; i < b.length; i++) b[i] = new Oom();
            return b;
        }

        Oom slot() { return filling[n]; }

        /** The slot {@link #slot} gave is filled: when the batch is full, hands it over. */
        void added() {
            if (++n == BATCH) {
                hand(filling);
                filling = take(spare);
                n = 0;
            }
        }

        private void hand(Oom[] batch) {
            rethrow();
            try {
                ready.put(batch);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while handing OOM lines to the printer", e);
            }
        }

        private Oom[] take(BlockingQueue<Oom[]> queue) {
            try {
                Oom[] b;
                while ((b = queue.poll(100, TimeUnit.MILLISECONDS)) == null) rethrow();   // a printer that died hands nothing back
                return b;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for the OOM line printer", e);
            }
        }

        /** Hands over what is left and waits until every line is printed; then lines print here again. */
        void drain() {
            if (done) return;
            done = true;
            if (reported) return;                         // the printer stopped at that error: nothing more prints
            Oom[] rest = Arrays.copyOf(filling, n);          // a short batch ends the printing
            hand(rest);
            try {
                printer.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for the OOM line printer", e);
            }
            rethrow();
        }

        private void rethrow() {
            Throwable t = failed;
            if (t == null) return;
            if (reported) throw new IllegalStateException("the OOM line printer stopped at an error", t);
            reported = true;
            if (t instanceof RuntimeException e) throw e;
            if (t instanceof Error e) throw e;
            throw new IllegalStateException(t);
        }

        private void run() {
            AsciiLine line = new AsciiLine();
            try {
                while (true) {
                    Oom[] b = ready.take();
                    for (Oom o : b) print(o, line, out);
                    if (b.length < BATCH) return;            // the last one
                    spare.put(b);
                }
            } catch (InterruptedException e) {
                // stopped: nobody waits for the rest
            } catch (Throwable t) {
                failed = t;
            }
        }
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
            if (length + Decimal.MAX > bytes.length) bytes = Arrays.copyOf(bytes, 2 * (length + Decimal.MAX));
            length = Decimal.write(n, bytes, length);
        }
    }

    /**
     * Prints the totals, the final {@code memory_summary()} and the segment map: every segment
     * when there are few or the map was asked for in full, else {@link MapSummary#compact}.
     */
    public void finish(CachingAllocator a) {
        close();
        out.println("events: " + events + ", OOMs: " + ooms + ", skipped frees: " + skipped
                + " (policy " + a.policy().name() + ")");
        out.println(left("", 10) + " " + right("requested", 14) + " " + right("allocated", 14) + " " + right("reserved", 14));
        counters(out, "peak", peakRequested, peakAllocated, peakReserved);
        counters(out, "final", a.requested(), a.allocated(), a.reserved());
        out.print(MemorySummary.format(a.memoryStats(), a.process().gpu().id()));
        MapSummary.print(a, fullMap, out);
    }

    /**
     * One row of the counters in bytes, exact (what a script reads: the row starts with its
     * name), and under it the same three as PyTorch's OOM message writes a size
     * ({@link Bytes#formatSize}), for a reader.
     */
    private static void counters(PrintStream out, String name, long requested, long allocated, long reserved) {
        out.println(left(name, 10) + " " + right(requested, 14) + " " + right(allocated, 14) + " " + right(reserved, 14));
        out.println(left("", 10) + " " + right(Bytes.formatSize(requested), 14) + " "
                + right(Bytes.formatSize(allocated), 14) + " " + right(Bytes.formatSize(reserved), 14));
    }

    /** Waits until every OOM line is printed (a no-op unless they are written behind); a replay that fails calls this too. */
    @Override
    public void close() {
        if (behind == null) return;
        WriteBehind b = behind;
        behind = null;
        b.drain();
    }
}
