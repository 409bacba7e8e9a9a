package vramlab.trace;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import vramlab.units.Bytes;

/**
 * The hand-written tokenizer against the reader it replaced, kept here as the reference
 * model: {@code readLine}, cut at {@code #}, {@code trim}, {@code split("\\s+")},
 * {@code Bytes.parse}. Both must give the same events, or the same error at the same line.
 */
@DisplayName("the trace reader")
class TraceReaderTest {

    /** The reader as it was written with regular expressions: the specification. */
    static List<String> reference(String text) throws IOException {
        List<String> out = new ArrayList<>();
        BufferedReader in = new BufferedReader(new StringReader(text));
        String raw;
        long line = 0;
        try {
            while ((raw = in.readLine()) != null) {
                line++;
                int hash = raw.indexOf('#');
                String t = (hash >= 0 ? raw.substring(0, hash) : raw).trim();
                if (t.isEmpty()) continue;
                String[] w = t.split("\\s+");
                switch (w[0]) {
                    case "alloc" -> {
                        expect(w, 3, "alloc <handle> <size>", line);
                        out.add(line + " alloc " + w[1] + " " + referenceSize(w[2], line));
                    }
                    case "free" -> {
                        expect(w, 2, "free <handle>", line);
                        out.add(line + " free " + w[1] + " 0");
                    }
                    case "empty_cache" -> {
                        expect(w, 1, "empty_cache", line);
                        out.add(line + " empty_cache  0");
                    }
                    default -> throw new TraceException("f", line,
                            "unknown command '" + TraceReader.shown(w[0]) + "' (expected alloc, free or empty_cache)");
                }
            }
        } catch (TraceException e) {
            out.add("error " + e.getMessage());
        }
        return out;
    }

    private static void expect(String[] w, int n, String form, long line) {
        if (w.length != n) {
            throw new TraceException("f", line, "'" + TraceReader.shown(String.join(" ", w)) + "': expected " + form);
        }
    }

