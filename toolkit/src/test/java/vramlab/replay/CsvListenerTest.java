package vramlab.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static vramlab.units.Bytes.mib;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.apache.commons.csv.CSVPrinter;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import vramlab.alloc.CachingAllocator;
import vramlab.driver.Gpu;
import vramlab.trace.Handles;
import vramlab.trace.ReadAhead;
import vramlab.trace.TraceCursor;
import vramlab.trace.TraceEvent;
import vramlab.trace.TraceReader;

/**
 * {@code --csv}'s rows, written as bytes where no quoting rule applies, against Commons CSV
 * writing every row (the listener before issue 38): the same bytes for every handle, number,
 * op and result, on exhaustive small cases, seeded random ones and whole replays.
 */
@DisplayName("the CSV listener")
class CsvListenerTest {

    /** Every row through Commons CSV, field by field: the reference. */
    static final class Reference implements Replayer.Listener {
        private final CSVPrinter out;

        Reference(PrintStream stream) {
            try {
                out = new CSVPrinter(stream, CsvListener.FORMAT);
                out.printRecord((Object[]) CsvListener.HEADER.split(","));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        @Override
        public void event(long step, TraceEvent e, Replayer.Result result, long bytes, CachingAllocator a) {
            try {
                out.printRecord(step, e.op().word(), e.handle(), bytes, result.word(), a.requested(),
                        a.allocated(), a.reserved());
            } catch (IOException x) {
                throw new UncheckedIOException(x);
            }
        }
    }

    /**
     * A cursor at one line whose handle is {@code handle} (a null handle as {@code empty_cache}'s
     * empty one): the fast path's call, which copies the handle's UTF-8 bytes from the cursor.
     */
    private static final class AtHandle implements TraceCursor {
        private final byte[] utf8;

        AtHandle(String handle) { utf8 = (handle == null ? "" : handle).getBytes(StandardCharsets.UTF_8); }

        @Override public String handle() { return new String(utf8, StandardCharsets.UTF_8); }
        @Override public int handleLength() { return utf8.length; }
        @Override public int copyHandle(byte[] out, int at) {
            System.arraycopy(utf8, 0, out, at, utf8.length);
            return utf8.length;
        }
        @Override public boolean advance() { throw new UnsupportedOperationException(); }
        @Override public long line() { throw new UnsupportedOperationException(); }
        @Override public TraceEvent.Op op() { throw new UnsupportedOperationException(); }
        @Override public long size() { throw new UnsupportedOperationException(); }
        @Override public int track(Handles handles) { throw new UnsupportedOperationException(); }
    }

    /** Both writers' bytes for the same calls. */
    private static final class Pair {
        final ByteArrayOutputStream fastBytes = new ByteArrayOutputStream();
        final ByteArrayOutputStream refBytes = new ByteArrayOutputStream();
        final CsvListener fast = new CsvListener(new PrintStream(fastBytes, true, StandardCharsets.UTF_8));
        final Reference ref = new Reference(new PrintStream(refBytes, true, StandardCharsets.UTF_8));

        void row(long step, TraceEvent.Op op, String handle, long bytes, Replayer.Result result, CachingAllocator a) {
            TraceEvent e = new TraceEvent(step, op, handle, bytes, 0);
            ref.event(step, e, result, bytes, a);
            switch ((int) Math.floorMod(step, 3L)) {
                case 0 -> fast.event(step, e, result, bytes, a);
                case 1 -> fast.event(step, op, step, handle, bytes, result, bytes, a);   // a handle as a string
                default -> fast.event(step, op, step, new AtHandle(handle), bytes, result, bytes, a);   // the fast path's call
            }
        }

        void assertSame() {
            assertThat(fastBytes.toString(StandardCharsets.UTF_8)).isEqualTo(refBytes.toString(StandardCharsets.UTF_8));
            assertThat(fastBytes.toByteArray()).isEqualTo(refBytes.toByteArray());
        }
    }

    private static CachingAllocator allocatorWithUsage() {
        CachingAllocator a = new CachingAllocator(new Gpu(mib(256)).openToyProcess(), Policies.create("toy", ""));
        a.alloc(mib(3) + 17);
        a.alloc(700);
        return a;
    }

    @Test
    @DisplayName("every handle of one or two characters from a set with every quoting case is written as Commons CSV writes it")
    void shortHandles() {
        CachingAllocator a = allocatorWithUsage();
        Pair p = new Pair();
        long step = 1;
        List<String> handles = new ArrayList<>(List.of("", "é", "✓", "\uD83D\uDE00", "a\u0080"));
        for (char c = 0; c < 0x80; c++) handles.add(String.valueOf(c));
        String interesting = " !\"#$,a~\t\r\n\\\u007Fé;'";
        for (char c : interesting.toCharArray()) {
            for (char d : interesting.toCharArray()) handles.add("" + c + d);
        }
        for (String h : handles) {
            for (TraceEvent.Op op : TraceEvent.Op.values()) {
                for (Replayer.Result r : Replayer.Result.values()) p.row(step++, op, h, step * 7, r, a);
            }
        }
        p.assertSame();
    }

    @Test
    @DisplayName("a null handle is written as an empty field, as Commons CSV writes null")
    void nullHandle() {
        Pair p = new Pair();
        p.row(1, TraceEvent.Op.EMPTY_CACHE, null, 0, Replayer.Result.OK, allocatorWithUsage());
        p.assertSame();
    }

    @Test
    @DisplayName("seeded random handles and numbers (zero, the largest long, negatives) are written as Commons CSV writes them")
    void seededRows() {
        CachingAllocator a = allocatorWithUsage();
        Random rnd = new Random(38);
        String alphabet = "abcXYZ019_-.:/[]()$%&*+=<>?@^`{|}~!#\", \t\"'\\é✓";
        long[] edges = {0, 1, 9, 10, 99, 100, Long.MAX_VALUE, -1, -10, Long.MIN_VALUE, 1L << 40};
        for (int round = 0; round < 4; round++) {
            Pair p = new Pair();
            for (int i = 0; i < 5_000; i++) {
                StringBuilder h = new StringBuilder();
                int n = rnd.nextInt(12);
                boolean plain = rnd.nextBoolean();             // half of them: letters and digits only
                for (int j = 0; j < n; j++) {
                    h.append(plain ? (char) ('a' + rnd.nextInt(26)) : alphabet.charAt(rnd.nextInt(alphabet.length())));
                }
                long bytes = rnd.nextInt(4) == 0 ? edges[rnd.nextInt(edges.length)] : rnd.nextLong() >>> rnd.nextInt(64);
                long step = rnd.nextInt(4) == 0 ? edges[rnd.nextInt(edges.length)] : i;
                TraceEvent.Op op = TraceEvent.Op.values()[rnd.nextInt(3)];
                p.row(step, op, h.toString(), bytes, Replayer.Result.values()[rnd.nextInt(3)], a);
            }
            p.assertSame();
        }
    }

    @Test
    @DisplayName("plain() says yes only for handles Commons CSV writes unquoted")
    void plainIsNarrowerThanCommons() throws IOException {
        Random rnd = new Random(4180);
        for (int i = 0; i < 20_000; i++) {
            StringBuilder h = new StringBuilder();
            int n = 1 + rnd.nextInt(4);
            for (int j = 0; j < n; j++) h.append((char) rnd.nextInt(0x90));
            if (!CsvListener.plain(h.toString())) continue;
            StringBuilder printed = new StringBuilder();
            CSVPrinter p = new CSVPrinter(printed, CsvListener.FORMAT);
            p.print("x");                                        // the handle is never a record's first field
            p.print(h.toString());
            assertThat(printed.toString()).isEqualTo("x," + h);
        }
        assertThat(CsvListener.plain("t86514")).isTrue();
        assertThat(CsvListener.plain("a,b")).isFalse();
        assertThat(CsvListener.plain("#1")).isFalse();
        assertThat(CsvListener.plain("é")).isFalse();
    }

    /** A trace whose handles need every kind of treatment, plus OOMs, skipped frees and empty_cache. */
    private static String oddTrace(long seed) {
        Random rnd = new Random(seed);
        String[] shapes = {"t%d", "h,%d", "\"q%d\"", "!c%d", "é%d", "x!%d", "%d", "a'b%d"};
        StringBuilder t = new StringBuilder();
        List<String> live = new ArrayList<>();
        for (int i = 0; i < 3_000; i++) {
            int k = rnd.nextInt(10);
            if (k < 5 || live.isEmpty()) {
                String h = String.format(shapes[rnd.nextInt(shapes.length)], i);
                t.append("alloc ").append(h).append(' ').append(1 + rnd.nextInt(48 << 20)).append('\n');
                live.add(h);
            } else if (k < 9) {
                t.append("free ").append(live.remove(rnd.nextInt(live.size()))).append('\n');
            } else {
                t.append("empty_cache\n");
            }
        }
        return t.toString();
    }

    private static String replay(String trace, boolean reference, int path) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        Replayer.Listener l = reference ? new Reference(out) : new CsvListener(out);
        CachingAllocator a = new CachingAllocator(new Gpu(mib(512)).openToyProcess(), Policies.create("toy", ""));
        Replayer r = new Replayer(a, l, "t", false);
        switch (path) {
            case 0 -> r.replay((java.util.Iterator<TraceEvent>) new TraceReader(new StringReader(trace), "t"));
            case 1 -> r.replay(new TraceReader(new StringReader(trace), "t"));
            default -> {
                try (ReadAhead ahead = r.readAhead(new ByteArrayInputStream(trace.getBytes(StandardCharsets.UTF_8)), "t")) {
                    r.replay(ahead);
                }
            }
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    @DisplayName("whole replays on all three read paths print what Commons CSV printed, row for row")
    void wholeReplays() {
        for (long seed = 1; seed <= 3; seed++) {
            String trace = oddTrace(seed);
            String expected = replay(trace, true, 0);
            assertThat(expected).contains(",oom,").contains(",skipped,").contains("\"h,").contains("\"\"\"q").contains("\"!c");
            for (int path = 0; path < 3; path++) {
                assertThat(replay(trace, false, path)).as("seed %d, path %d", seed, path).isEqualTo(expected);
            }
        }
    }
}
