package vramlab.trace;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The tokenizer's edges that the regular-expression reader ({@link TraceReaderTest#reference})
 * and the class comment define, where PIT found no test: a control character beside \s,
 * a line that crosses a refill, a trace longer than the longest line, the 1 MiB cap, the
 * encoding of a decoded text at UTF-8's boundaries (through the stream's both reads), and how an error quotes its text.
 */
@DisplayName("the trace reader at its edges")
class TraceReaderEdgesTest {


    @Test
    @DisplayName("a control character that is not \\s: trimmed at the line's ends, a word's part inside, \\s still splits")
    void controlCharacters() throws IOException {
        for (String line : new String[] {"alloc\ta\u0001 4", "alloc a\u0001\t4", "free\u000b\u0001b", "free\fb\u0001",
                "\u0000free a b", " free a\u0001 b", "free a\u0001 b ", "\u0001 free  a \u0002", "free \u0001b \t",
                "alloc\u000b\u0002\f9"}) {
            TraceReaderTest.asReference("alloc x 1\n" + line + "\n");
        }
    }

    @Test
    @DisplayName("a line whose words end before a refill: its error quotes the line as written")
    void wordsBeforeARefill() throws IOException {
        TraceReaderTest.asReference("alloc x 1\n".repeat(10) + "free a b" + " ".repeat(70_000) + "\n");
        TraceReaderTest.asReference("alloc x 1\n".repeat(10) + "alloc a" + " ".repeat(70_000) + "# c\n");
    }

    @Test
    @DisplayName("a trace longer than the longest line reads to its end: memory grows with a line, not with the trace")
    void traceLongerThanALine() {
        String text = "\n" + "empty_cache\n".repeat(100_000);                  // 1.2 MB, an empty line first
        List<String> events = TraceReaderTest.actual(
                new ByteArrayInputStream(text.getBytes(StandardCharsets.US_ASCII)), true);
        assertThat(events).hasSize(100_000).last().isEqualTo("100001 empty_cache  0");
    }

    @Test
    @DisplayName("a line of more than 1 MiB is refused, naming its line; one of 1 MiB with its end reads")
    void lineCap() {
        String longest = "#" + "x".repeat(TraceReader.MAX_LINE - 2) + "\n";          // 1 MiB with its \n
        assertThat(TraceReaderTest.actual(new ByteArrayInputStream(
                ("empty_cache\n" + longest + "empty_cache\n").getBytes(StandardCharsets.US_ASCII)), true))
                .containsExactly("1 empty_cache  0", "3 empty_cache  0");
        String over = "#" + "x".repeat(TraceReader.MAX_LINE) + "\n";
        assertThat(TraceReaderTest.actual(new ByteArrayInputStream(
                ("empty_cache\n" + over).getBytes(StandardCharsets.US_ASCII)), true))
                .containsExactly("1 empty_cache  0", "error f:2: a line longer than 1 MiB (1048576 bytes);"
                        + " a trace line is 'alloc <handle> <size>', 'free <handle>' or 'empty_cache'");
    }

    @Test
    @DisplayName("decoded text is encoded as String.getBytes(UTF_8) does, at each UTF-8 length's edges")
    void encodingEdges() {
        String handles = "\u007f \u0080 \u07ff \u0800 \uffff \ud800\udc00 \udbff\udfff \ud900\udc01 \ud800x \udc00";
        StringBuilder text = new StringBuilder();
        for (String h : handles.split(" ")) text.append("alloc ").append(h).append(" 4\nfree ").append(h).append('\n');
        asBytes(text.toString());
        asBytes("#" + "\u20ac".repeat(9000) + "\nalloc a 4\n");                  // a whole read of 3-byte characters
    }

    @Test
    @DisplayName("the encoding stream read a byte at a time gives String.getBytes(UTF_8)'s bytes, then -1; it leaves the Reader open")
    void encodingByteAtATime() throws IOException {
        String text = "a\u007f\u0080\u07ff\u0800\uffff\ud800\udc00\udbff\udfff\ud800x\udc00" + "\u20ac".repeat(3000) + "\ud800";
        boolean[] closed = {false};
        StringReader source = new StringReader(text) {
            @Override public void close() { closed[0] = true; }
        };
        java.io.ByteArrayOutputStream read = new java.io.ByteArrayOutputStream();
        try (TraceReader.Utf8Encoding in = new TraceReader.Utf8Encoding(source)) {
            for (int b; (b = in.read()) != -1; ) read.write(b);
            assertThat(in.read()).isEqualTo(-1);
        }
        assertThat(read.toByteArray()).isEqualTo(text.getBytes(StandardCharsets.UTF_8));
        assertThat(closed[0]).as("closing the trace's stream is its opener's").isFalse();
    }

    private static void asBytes(String text) {
        assertThat(TraceReaderTest.actual(new StringReader(text), true)).isEqualTo(TraceReaderTest.actual(
                new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), true));
    }

    @Test
    @DisplayName("an error quotes at most 60 characters, then '...', and a control character as \\xNN")
    void shown() {
        assertThat(TraceReader.shown("x".repeat(60))).isEqualTo("x".repeat(60));
        assertThat(TraceReader.shown("x".repeat(61))).isEqualTo("x".repeat(60) + "...");
        assertThat(TraceReader.shown("a b~")).isEqualTo("a b~");
        assertThat(TraceReader.shown("\u0000\u0001\u001b\u001f\u007f")).isEqualTo("\\x00\\x01\\x1b\\x1f\\x7f");
    }

    @Test
    @DisplayName("the cursor's handle length and the reader's file name")
    void handleLengthAndFile() {
        TraceReader r = new TraceReader(new ByteArrayInputStream(
                "alloc h\u00e9llo 4\nempty_cache\n".getBytes(StandardCharsets.UTF_8)), "run.trace");
        assertThat(r.file()).isEqualTo("run.trace");
        assertThat(r.advance()).isTrue();
        assertThat(r.handleLength()).isEqualTo(6);                                   // UTF-8 bytes
        assertThat(r.advance()).isTrue();
        assertThat(r.handleLength()).isZero();
    }
}
