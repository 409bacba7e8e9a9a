package vramlab.replay;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;

import vramlab.alloc.CachingAllocator;
import vramlab.trace.TraceCursor;
import vramlab.trace.TraceEvent;

/**
 * {@code --csv}: one row per event and nothing else (CONTRACTS.md):
 * {@code step,op,handle,bytes,result,requested,allocated,reserved}, as Commons CSV writes RFC
 * 4180 (a handle with a comma or a quote is quoted), one record a line.
 *
 * <p>Nearly every row is digits, two fixed words and a handle no rule quotes: such a row is
 * written here as bytes, in one buffer reused row after row, which is what Commons CSV writes
 * for it. Any other row (a handle that needs quoting, or has bytes outside printable ASCII) is
 * written by Commons CSV itself. Row by row through Commons CSV, each field went through the
 * stream's charset encoder and a flush of its own: a 1M-event replay took five times as long
 * as its summary did (issue 38). {@code CsvListenerTest} holds the two writers to the same bytes.
 */
public final class CsvListener implements Replayer.Listener {
    public static final String HEADER = "step,op,handle,bytes,result,requested,allocated,reserved";

    /** RFC 4180 with {@code \n} between records, as the rest of the output's lines end. */
    static final CSVFormat FORMAT = CSVFormat.RFC4180.builder().setRecordSeparator('\n').get();

    /** Each op's and each result's word, by ordinal, as the bytes a row holds. */
    private static final byte[][] OPS = new byte[TraceEvent.Op.values().length][];
    private static final byte[][] RESULTS = new byte[Replayer.Result.values().length][];

    static {
        for (TraceEvent.Op op : TraceEvent.Op.values()) OPS[op.ordinal()] = ascii(op.word());
        for (Replayer.Result r : Replayer.Result.values()) RESULTS[r.ordinal()] = ascii(r.word());
    }

    private final PrintStream stream;
    private final CSVPrinter out;
    private byte[] row = new byte[128];
    private int length;

    public CsvListener(PrintStream out) {
        this.stream = out;
        try {
            this.out = new CSVPrinter(out, FORMAT);
            this.out.printRecord((Object[]) HEADER.split(","));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void event(long step, TraceEvent e, Replayer.Result result, long bytes, CachingAllocator a) {
        row(step, e.op(), e.handle(), bytes, result, a);
    }

    @Override
    public void event(long step, TraceEvent.Op op, long line, String handle, long size, Replayer.Result result,
                      long bytes, CachingAllocator a) {
        row(step, op, handle, bytes, result, a);
    }

    /**
     * The fast path's row: the handle's bytes are copied from the cursor's line into the row, and
     * only a handle that needs Commons CSV is made a string. A string per event was most of what
     * {@code --csv} still made per row (issue 38).
     */
    @Override
    public void event(long step, TraceEvent.Op op, long line, TraceCursor cursor, long size, Replayer.Result result,
                      long bytes, CachingAllocator a) {
        start(step, op);
        int n = cursor.handleLength();
        ensure(n);
        cursor.copyHandle(row, length);
        if (!plain(row, length, n)) {
            printRecord(step, op.word(), cursor.handle(), bytes, result.word(), a.requested(), a.allocated(), a.reserved());
            return;
        }
        length += n;
        end(bytes, result, a);
    }

    private void row(long step, TraceEvent.Op op, String handle, long bytes, Replayer.Result result,
                     CachingAllocator a) {
        if (handle == null) handle = "";                  // as Commons CSV prints a null value
        if (!plain(handle)) {
            printRecord(step, op.word(), handle, bytes, result.word(), a.requested(), a.allocated(), a.reserved());
            return;
        }
        start(step, op);
        ensure(handle.length());
        for (int i = 0; i < handle.length(); i++) row[length++] = (byte) handle.charAt(i);   // checked: ASCII
        end(bytes, result, a);
    }

    /** A plain row up to its handle: the step, the op and their commas. */
    private void start(long step, TraceEvent.Op op) {
        length = 0;
        number(step);
        comma();
        word(OPS[op.ordinal()]);
        comma();
    }

    /** A plain row after its handle, to its line's end, and the row written. */
    private void end(long bytes, Replayer.Result result, CachingAllocator a) {
        comma();
        number(bytes);
        comma();
        word(RESULTS[result.ordinal()]);
        comma();
        number(a.requested());
        comma();
        number(a.allocated());
        comma();
        number(a.reserved());
        ensure(1);
        row[length++] = '\n';
        stream.write(row, 0, length);
    }

    private void printRecord(Object... values) {
        try {
            out.printRecord(values);
        } catch (IOException x) {
            throw new UncheckedIOException(x);
        }
    }

    /**
     * Whether Commons CSV writes this handle as it is, under the quote rule RFC 4180's format
     * uses ({@code QuoteMode.MINIMAL}, in {@code CSVFormat.printWithQuotes} of Commons CSV 1.14.1,
     * the version the pom pins, checked against it by {@code CsvListenerTest}): it quotes a value
     * with a delimiter, a quote, a CR or an LF, one that starts with a character up to {@code #}
     * (its comment marker), and one that ends with a space or a control character. This
     * answers yes only for printable ASCII past {@code #} without a comma (a quote is {@code "},
     * under {@code #}): a narrower set than Commons CSV's, which is safe, since a row it does
     * not cover is written by Commons CSV. The empty handle (an {@code empty_cache}'s) is not
     * quoted: only a record's first field is, when empty, and the handle is the third.
     */
    static boolean plain(String handle) {
        for (int i = 0; i < handle.length(); i++) {
            char c = handle.charAt(i);
            if (c <= '#' || c > '~' || c == ',') return false;
        }
        return true;
    }

    /**
     * {@link #plain(String)} for a handle's UTF-8 bytes: the same answer for the same handle,
     * since a byte of a character past ASCII is negative here and is never plain.
     */
    static boolean plain(byte[] b, int from, int n) {
        for (int i = from; i < from + n; i++) {
            byte c = b[i];
            if (c <= '#' || c > '~' || c == ',') return false;
        }
        return true;
    }

    private void comma() {
        ensure(1);
        row[length++] = ',';
    }

    private void word(byte[] w) {
        ensure(w.length);
        System.arraycopy(w, 0, row, length, w.length);
        length += w.length;
    }

    /** {@code n} in decimal, as {@link Long#toString(long)} writes it. */
    private void number(long n) {
        ensure(Decimal.MAX);
        length = Decimal.write(n, row, length);
    }

    private void ensure(int more) {
        if (length + more > row.length) row = Arrays.copyOf(row, 2 * (length + more));
    }

    private static byte[] ascii(String s) { return s.getBytes(StandardCharsets.US_ASCII); }
}
