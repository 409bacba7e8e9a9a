package vramlab.trace;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Iterator;
import java.util.NoSuchElementException;

import vramlab.units.Bytes;

/**
 * Reads a text trace one line at a time (CONTRACTS.md, "Trace files"), so a replay's memory
 * grows with its live blocks, never with the trace's length:
 * <pre>
 * # a comment; blank lines are ignored
 * alloc &lt;handle&gt; &lt;size&gt;      # bytes, or with a unit: 512B 4KiB 3MiB 1.5GiB
 * free &lt;handle&gt;
 * empty_cache
 * </pre>
 * Syntax errors are reported here; errors about handles (a double alloc, a free of an unknown
 * handle) need the replay's state and are reported by the replay.
 */
public final class TraceReader implements Iterator<TraceEvent> {
    private final BufferedReader in;
    private final String file;
    private long lineNo;
    private TraceEvent next;

    public TraceReader(BufferedReader in, String file) {
        this.in = in;
        this.file = file;
    }

    public String file() { return file; }

    @Override
    public boolean hasNext() {
        if (next == null) next = readEvent();
        return next != null;
    }

    @Override
    public TraceEvent next() {
        if (!hasNext()) throw new NoSuchElementException();
        TraceEvent e = next;
        next = null;
        return e;
    }

    private TraceEvent readEvent() {
        String raw;
        try {
            while ((raw = in.readLine()) != null) {
                lineNo++;
                int hash = raw.indexOf('#');
                String text = (hash >= 0 ? raw.substring(0, hash) : raw).trim();
                if (!text.isEmpty()) return parse(text.split("\\s+"));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(file + ": " + e.getMessage(), e);
        }
        return null;
    }

    private TraceEvent parse(String[] w) {
        switch (w[0]) {
            case "alloc":
                expectWords(w, 3, "alloc <handle> <size>");
                return TraceEvent.alloc(lineNo, w[1], size(w[2]));
            case "free":
                expectWords(w, 2, "free <handle>");
                return TraceEvent.free(lineNo, w[1]);
            case "empty_cache":
                expectWords(w, 1, "empty_cache");
                return TraceEvent.emptyCache(lineNo);
            default:
                throw error("unknown command '" + w[0] + "' (expected alloc, free or empty_cache)");
        }
    }

    private long size(String text) {
        long n;
        try {
            n = Bytes.parse(text);
        } catch (IllegalArgumentException | ArithmeticException e) {
            throw error("bad size '" + text + "': expected bytes or a number with a unit (512B, 4KiB, 3MiB, 1.5GiB)");
        }
        if (n <= 0) throw error("bad size '" + text + "': an allocation must be at least 1 byte");
        return n;
    }

    private void expectWords(String[] w, int n, String form) {
        if (w.length != n) throw error("'" + String.join(" ", w) + "': expected " + form);
    }

    private TraceException error(String what) { return new TraceException(file, lineNo, what); }
}
