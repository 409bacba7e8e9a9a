package vramlab.trace;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Where the trace reader's reads of its input end: a line's words before a refill and its
 * comment after, a line at the very start of the buffer, the input's first end (read no
 * further), and a gzip stream that breaks between two reads; and a size's unit, read from the
 * size alone. Each case is one that PIT showed no test held.
 */
@DisplayName("the trace reader across its reads")
class TraceReaderReadsTest {


    @Test
    @DisplayName("a line whose words end in one read and whose comment comes in the next: its error quotes the words alone")
    void commentAfterARefill() throws IOException {
        // the first read is 64 KiB: the line starts 46 bytes before its end, its comment 60 bytes after
        String before = "#" + "x".repeat(65_488) + "\n";                       // 65,490 bytes
        String text = before + "free a b" + " ".repeat(98) + "# the rest\nempty_cache\n";
        TraceReaderTest.asReference(text);
        assertThat(TraceReaderTest.actual(new ByteArrayInputStream(text.getBytes(StandardCharsets.US_ASCII)), true))
                .containsExactly("error f:2: 'free a b': expected free <handle>");
    }

    @Test
    @DisplayName("characters up to the space at a line's end are trimmed, a control character among them too")
    void trimmedAtTheEnd() throws IOException {
        for (String line : new String[] {"free a \u0001 ", "free a \u0000", "free a \u0001", "free a\t\u0002\f",
                "free a \u0001#\u00e9t\u00e9"}) {                                  // a comment of letters not ASCII
            TraceReaderTest.asReference(line + "\nempty_cache\n");                            // a word follows the line's end
            assertThat(TraceReaderTest.actual(new StringReader(line + "\nempty_cache\n"), true))
                    .as("'%s'", line).containsExactly("1 free a 0", "2 empty_cache  0");
        }
    }

    @Test
    @DisplayName("a first line that is only a comment holding a control character reads as no event")
    void controlInAFirstComment() throws IOException {
        for (String text : new String[] {"#\u0001\nalloc a 1\n", "# \u0002 x\r\nalloc a 1", "#\u0000"}) {
            TraceReaderTest.asReference(text);
        }
        assertThat(TraceReaderTest.actual(new ByteArrayInputStream("#\u0001\nalloc a 1\n".getBytes(StandardCharsets.US_ASCII)),
                true)).containsExactly("2 alloc a 1");
    }

    @Test
    @DisplayName("the trace ends at its input's first end: nothing is read after it (a terminal's Ctrl-D, then more typing)")
    void endIsFinal() {
        String[] reads = {"alloc a 1\n", null, "free a\n", null};          // null: the read answers -1
        InputStream terminal = new InputStream() {
            private int next;

            @Override
            public int read() { throw new AssertionError("read by the byte"); }

            @Override
            public int read(byte[] b, int off, int len) {
                assertThat(next).as("a read after the input's end").isLessThan(2);
                String text = reads[next++];
                if (text == null) return -1;
                byte[] bytes = text.getBytes(StandardCharsets.US_ASCII);
                System.arraycopy(bytes, 0, b, off, bytes.length);
                return bytes.length;
            }
        };
        TraceReader r = new TraceReader(terminal, "-");
        assertThat(r.advance()).isTrue();
        assertThat(r.handle()).isEqualTo("a");
        assertThat(r.advance()).isFalse();
        assertThat(r.advance()).as("asked again").isFalse();
    }

    @Test
    @DisplayName("a unit is read from the size alone: a size one letter from 'bytes' is refused whatever the handle before it")
    void unitNotFromTheHandle() {
        // with one digit, the letters three and four places before the unit are the handle's last two
        for (String line : new String[] {"alloc e 4bytas", "alloc se 4bytex"}) {
            String size = line.substring(line.lastIndexOf(' ') + 1);
            assertThat(TraceReaderTest.actual(new StringReader(line + "\n"), true)).as(line).containsExactly("error f:1: bad size '"
                    + size + "': expected bytes or a number with a unit (512B, 4KiB, 3MiB, 1.5GiB)");
        }
        assertThat(TraceReaderTest.actual(new StringReader("alloc se 4bytes\nalloc q 4BYTES\n"), true))
                .containsExactly("1 alloc se 4", "2 alloc q 4");
    }

    @Test
    @DisplayName("a last line without its newline reads its own bytes only, not what the buffer held past them before")
    void lastLineReadsItsOwnBytes() {
        // the first read fills the 64 KiB buffer; the second puts the last line at its front, where the
        // bytes just past it are still the first line's "tes"
        String first = "#0123456789tes" + "x".repeat(65_536 - 15) + "\n";
        String last = "alloc a 4by";                                         // "4by" then "tes" where it ended
        InputStream in = new SequenceInputStream(new ByteArrayInputStream(first.getBytes(StandardCharsets.US_ASCII)),
                new ByteArrayInputStream(last.getBytes(StandardCharsets.US_ASCII)));
        assertThat(TraceReaderTest.actual(in, true)).containsExactly(
                "error f:2: bad size '4by': expected bytes or a number with a unit (512B, 4KiB, 3MiB, 1.5GiB)");
    }

    private static final String TRACE;

    static {
        StringBuilder sb = new StringBuilder();
        for (int i = 1; i <= 3000; i++) sb.append(i % 3 == 0 ? "free h" + (i - 1) : "alloc h" + i + " " + 97 * i).append('\n');
        TRACE = sb.toString();
    }

    private static byte[] gzip(String text) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream z = new GZIPOutputStream(out)) {
            z.write(text.getBytes(StandardCharsets.US_ASCII));
        }
        return out.toByteArray();
    }

    /** Each event read as {@code line op}, then the error. */
    private static List<String> read(byte[] gz) throws IOException {
        List<String> out = new ArrayList<>();
        TraceReader r = new TraceReader(new GZIPInputStream(new ByteArrayInputStream(gz)), "t.gz");
        try {
            while (r.advance()) out.add(r.line() + " " + r.op().word() + " " + r.handle());
        } catch (TraceException e) {
            out.add(e.getMessage());
            assertThat(e.file()).isEqualTo("t.gz");
            assertThat(e.line()).as("the line after the last one read").isEqualTo(out.size());
        }
        return out;
    }

    @Test
    @DisplayName("a gzip cut in its trailer: every line read, then 'broken gzip data' naming the line after the last")
    void gzipCutInItsTrailer() throws IOException {
        byte[] gz = gzip(TRACE);
        List<String> events = read(Arrays.copyOf(gz, gz.length - 3));          // its length, 4 bytes, cut short
        assertThat(events).hasSize(3001);
        assertThat(events.get(2999)).isEqualTo("3000 free h2999");
        assertThat(events.get(3000)).isEqualTo("t.gz:3001: broken gzip data after this line (it ends early)");
    }

    @Test
    @DisplayName("a gzip cut in its data: the lines before the cut, then 'broken gzip data' naming the line cut and why")
    void gzipCutInItsData() throws IOException {
        byte[] gz = gzip(TRACE);
        List<String> events = read(Arrays.copyOf(gz, gz.length / 2));
        int read = events.size() - 1;
        assertThat(read).as("some lines, not all").isBetween(1, 2999);
        for (int i = 0; i < read; i++) assertThat(events.get(i)).startsWith((i + 1) + " ");
        assertThat(events.get(read)).isEqualTo("t.gz:" + (read + 1)
                + ": broken gzip data after this line (Unexpected end of ZLIB input stream)");
    }
}
