package vramlab.trace;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
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
 *
 * <p>Two ways to read: as an {@code Iterator} of {@link TraceEvent}s, or, for a replay that
 * must keep up with millions of events, as a cursor ({@link #advance()}, then {@link #op()},
 * {@link #size()}, {@link #line()}, and the handle tracked in a {@link Handles} table straight
 * from the buffer), which makes no object per line. Use one or the other on one reader.
 *
 * <p>The tokenizer is written out by hand over a buffer of the file's bytes (UTF-8, never
 * decoded but for a handle, an error or an unusual size), and says exactly what
 * {@code BufferedReader.readLine}, {@code String.trim} and {@code split("\\s+")} said before
 * it: lines end at {@code \n}, {@code \r} or {@code \r\n}; a {@code #} starts a comment; the
 * rest is trimmed of characters up to the space and split at runs of
 * {@code [ \t\n\x0B\f\r]}. All of those are ASCII, and no byte of a UTF-8 multi-byte
 * character is, so the bytes split where the characters did. A size of plain digits, or digits
 * and a unit, is parsed here; any other spelling goes to {@link Bytes#parse}, so both accept
 * and refuse the same text. A {@code Reader} (text already decoded) is read through the same
 * tokenizer, encoded back to UTF-8 as it is read.
 */
public final class TraceReader implements Iterator<TraceEvent>, TraceCursor {
    private static final int MAX_WORDS = 3;
    /**
     * The longest line read: 1 MiB. A trace line is a command and two short words; without a
     * cap, a file of one endless line (a gzip of zeros, say) would double the buffer until it
     * no longer fits an array.
     */
    public static final int MAX_LINE = 1 << 20;

    /**
     * What standard input (the FILE argument {@code -}) is called wherever a user reads a name:
     * errors ({@code <stdin>:2: unknown command ...}), a snapshot's header, JShell's snippets.
     * JShell, Python and gcc call it so; {@code -} read as a place looked like a missing file.
     */
    public static final String STANDARD_INPUT = "<stdin>";

    /** The name FILE goes by in errors and output: {@link #STANDARD_INPUT} for {@code -}, else FILE as given. */
    public static String nameOf(String file) {
        return "-".equals(file) ? STANDARD_INPUT : file;
    }

    private final InputStream in;
    private final String file;
    private byte[] buf = new byte[1 << 16];
    private int pos;                 // next unread byte in buf
    private int limit;               // end of the bytes read into buf
    private boolean eof;
    private boolean skipLf;          // the last line ended at \r: a \n right after it is part of it
    private long lineNo;

    private int lineFrom, lineTo;    // the current line, trimmed and without its comment
    private final int[] wordFrom = new int[MAX_WORDS];
    private final int[] wordTo = new int[MAX_WORDS];
    private int words;
    private TraceEvent.Op op;
    private long size;
    private boolean ready;           // the iterator's lookahead: the cursor holds an unread event

    /** A trace's bytes, UTF-8 (the fast way: nothing is decoded). */
    public TraceReader(InputStream in, String file) {
        this.in = in;
        this.file = file;
    }

    public TraceReader(BufferedReader in, String file) { this((Reader) in, file); }

    /** A trace already decoded to characters. */
    public TraceReader(Reader in, String file) { this(new Utf8Encoding(in), file); }

    public String file() { return file; }

    // ---- the cursor ------------------------------------------------------------------------

    /** Reads the next event into the cursor; false at the end of the trace. */
    @Override
    public boolean advance() {
        while (nextLine()) {
            lineNo++;
            if (words > 0) {
                parse();
                return true;
            }
        }
        return false;
    }

    /** The current event's line. */
    @Override
    public long line() { return lineNo; }

    /** The current event's op. */
    @Override
    public TraceEvent.Op op() { return op; }

    /** The bytes the current {@code alloc} asks for; 0 for the other ops. */
    @Override
    public long size() { return size; }

    /** The current event's handle as a string ("" for {@code empty_cache}). */
    @Override
    public String handle() { return words < 2 ? "" : word(1); }

    @Override
    public int track(Handles handles) {
        if (op == TraceEvent.Op.EMPTY_CACHE) return -1;
        if (op == TraceEvent.Op.FREE) return handles.findAndRemove(buf, wordFrom[1], wordTo[1]);
        int id = handles.find(buf, wordFrom[1], wordTo[1]);
        return id >= 0 ? id : handles.add(buf, wordFrom[1], wordTo[1]);
    }

    @Override
    public int copyHandle(byte[] out, int at) {
        if (words < 2) return 0;
        int n = wordTo[1] - wordFrom[1];
        System.arraycopy(buf, wordFrom[1], out, at, n);
        return n;
    }

    @Override
    public int handleLength() { return words < 2 ? 0 : wordTo[1] - wordFrom[1]; }

    // ---- the iterator ----------------------------------------------------------------------

    @Override
    public boolean hasNext() {
        if (!ready) ready = advance();
        return ready;
    }

    @Override
    public TraceEvent next() {
        if (!hasNext()) throw new NoSuchElementException();
        ready = false;
        return switch (op) {
            case ALLOC -> TraceEvent.alloc(lineNo, handle(), size);
            case FREE -> TraceEvent.free(lineNo, handle());
            case EMPTY_CACHE -> TraceEvent.emptyCache(lineNo);
        };
    }

    // ---- lines and words ---------------------------------------------------------------------

    // What each byte is to the tokenizer: part of a word, \\s but a line's end, a line's end, a
    // comment's start, or another character up to the space (trimmed at a line's ends only).
    private static final byte WORD = 0, SPACE = 1, END = 2, HASH = 3, CONTROL = 4;
    private static final byte[] CLASS = new byte[256];

    static {
        for (int c = 0; c <= ' '; c++) CLASS[c] = CONTROL;
        CLASS[' '] = SPACE;
        CLASS['\t'] = SPACE;
        CLASS[0x0B] = SPACE;
        CLASS['\f'] = SPACE;
        CLASS['\n'] = END;
        CLASS['\r'] = END;
        CLASS['#'] = HASH;
    }

    /**
     * Frames the next physical line and splits it into words in one pass over its bytes; false
     * at the end. A line with another control character takes the long way
     * ({@link #trimAndSplit}), where trimming and splitting differ.
     */
    private boolean nextLine() {
        if (skipLf) {
            if (pos == limit) fill();
            if (pos < limit && buf[pos] == '\n') pos++;
            skipLf = false;
        }
        if (pos == limit && !eof) fill();
        if (pos == limit && eof) return false;
        int start = pos, i = pos, end = -1, cut = -1, from = -1;
        boolean control = false;
        words = 0;
        while (true) {
            byte[] b = buf;                           // locals: C1 reloads fields on every pass
            int n = limit;
            for (; i < n; i++) {
                byte kind = CLASS[b[i] & 0xFF];
                if (kind == WORD || kind == CONTROL) {
                    control |= kind == CONTROL;
                    if (from < 0 && cut < 0) from = i;
                } else {
                    if (from >= 0) word(from, i);
                    from = -1;
                    if (kind == END) {
                        end = i;
                        break;
                    }
                    if (kind == HASH && cut < 0) cut = i;
                }
            }
            if (end >= 0 || eof) break;
            int shift = pos;                          // the line goes on past the buffer:
            fill();                                   // fill moves it to the front and reads more
            shift -= pos;
            start -= shift;
            i -= shift;
            if (from >= 0) from -= shift;
            if (cut >= 0) cut -= shift;
            for (int w = 0; w < Math.min(words, MAX_WORDS); w++) {
                wordFrom[w] -= shift;
                wordTo[w] -= shift;
            }
            lastWordTo -= shift;
        }
        if (end < 0) end = limit;
        if (from >= 0) word(from, end);
        int lineEnd = cut >= 0 ? cut : end;
        if (end < limit) {
            skipLf = buf[end] == '\r';
            pos = end + 1;
        } else {
            pos = end;
        }
        if (control) {
            trimAndSplit(start, lineEnd);
        } else if (words > 0) {
            lineFrom = wordFrom[0];
            lineTo = lastWordTo;
        }
        return true;
    }

    private int lastWordTo;

    /** Notes the word [from, to): the first {@link #MAX_WORDS} are kept, all are counted. */
    private void word(int from, int to) {
        if (words < MAX_WORDS) {
            wordFrom[words] = from;
            wordTo[words] = to;
        }
        words++;
        lastWordTo = to;
    }

    /** The long way: trim [from, to) of characters up to the space, then split at \\s runs. */
    private void trimAndSplit(int from, int to) {
        while (from < to && buf[from] <= ' ' && buf[from] >= 0) from++;      // bytes >= 0x80 are < 0
        while (to > from && buf[to - 1] <= ' ' && buf[to - 1] >= 0) to--;
        lineFrom = from;
        lineTo = to;
        split();
    }

    /** Reads more: keeps [pos, limit) at the front, grows the buffer when a line fills it. */
    private void fill() {
        if (pos > 0) {
            System.arraycopy(buf, pos, buf, 0, limit - pos);
            limit -= pos;
            pos = 0;
        }
        if (limit == buf.length) {
            if (buf.length >= MAX_LINE) {
                throw new TraceException(file, lineNo + 1, "a line longer than 1 MiB (" + MAX_LINE + " bytes);"
                        + " a trace line is 'alloc <handle> <size>', 'free <handle>' or 'empty_cache'");
            }
            buf = Arrays.copyOf(buf, buf.length * 2);
        }
        try {
            int n = in.read(buf, limit, buf.length - limit);
            if (n < 0) eof = true; else limit += n;
        } catch (java.util.zip.ZipException | java.io.EOFException e) {
            throw new TraceException(file, lineNo + 1, "broken gzip data after this line ("
                    + (e.getMessage() == null ? "it ends early" : e.getMessage()) + ")");
        } catch (IOException e) {
            throw new UncheckedIOException(file + ": " + e.getMessage(), e);
        }
    }

    /** {@code \\s}: space, tab, newline, vertical tab, form feed, carriage return. */
    private static boolean isSpace(byte c) {
        return c == ' ' || (c >= '\t' && c <= '\r');
    }

    /** Splits the line at runs of white space, keeping the first words and counting all. */
    private void split() {
        words = 0;
        int i = lineFrom;
        while (i < lineTo) {
            while (i < lineTo && isSpace(buf[i])) i++;
            if (i == lineTo) break;
            int from = i;
            while (i < lineTo && !isSpace(buf[i])) i++;
            if (words < MAX_WORDS) {
                wordFrom[words] = from;
                wordTo[words] = i;
            }
            words++;
        }
    }

    private String word(int i) { return text(wordFrom[i], wordTo[i]); }

    private String text(int from, int to) { return new String(buf, from, to - from, StandardCharsets.UTF_8); }

    private boolean wordIs(int i, byte[] text) {
        int from = wordFrom[i];
        int n = wordTo[i] - from;
        if (n != text.length) return false;
        for (int k = 0; k < n; k++) if (buf[from + k] != text[k]) return false;
        return true;
    }

    private static final byte[] ALLOC = {'a', 'l', 'l', 'o', 'c'};
    private static final byte[] FREE = {'f', 'r', 'e', 'e'};
    private static final byte[] EMPTY_CACHE = "empty_cache".getBytes(StandardCharsets.US_ASCII);

    // ---- events --------------------------------------------------------------------------------

    private void parse() {
        size = 0;
        if (wordIs(0, ALLOC)) {
            expectWords(3, "alloc <handle> <size>");
            op = TraceEvent.Op.ALLOC;
            size = size(wordFrom[2], wordTo[2]);
        } else if (wordIs(0, FREE)) {
            expectWords(2, "free <handle>");
            op = TraceEvent.Op.FREE;
        } else if (wordIs(0, EMPTY_CACHE)) {
            expectWords(1, "empty_cache");
            op = TraceEvent.Op.EMPTY_CACHE;
        } else {
            throw error("unknown command '" + shown(word(0)) + "' (expected alloc, free or empty_cache)");
        }
    }

    private void expectWords(int n, String form) {
        if (words != n) {
            String joined = String.join(" ", text(lineFrom, lineTo).split("\\s+"));
            throw error("'" + shown(joined) + "': expected " + form);
        }
    }

    /** A size: digits, or digits and a unit, here; any other spelling through Bytes.parse. */
    private long size(int from, int to) {
        long n = digitsWithUnit(from, to);
        if (n == NOT_SIMPLE) {
            if (Bytes.isFractionOfAByte(text(from, to))) {   // parse would round 1.5 to 2 bytes
                throw badSize(from, to, "a number of bytes is whole (a unit forgotten? 1.5MiB, 1.5GiB)");
            }
            try {
                n = Bytes.parse(text(from, to));
            } catch (IllegalArgumentException | ArithmeticException e) {
                throw badSize(from, to, "expected bytes or a number with a unit (512B, 4KiB, 3MiB, 1.5GiB)");
            }
        }
        if (n == TOO_LARGE) throw badSize(from, to, "expected bytes or a number with a unit (512B, 4KiB, 3MiB, 1.5GiB)");
        if (n <= 0) throw badSize(from, to, "an allocation must be at least 1 byte");
        return n;
    }

    private static final long NOT_SIMPLE = Long.MIN_VALUE;
    private static final long TOO_LARGE = Long.MIN_VALUE + 1;

    /**
     * 1 to 18 ASCII digits, then nothing or one of Bytes.parse's units in ASCII letters of any
     * case ({@code B bytes K KB KiB M MB MiB G GB GiB T TB TiB}); {@link #NOT_SIMPLE} for any
     * other text, {@link #TOO_LARGE} when the product overflows, as Bytes.parse refuses it.
     */
    private long digitsWithUnit(int from, int to) {
        int i = from;
        long n = 0;
        while (i < to && i - from < 19 && buf[i] >= '0' && buf[i] <= '9') n = 10 * n + (buf[i++] - '0');
        int digits = i - from;
        if (digits == 0 || digits > 18) return NOT_SIMPLE;
        long scale = unitScale(i, to);
        if (scale < 0) return NOT_SIMPLE;
        if (n > Long.MAX_VALUE / scale) return TOO_LARGE;
        return n * scale;
    }

    /** The scale of the unit spelled by [from, to), or -1 when it is not a plain ASCII unit. */
    private long unitScale(int from, int to) {
        int n = to - from;
        if (n == 0) return 1;
        if (n > 5) return -1;
        char c0 = lower(buf[from]);
        long scale = switch (c0) {
            case 'k' -> Bytes.KiB;
            case 'm' -> Bytes.MiB;
            case 'g' -> Bytes.GiB;
            case 't' -> Bytes.TiB;
            case 'b' -> 1;
            default -> -1;
        };
        if (scale < 0) return -1;
        if (scale == 1) {                               // "b" or "bytes"
            return n == 1 || (n == 5 && lower(buf[from + 1]) == 'y' && lower(buf[from + 2]) == 't'
                    && lower(buf[from + 3]) == 'e' && lower(buf[from + 4]) == 's') ? 1 : -1;
        }
        if (n == 1) return scale;                       // "k"
        if (n == 2) return lower(buf[from + 1]) == 'b' ? scale : -1;                       // "kb"
        if (n == 3) return lower(buf[from + 1]) == 'i' && lower(buf[from + 2]) == 'b' ? scale : -1;  // "kib"
        return -1;
    }

    /** ASCII letters to lower case; any other byte to a char no unit has. */
    private static char lower(byte c) {
        if (c >= 'A' && c <= 'Z') return (char) (c + 32);
        return c >= 'a' && c <= 'z' ? (char) c : '\0';
    }

    private TraceException badSize(int from, int to, String why) {
        return error("bad size '" + shown(text(from, to)) + "': " + why);
    }

    /** Text from a file as an error quotes it: at most 60 characters, control characters as \\xNN. */
    public static String shown(String text) {
        StringBuilder sb = new StringBuilder();
        int i = 0;
        for (; i < text.length() && sb.length() < 60; i++) {
            char c = text.charAt(i);
            if (c < ' ' || c == 0x7f) {
                sb.append("\\x").append(Character.forDigit(c >> 4, 16)).append(Character.forDigit(c & 15, 16));
            } else {
                sb.append(c);
            }
        }
        return i < text.length() ? sb + "..." : sb.toString();
    }

    private TraceException error(String what) { return new TraceException(file, lineNo, what); }

    /**
     * Characters back to UTF-8 bytes as they are read, as {@code String.getBytes(UTF_8)} writes
     * them (a lone surrogate becomes {@code ?}); written out rather than through a
     * {@code CharsetEncoder} so the playground's TeaVM build carries it too. It never closes
     * the {@code Reader}: closing is left to whoever opened it, as for the byte constructor.
     */
    static final class Utf8Encoding extends InputStream {
        private final Reader in;
        private final char[] chars = new char[1 << 13];
        private final byte[] bytes = new byte[3 * chars.length + 4];
        private int from, to;                // the encoded bytes not handed out yet
        private int pending = -1;            // a high surrogate that ended the last chunk
        private boolean eof;

        Utf8Encoding(Reader in) { this.in = in; }

        @Override
        public int read() throws IOException {
            if (from == to && !encodeMore()) return -1;
            return bytes[from++] & 0xFF;
        }

        @Override
        public int read(byte[] out, int off, int len) throws IOException {
            if (len == 0) return 0;
            if (from == to && !encodeMore()) return -1;
            int n = Math.min(len, to - from);
            System.arraycopy(bytes, from, out, off, n);
            from += n;
            return n;
        }

        /** Encodes the next chunk of characters; false at the end of the text. */
        private boolean encodeMore() throws IOException {
            from = 0;
            to = 0;
            while (to == 0 && !eof) {
                int n = in.read(chars, 0, chars.length);
                if (n < 0) {
                    eof = true;
                    if (pending >= 0) bytes[to++] = '?';
                    pending = -1;
                    break;
                }
                for (int i = 0; i < n; i++) {
                    char c = chars[i];
                    if (pending >= 0) {
                        char high = (char) pending;
                        pending = -1;
                        if (Character.isLowSurrogate(c)) {
                            to = encode(Character.toCodePoint(high, c), bytes, to);
                            continue;
                        }
                        bytes[to++] = '?';
                    }
                    if (Character.isHighSurrogate(c)) {
                        pending = c;
                    } else if (Character.isLowSurrogate(c)) {
                        bytes[to++] = '?';
                    } else {
                        to = encode(c, bytes, to);
                    }
                }
            }
            return to > 0;
        }

        private static int encode(int cp, byte[] out, int o) {
            if (cp < 0x80) {
                out[o++] = (byte) cp;
            } else if (cp < 0x800) {
                out[o++] = (byte) (0xC0 | cp >> 6);
                out[o++] = (byte) (0x80 | cp & 0x3F);
            } else if (cp < 0x10000) {
                out[o++] = (byte) (0xE0 | cp >> 12);
                out[o++] = (byte) (0x80 | cp >> 6 & 0x3F);
                out[o++] = (byte) (0x80 | cp & 0x3F);
            } else {
                out[o++] = (byte) (0xF0 | cp >> 18);
                out[o++] = (byte) (0x80 | cp >> 12 & 0x3F);
                out[o++] = (byte) (0x80 | cp >> 6 & 0x3F);
                out[o++] = (byte) (0x80 | cp & 0x3F);
            }
            return o;
        }
    }
}
