package vramlab.trace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Reading a trace on a second thread changes nothing a replay can see: the same events, the
 * same handles tracked with the same ids, the same first error at the same point (TraceReaderTest runs
 * every one of its cases through it too).
 */
@DisplayName("the read-ahead trace reader")
class ReadAheadTest {

    /**
     * Every part of every event and its handle's id as the cursor tracks it in {@code handles},
     * then the error if any, then every handle still tracked there with its id.
     */
    private static List<String> walk(TraceCursor r, Handles handles) {
        List<String> out = new ArrayList<>();
        try {
            while (r.advance()) {
                out.add(r.line() + " " + r.op() + " " + r.handle() + " " + r.size() + " id " + r.track(handles));
            }
        } catch (RuntimeException e) {
            out.add(e.getClass().getSimpleName() + ": " + e.getMessage());
        }
        out.add(handles.size() + " tracked");
        for (String stem : STEMS) {
            for (int i = 0; i < 40; i++) {
                int id = handles.find(stem + i);
                if (id >= 0) out.add(stem + i + " " + id);
            }
        }
        return out;
    }

    private static final String[] STEMS = {"t", "h\u00e9", "a-long-handle-", "x"};

    private static String randomTrace(Random r, int lines) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < lines; i++) {
            String h = STEMS[r.nextInt(STEMS.length)] + r.nextInt(40);
            switch (r.nextInt(10)) {
                case 0 -> sb.append("empty_cache\n");
                case 1 -> sb.append("# a comment\n");
                case 2, 3, 4 -> sb.append("free ").append(h).append(r.nextBoolean() ? "\n" : "\r\n");
                default -> sb.append("alloc ").append(h).append(' ').append(1 + r.nextInt(1 << 22)).append('\n');
            }
        }
        return sb.toString();
    }

    @ParameterizedTest(name = "batches of {0}")
    @ValueSource(ints = {1, 2, 7, 64, ReadAhead.BATCH})
    @DisplayName("gives the events, handles and ids a reader on the replay's own thread gives")
    void sameAsTheReader(int batch) {
        Random r = new Random(batch);
        for (int trial = 0; trial < 20; trial++) {
            String text = randomTrace(r, 1 + r.nextInt(600));
            if (trial % 4 == 3) text += "alloc broken 12XB\nalloc after 5\n";     // an error, then more
            byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
            List<String> expected = walk(new TraceReader(new ByteArrayInputStream(utf8), "f"), new Handles());
            Handles handles = new Handles();
            try (ReadAhead ahead = new ReadAhead(new ByteArrayInputStream(utf8), "f", handles, batch)) {
                assertThat(walk(ahead, handles)).as("trial %d", trial).isEqualTo(expected);
            }
        }
    }

    @Test
    @DisplayName("tracks handles only in the table it was made with: its reading thread owns that one")
    void onlyItsOwnTable() {
        byte[] utf8 = "alloc a 1\n".getBytes(StandardCharsets.UTF_8);
        try (ReadAhead r = new ReadAhead(new ByteArrayInputStream(utf8), "f", new Handles(), 1)) {
            assertThat(r.advance()).isTrue();
            assertThatThrownBy(() -> r.track(new Handles())).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("the table it was made with");
        }
    }

    @Test
    @DisplayName("throws a syntax error only when the replay reaches its line, and again if asked")
    void errorInItsPlace() {
        byte[] utf8 = "alloc a 1\nalloc b 2\nfree\nalloc c 3\n".getBytes(StandardCharsets.UTF_8);
        try (ReadAhead r = new ReadAhead(new ByteArrayInputStream(utf8), "trace.txt", new Handles(), 1)) {
            assertThat(r.advance()).isTrue();
            assertThat(r.line()).isEqualTo(1);
            assertThat(r.advance()).isTrue();
            assertThat(r.handle()).isEqualTo("b");
            assertThatThrownBy(r::advance).isInstanceOf(TraceException.class)
                    .hasMessage("trace.txt:3: 'free': expected free <handle>");
            assertThatThrownBy(r::advance).isInstanceOf(TraceException.class);
        }
    }

    @Test
    @DisplayName("passes on an input error as the reader on the replay's thread would throw it")
    void inputError() {
        byte[] good = "empty_cache\n".repeat(5).getBytes(StandardCharsets.US_ASCII);
        InputStream failing = new InputStream() {
            private int at;

            @Override
            public int read() throws IOException {
                if (at < good.length) return good[at++];
                throw new IOException("disk on fire");
            }
        };
        try (ReadAhead r = new ReadAhead(failing, "f", new Handles(), 2)) {
            List<Long> lines = new ArrayList<>();
            assertThatThrownBy(() -> { while (r.advance()) lines.add(r.line()); })
                    .isInstanceOf(UncheckedIOException.class).hasMessage("f: disk on fire");
            assertThat(lines).as("every event before the failure first").containsExactly(1L, 2L, 3L, 4L, 5L);
        }
    }

    @Test
    @DisplayName("its thread ends at the end of the trace, and when closed before it")
    void threadEnds() throws InterruptedException {
        String text = "alloc a 1\nfree a\n".repeat(10_000);
        ReadAhead done = new ReadAhead(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), "f", new Handles(), 16);
        int events = 0;
        while (done.advance()) events++;
        assertThat(events).isEqualTo(20_000);
        assertThat(done.advance()).as("still at the end").isFalse();
        join(done);
        assertThat(done.reading()).as("ended with the trace").isFalse();

        ReadAhead closed = new ReadAhead(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), "f", new Handles(), 16);
        assertThat(closed.advance()).isTrue();          // its thread now waits for room to read ahead
        closed.close();
        join(closed);
        assertThat(closed.reading()).as("stopped by close").isFalse();
    }

    @Test
    @DisplayName("its thread waits on its input without holding the JVM open, and a close while it waits ends it")
    void waitsOnItsInput() throws IOException, InterruptedException {
        java.io.PipedOutputStream writer = new java.io.PipedOutputStream();
        ReadAhead r = new ReadAhead(new java.io.PipedInputStream(writer), "pipe", new Handles(), 4);
        writer.write("alloc a 1\n".getBytes(StandardCharsets.US_ASCII));
        writer.flush();
        assertThat(r.reading()).as("still reading: the pipe is open").isTrue();
        assertThat(r.daemon()).as("a daemon: a replay that stops early never hangs the exit").isTrue();
        r.close();
        join(r);
        assertThat(r.reading()).as("stopped by close while it waited on the pipe").isFalse();
        writer.close();
    }

    /** Waits for the reading thread (a liveness check: the thread either ends or the test fails after a minute). */
    private static void join(ReadAhead r) throws InterruptedException {
        for (int i = 0; i < 600 && r.reading(); i++) Thread.sleep(100);
    }
}