    private static long referenceSize(String text, long line) {
        long n;
        java.util.regex.Matcher bytes = java.util.regex.Pattern.compile("(?i)([\\p{Nd}.]*)\\s*(b|bytes)?").matcher(text.strip());
        String number = bytes.matches() ? bytes.group(1).codePoints()          // any script's digits, as Bytes.parse reads them
                .map(c -> Character.isDigit(c) ? '0' + Character.digit(c, 10) : c)
                .collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append).toString() : "";
        if (number.matches("[0-9]*\\.[0-9]*[1-9][0-9]*")) {  // 1.5, 2.25B, ٥.5: a fraction of a byte
            throw new TraceException("f", line, "bad size '" + TraceReader.shown(text)
                    + "': a number of bytes is whole (a unit forgotten? 1.5MiB, 1.5GiB)");
        }
        try {
            n = Bytes.parse(text);
        } catch (IllegalArgumentException | ArithmeticException e) {
            throw new TraceException("f", line, "bad size '" + TraceReader.shown(text)
                    + "': expected bytes or a number with a unit (512B, 4KiB, 3MiB, 1.5GiB)");
        }
        if (n <= 0) {
            throw new TraceException("f", line, "bad size '" + TraceReader.shown(text)
                    + "': an allocation must be at least 1 byte");
        }
        return n;
    }

    /** What the new reader says, through its iterator or its cursor. */
    /** Bytes and characters both read {@code text} as the regular-expression reader ({@link #reference}) does. */
    static void asReference(String text) throws IOException {
        List<String> expected = reference(text);
        byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
        assertThat(actual(new ByteArrayInputStream(utf8), true)).as("bytes").isEqualTo(expected);
        assertThat(actual(new StringReader(text), false)).as("chars").isEqualTo(expected);
    }

    static List<String> actual(Reader text, boolean cursor) { return actual(new TraceReader(text, "f"), cursor); }

    /** The same, reading the text's UTF-8 bytes. */
    static List<String> actual(InputStream bytes, boolean cursor) { return actual(new TraceReader(bytes, "f"), cursor); }

    /** The same, read ahead on a second thread in batches of {@code batch} events. */
    static List<String> readAhead(byte[] utf8, int batch) {
        try (ReadAhead r = new ReadAhead(new ByteArrayInputStream(utf8), "f", new Handles(), batch)) {
            return cursor(r);
        }
    }

    static List<String> cursor(TraceCursor r) {
        List<String> out = new ArrayList<>();
        try {
            while (r.advance()) out.add(r.line() + " " + r.op().word() + " " + r.handle() + " " + r.size());
        } catch (TraceException e) {
            out.add("error " + e.getMessage());
        }
        return out;
    }

    static List<String> actual(TraceReader r, boolean cursor) {
        List<String> out = new ArrayList<>();
        try {
            if (cursor) {
                return cursor(r);
            } else {
                while (r.hasNext()) {
                    TraceEvent e = r.next();
                    out.add(e.line() + " " + e.op().word() + " " + e.handle() + " " + e.size());
                }
            }
        } catch (TraceException e) {
            out.add("error " + e.getMessage());
        }
        return out;
    }

    /** A reader that hands out at most {@code chunk} chars per read, to cut lines anywhere. */
    static Reader trickle(String text, int chunk) {
        return new StringReader(text) {
            @Override
            public int read(char[] cbuf, int off, int len) throws IOException {
                return super.read(cbuf, off, Math.min(len, chunk));
            }
        };
    }

    /** A stream that hands out at most {@code chunk} bytes per read, to cut characters anywhere. */
    static InputStream trickle(byte[] bytes, int chunk) {
        return new ByteArrayInputStream(bytes) {
            @Override
            public synchronized int read(byte[] b, int off, int len) {
                return super.read(b, off, Math.min(len, chunk));
            }
        };
    }

    private static void sameAsReference(String text) throws IOException {
        List<String> expected = reference(text);
        byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
        assertThat(actual(new ByteArrayInputStream(utf8), true)).as("bytes on %s", show(text)).isEqualTo(expected);
        assertThat(actual(trickle(utf8, 1), false)).as("one byte per read on %s", show(text)).isEqualTo(expected);
        assertThat(actual(trickle(utf8, 3), true)).as("three bytes per read on %s", show(text)).isEqualTo(expected);
        assertThat(actual(new StringReader(text), false)).as("iterator on %s", show(text)).isEqualTo(expected);
        assertThat(actual(new StringReader(text), true)).as("cursor on %s", show(text)).isEqualTo(expected);
        assertThat(actual(trickle(text, 1), true)).as("one char per read on %s", show(text)).isEqualTo(expected);
        assertThat(actual(trickle(text, 7), false)).as("seven chars per read on %s", show(text)).isEqualTo(expected);
        assertThat(readAhead(utf8, 1)).as("read ahead, batches of one, on %s", show(text)).isEqualTo(expected);
        assertThat(readAhead(utf8, 3)).as("read ahead, batches of three, on %s", show(text)).isEqualTo(expected);
    }

    private static String show(String text) {
        return "'" + text.replace("\r", "\\r").replace("\n", "\\n").replace("\t", "\\t") + "'";
    }

    @Nested
    @DisplayName("says what the regular-expression reader said")
    class AsBefore {
        @ParameterizedTest(name = "case {index}")
        @ValueSource(strings = {
            "alloc a 1\nfree a\nempty_cache\n",
            "alloc a 1", "\n\n\nalloc a 1\n\n", "  alloc\t a \t 4KiB  # comment\n# only\n",
            "alloc a 1\r\nfree a\r\n", "alloc a 1\rfree a\r", "alloc a 1\r\rfree a", "\r\n\r\n",
            "alloc a 1.5GiB", "alloc a 3mib", "alloc a 3MB", "alloc a 2 bytes", "alloc a 2Bytes",
            "alloc a 0", "alloc a 0KiB", "alloc a -5", "alloc a +5", "alloc a 12XB", "alloc a 1..5M",
            "alloc a .5KiB", "alloc a 5.", "alloc a 1KiBB", "alloc a KiB", "alloc a 9223372036854775807",
            "alloc a 9223372036854775808", "alloc a 999999999999999999", "alloc a 9999999999999999999",
            "alloc a 9007199254740993KiB", "alloc a 8388608TiB", "alloc a 8388607TiB", "alloc a 0000000000000000000001",
            "alloc a\u000B b 1", "alloc a\fb", "alloc a b\u0001 5", "alloc a \u00015", "\u0001alloc a 5\u0002",
            "alloc a 5\u212AiB", "alloc a \u0665", "alloc a 5 k", "malloc b 2", "alloc", "free", "free a b",
            "empty_cache now", "Alloc a 1", "alloc a 1#free a", "#\n#\n   #x\nempty_cache", "alloc\u00a0a 1",
            "alloc h\u00e9 1\nfree h\u00e9", "alloc \u4e2d\u6587 2KiB", "alloc \ud83d\ude00 1", "\u00e9alloc a 1",
            "alloc a 1\u00e9", "alloc a \u00851", "\u2028alloc a 1", "alloc a 1\u3000", "f\u00e9e a",
            "alloc a 1.5", "alloc a 2.5B", "alloc a .5bytes", "alloc a 2.0", "alloc a 1.5.5", "alloc a \u0665.5",
        })
        @DisplayName("on hand-picked lines")
        void handPicked(String text) throws IOException {
            sameAsReference(text);
        }

        @Test
        @DisplayName("on characters of two, three and four bytes cut at every read boundary")
        void multiByteCharacters() throws IOException {
            StringBuilder sb = new StringBuilder();
            String[] handles = {"\u00e9t\u00e9", "\u4e2d", "\ud83d\ude00x", "a\u00df"};
            for (int i = 0; i < 1000; i++) {
                String h = handles[i % handles.length] + (i / 8);
                sb.append(i % 2 == 0 ? "alloc " + h + " " + (1 + i) + "\n" : "free " + handles[(i - 1) % 4] + ((i - 1) / 8) + "\n");
            }
            sb.append("alloc ").append("\u00e9".repeat(9000)).append("\ud83d\ude00 1\n");     // past a chunk of chars
            sameAsReference(sb.toString());
            // a lone surrogate (a broken Java string; never from a decoded file) reads as '?'
            assertThat(actual(trickle("alloc a\ud800 1\nalloc b\udc00 2\nfree \ud800", 1), true))
                    .isEqualTo(reference("alloc a? 1\nalloc b? 2\nfree ?"));
        }

        @Test
        @DisplayName("on a line longer than the read buffer")
        void longLine() throws IOException {
            sameAsReference("alloc " + "h".repeat(200_000) + " 4KiB\nfree " + "h".repeat(200_000) + "\n");
            sameAsReference("# " + "x".repeat(150_000) + "\r\nalloc a 1\r\n");
        }

        @Test
        @DisplayName("on seeded random traces of legal and broken lines")
        void seededRandom() throws IOException {
            String[] pieces = {"alloc", "free", "empty_cache", "a", "b7", "x", "1", "512", "4KiB", "3mib", "1.5GiB",
                "0", "12XB", "2 bytes", "#", "# c", " ", "  ", "\t", "\u000B", "\f", "\u0001", "\r", "\n", "\r\n",
                "9223372036854775807", "5T", ".", "k", "alloc q 7"};
            for (long seed = 1; seed <= 400; seed++) {
                Random r = new Random(seed);
                StringBuilder sb = new StringBuilder();
                int n = 1 + r.nextInt(40);
                for (int i = 0; i < n; i++) {
                    sb.append(pieces[r.nextInt(pieces.length)]);
                    if (r.nextInt(3) == 0) sb.append(' ');
                    if (r.nextInt(4) == 0) sb.append('\n');
                }
                sameAsReference(sb.toString());
            }
        }
    }

    @Test
    @DisplayName("sizes read fast (digits and an ASCII unit) say what Bytes.parse says: each unit in either case at the"
            + " overflow edges and past 18 digits, and every spelling one character from a unit")
    void unitsAsBytesParseReadsThem() throws IOException {
        String[] units = {"", "b", "bytes", "k", "kb", "kib", "m", "mb", "mib", "g", "gb", "gib", "t", "tb", "tib"};
        // Long.MAX_VALUE / scale for each unit, and one more: the last size that fits, the first that does not
        String[] numbers = {"0", "1", "4", "007", "999999999999999999", "1000000000000000000", "9223372036854775807",
            "9223372036854775808", "9007199254740991", "9007199254740992", "8796093022207", "8796093022208",
            "8589934591", "8589934592", "8388607", "8388608"};
        String near = "bkiytesxB@[`{";                    // letters of units, their neighbours in ASCII
        List<String> sizes = new ArrayList<>();
        for (String u : units) {
            for (String n : numbers) sizes.add(n + u);
            sizes.add("4" + u.toUpperCase(java.util.Locale.ROOT));
            for (char c : near.toCharArray()) sizes.add("4" + u + c);                                  // one more
            for (int at = 0; at < u.length(); at++) {
                sizes.add("4" + u.substring(0, at) + u.substring(at + 1));                            // one left out
                for (char c : near.toCharArray()) sizes.add("4" + u.substring(0, at) + c + u.substring(at + 1));   // one changed
            }
        }
        sizes.addAll(List.of("x", "kib", "z9", "abc", "@", ":", "/4", "4/", "-1", "+4", "4-"));   // no digits first
        for (String size : sizes) {
            String text = "alloc a " + size + "\n";
            assertThat(actual(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), true))
                    .as("'%s'", size).isEqualTo(reference(text));
        }
    }

    @ParameterizedTest(name = "''{0}'' goes by ''{1}''")
    @CsvSource({"-, <stdin>", "run.trace, run.trace", "./-, ./-", "--, --", "' -', ' -'"})
    @DisplayName("the FILE argument '-' (standard input) goes by <stdin>, as JShell, Python and gcc call it; any other name as given")
    void nameOf(String file, String name) {
        assertThat(TraceReader.nameOf(file)).isEqualTo(name);
        assertThat(TraceReader.STANDARD_INPUT).isEqualTo("<stdin>");
    }

    @ParameterizedTest(name = "''{0}'' is refused")
    @ValueSource(strings = {"1.5", "2.25B", "0.5", ".5", "3.5bytes", "1.50b"})
    @DisplayName("a fraction of a byte is refused, naming the line and the value (it rounded to a whole byte before)")
    void fractionOfAByte(String size) {
        assertThat(actual(new StringReader("alloc a 4KiB\nalloc b " + size + "\n"), true)).containsExactly(
                "1 alloc a 4096", "error f:2: bad size '" + size + "': a number of bytes is whole (a unit forgotten? 1.5MiB, 1.5GiB)");
    }

    @ParameterizedTest(name = "''{0}'' is {1} bytes")
    @CsvSource({"5., 5", "2.0, 2", "2.00B, 2", "1.5KiB, 1536", "0.0005KiB, 1", "1.5GiB, 1610612736"})
    @DisplayName("a whole number of bytes written with a point, or a fraction of a larger unit, still reads")
    void wholeOrLargerUnit(String size, long bytes) {
        assertThat(actual(new StringReader("alloc a " + size + "\n"), false)).containsExactly("1 alloc a " + bytes);
    }

    @Nested
    @DisplayName("tracks handles in a table")
    class HandleTracking {
        @Test
        @DisplayName("from its buffer: an alloc finds or adds its handle, a free finds and removes it, empty_cache touches nothing")
        void tracksFromTheBuffer() {
            Handles h = new Handles();
            int a = h.add("alpha");
            TraceReader r = new TraceReader(new StringReader(
                    "free alpha\nfree beta\nalloc beta 1\nalloc beta 2\nalloc gamma 3\nfree beta\nempty_cache\n"), "f");
            assertThat(r.advance()).isTrue();
            assertThat(r.track(h)).as("free of a tracked handle: its id").isEqualTo(a);
            assertThat(h.find("alpha")).as("and it is tracked no longer").isEqualTo(-1);
            assertThat(r.advance()).isTrue();
            assertThat(r.track(h)).as("free of a handle not tracked").isEqualTo(-1);
            assertThat(h.size()).isZero();
            assertThat(r.advance()).isTrue();
            int b = r.track(h);
            assertThat(h.find("beta")).as("an alloc adds a new handle").isEqualTo(b);
            assertThat(r.advance()).isTrue();
            assertThat(r.track(h)).as("an alloc of a tracked handle finds it (the replay judges it)").isEqualTo(b);
            assertThat(r.advance()).isTrue();
            int g = r.track(h);
            assertThat(g).isNotEqualTo(b);
            assertThat(h.size()).isEqualTo(2);
            assertThat(r.advance()).isTrue();
            assertThat(r.track(h)).isEqualTo(b);
            assertThat(h.find("beta")).isEqualTo(-1);
            assertThat(r.advance()).isTrue();
            assertThat(r.track(h)).as("empty_cache").isEqualTo(-1);
            assertThat(h.size()).isEqualTo(1);
            assertThat(h.find("gamma")).isEqualTo(g);
        }

        @Test
        @DisplayName("a handle of any characters, found both ways: by its string and from the bytes read")
        void anyCharacters() {
            Handles h = new Handles();
            int e = h.add("\u00e9t\u00e9");
            String text = "alloc \u00e9t\u00e9 1\nalloc \ud83d\ude00 2\nfree \u00e9t\u00e9\n";
            TraceReader r = new TraceReader(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), "f");
            assertThat(r.advance()).isTrue();
            assertThat(r.track(h)).isEqualTo(e);
            assertThat(r.advance()).isTrue();
            int smile = r.track(h);
            assertThat(smile).isNotEqualTo(e);
            assertThat(h.name(smile)).isEqualTo("\ud83d\ude00");
            assertThat(h.find("\ud83d\ude00")).isEqualTo(smile);
            assertThat(h.find("\u00e9t")).isEqualTo(-1);
            assertThat(r.advance()).isTrue();
            assertThat(r.track(h)).isEqualTo(e);
            assertThat(h.find("\u00e9t\u00e9")).isEqualTo(-1);
        }
    }

    @Nested
    @DisplayName("the handle table")
    class HandleTable {
        @Test
        @DisplayName("tells apart handles whose hashes are equal, by string and from bytes, short and long")
        void equalHashes() {
            // "Aa" and "BB" have the same String.hashCode, and so do their concatenations
            String[] names = {"Aa", "BB", "AaAa", "AaBB", "BBAa", "BBBB", "AaAaAaAa", "AaAaAaBB", "BBBBBBBB"};
            Handles h = new Handles();
            int[] ids = new int[names.length];
            for (int i = 0; i < names.length; i++) {
                byte[] b = names[i].getBytes(StandardCharsets.US_ASCII);
                ids[i] = i % 2 == 0 ? h.add(names[i]) : h.add(b, 0, b.length);
            }
            for (int i = 0; i < names.length; i++) {
                String fresh = new String(names[i].toCharArray());         // equal, not the same object
                byte[] b = names[i].getBytes(StandardCharsets.US_ASCII);
                assertThat(h.find(fresh)).as(names[i]).isEqualTo(ids[i]);
                assertThat(h.find(b, 0, b.length)).as("%s from bytes", names[i]).isEqualTo(ids[i]);
                assertThat(h.name(ids[i])).isEqualTo(names[i]);
            }
            h.remove(ids[1]);                                               // BB goes; Aa stays
            assertThat(h.find("BB")).isEqualTo(-1);
            byte[] aaBB = "AaBB".getBytes(StandardCharsets.US_ASCII);          // found from bytes and removed
            assertThat(h.findAndRemove(aaBB, 0, aaBB.length)).isEqualTo(ids[3]);
            assertThat(h.findAndRemove(aaBB, 0, aaBB.length)).as("gone").isEqualTo(-1);
            for (int i : new int[] {2, 4, 5, 6, 7, 8}) {
                byte[] b = names[i].getBytes(StandardCharsets.US_ASCII);
                assertThat(h.find(b, 0, b.length)).as("%s after AaBB left", names[i]).isEqualTo(ids[i]);
            }
            assertThat(h.find(new byte[] {'B', 'B'}, 0, 2)).isEqualTo(-1);
            assertThat(h.find(new String("Aa".toCharArray()))).isEqualTo(ids[0]);
        }

        @ParameterizedTest(name = "seed {0}")
        @CsvSource({"1", "2", "3", "4"})
        @DisplayName("agrees with a HashMap under seeded random adds and removes, and reuses ids")
        void againstAHashMap(long seed) {
            Random r = new Random(seed);
            Handles h = new Handles();
            Map<String, Integer> model = new HashMap<>();
            Map<Integer, String> byId = new HashMap<>();
            // short, not ASCII, past 7 bytes, a NUL, 7 to 9 bytes (the packed form's edge)
            String[] stems = {"h", "\u00e9", "handle-", "a\u0000", "abcdef"};
            int most = 0;
            for (int step = 0; step < 50_000; step++) {
                String name = stems[r.nextInt(stems.length)] + r.nextInt(750);
                Integer id = model.get(name);
                assertThat(h.find(name)).as("find %s at step %d", name, step).isEqualTo(id == null ? -1 : id);
                byte[] utf8 = name.getBytes(StandardCharsets.UTF_8);
                assertThat(h.find(utf8, 0, utf8.length)).as("find %s from bytes at step %d", name, step)
                        .isEqualTo(id == null ? -1 : id);
                if (id != null) {
                    assertThat(h.find(byId.get(id))).as("find %s by the string added", name).isEqualTo(id);
                }
                if (id == null) {
                    int got = r.nextBoolean() ? h.add(name) : h.add(utf8, 0, utf8.length);
                    assertThat(byId).doesNotContainKey(got);
                    model.put(name, got);
                    byId.put(got, name);
                } else if (r.nextBoolean()) {
                    // a replay's free: by id, or found and removed from the bytes read in one walk
                    if (r.nextBoolean()) {
                        h.remove(id);
                    } else {
                        assertThat(h.findAndRemove(utf8, 0, utf8.length)).as("findAndRemove %s", name).isEqualTo(id);
                    }
                    model.remove(name);
                    byId.remove(id);
                }
                if (r.nextInt(8) == 0) {                         // a free of a handle not tracked changes nothing
                    byte[] other = (stems[r.nextInt(stems.length)] + r.nextInt(750)).getBytes(StandardCharsets.UTF_8);
                    String text = new String(other, StandardCharsets.UTF_8);
                    Integer known = model.get(text);
                    if (known == null) assertThat(h.findAndRemove(other, 0, other.length)).isEqualTo(-1);
                }
                assertThat(h.size()).isEqualTo(model.size());
                most = Math.max(most, model.size());
            }
            for (Map.Entry<String, Integer> e : model.entrySet()) {
                assertThat(h.name(e.getValue())).isEqualTo(e.getKey());
                byte[] utf8 = ("x" + e.getKey() + "y").getBytes(StandardCharsets.UTF_8);
                assertThat(h.find(utf8, 1, utf8.length - 1)).as("from bytes: %s", e.getKey()).isEqualTo(e.getValue());
            }
            assertThat(h.idLimit()).as("ids are reused: no more than the most tracked at once").isEqualTo(most);
        }
    }
}
