package vramlab.trace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The read-ahead cursor where PIT found no test. What it throws when reading fails in other ways
 * than a trace's syntax: an {@code Error} on its reading thread comes out as itself, as it would
 * from a reader on the replay's own thread; a checked exception (which a stream can throw
 * undeclared) comes out wrapped; a replay interrupted while it waits for a batch stops, still
 * interrupted. And each handle's bytes as the reader has them, and how far ahead it reads.
 */
@DisplayName("the read-ahead trace reader at its edges")
class ReadAheadEdgesTest {

    /** A stream whose first read hands out {@code good}, and whose next read throws {@code failure}. */
    private static InputStream failingAfter(String good, Throwable failure) {
        return new ByteArrayInputStream(good.getBytes(StandardCharsets.US_ASCII)) {
            @Override
            public synchronized int read(byte[] b, int off, int len) {
                if (pos == count) throw ReadAheadEdgesTest.<RuntimeException>sneaky(failure);
                return super.read(b, off, len);
            }
        };
    }

    /** Throws any throwable, a checked one too, past a signature that declares none. */
    @SuppressWarnings("unchecked")
    private static <T extends Throwable> T sneaky(Throwable t) throws T {
        throw (T) t;
    }

    @Test
    @DisplayName("an Error on the reading thread is thrown as itself, after every event before it")
    void errorAsItself() {
        OutOfMemoryError oom = new OutOfMemoryError("Java heap space");
        try (ReadAhead r = new ReadAhead(failingAfter("alloc a 1\nfree a\n", oom), "f", new Handles(), 1)) {
            List<Long> lines = new ArrayList<>();
            assertThatThrownBy(() -> { while (r.advance()) lines.add(r.line()); }).isSameAs(oom);
            assertThat(lines).containsExactly(1L, 2L);
        }
    }

    @Test
    @DisplayName("a checked exception a stream threw undeclared comes out in an IllegalStateException, its cause")
    void checkedWrapped() {
        Exception timeout = new java.util.concurrent.TimeoutException("no data for 30 s");
        try (ReadAhead r = new ReadAhead(failingAfter("empty_cache\n", timeout), "f", new Handles(), 2)) {
            assertThat(r.advance()).isTrue();
            assertThatThrownBy(r::advance).isInstanceOf(IllegalStateException.class).hasCause(timeout);
        }
    }

    @Test
    @DisplayName("a replay interrupted while it waits for a batch stops with an IllegalStateException, and stays interrupted")
    void interruptedWhileWaiting() {
        try (ReadAhead r = new ReadAhead(new ByteArrayInputStream("alloc a 1\n".getBytes(StandardCharsets.US_ASCII)),
                "f", new Handles(), 1)) {
            Thread.currentThread().interrupt();
            try {
                assertThatThrownBy(r::advance).isInstanceOf(IllegalStateException.class)
                        .hasMessage("interrupted while waiting for the trace")
                        .hasCauseInstanceOf(InterruptedException.class);
            } finally {
                assertThat(Thread.interrupted()).as("the interrupt is kept for the caller (and cleared here)").isTrue();
            }
        }
    }

    @Test
    @DisplayName("each event's handle length and bytes are the reader's: the UTF-8 bytes as the trace has them")
    void handleBytes() {
        String text = "alloc h\u00e9 4\nempty_cache\nfree a-handle-longer-than-sixteen-bytes\nalloc \ud83d\ude00 1\n";
        byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
        TraceReader reader = new TraceReader(new ByteArrayInputStream(utf8), "f");
        try (ReadAhead ahead = new ReadAhead(new ByteArrayInputStream(utf8), "f", new Handles(), 4)) {
            List<Integer> lengths = new ArrayList<>();
            while (reader.advance()) {
                assertThat(ahead.advance()).isTrue();
                byte[] mine = new byte[64];
                byte[] theirs = new byte[64];
                int n = ahead.copyHandle(mine, 3);
                assertThat(ahead.handleLength()).as("line %d", reader.line()).isEqualTo(reader.handleLength()).isEqualTo(n);
                assertThat(reader.copyHandle(theirs, 3)).isEqualTo(n);
                assertThat(mine).isEqualTo(theirs);
                lengths.add(n);
            }
            assertThat(ahead.advance()).isFalse();
            assertThat(lengths).containsExactly(3, 0, 34, 4);
        }
    }

    @Test
    @DisplayName("reads ahead of a replay that has not asked yet: the BATCHES batches queued and one more waiting to join them, no further")
    void readsAheadSoFar() throws InterruptedException {
        java.util.concurrent.atomic.AtomicInteger served = new java.util.concurrent.atomic.AtomicInteger();
        InputStream oneLinePerRead = new InputStream() {                       // counts the lines the reader asked for
            @Override
            public int read() { throw new AssertionError("read by the byte"); }

            @Override
            public int read(byte[] b, int off, int len) {
                byte[] line = ("alloc h" + served.incrementAndGet() + " 4\n").getBytes(StandardCharsets.US_ASCII);
                System.arraycopy(line, 0, b, off, line.length);
                return line.length;
            }
        };
        int batch = 2;
        int ahead = (ReadAhead.BATCHES + 1) * batch;
        try (ReadAhead r = new ReadAhead(oneLinePerRead, "f", new Handles(), batch)) {
            for (int i = 0; i < 1000 && served.get() < ahead; i++) Thread.sleep(10);    // at most 10 s on a busy machine
            Thread.sleep(20);
            assertThat(served.get()).as("lines read before the replay asks").isEqualTo(ahead);
            for (int line = 1; line <= 3 * ahead; line++) {
                assertThat(r.advance()).isTrue();
                assertThat(r.line()).isEqualTo(line);
            }
        }
    }
}
