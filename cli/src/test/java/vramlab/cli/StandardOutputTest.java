package vramlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Standard output that can no longer be written ends the command: a replay piped into
 * {@code head} stops where the reader went away instead of replaying the rest into a closed
 * pipe, and a full disk is an error, not a silent exit 0.
 */
@DisplayName("standard output that can no longer be written")
class StandardOutputTest {
    /** A trace of {@code events} events made as it is read, counting the bytes read. */
    static final class Trace extends InputStream {
        private final int events;
        private int event;
        private byte[] line = new byte[0];
        private int at;
        long read;

        Trace(int events) { this.events = events; }

        @Override
        public int read() {
            if (at == line.length) {
                if (event == events) return -1;
                int k = event++;
                String s = k % 2 == 0 ? "alloc h" + (k / 2) + " " + (512 + k % 7 * 4096) + "\n" : "free h" + (k / 2) + "\n";
                line = s.getBytes(StandardCharsets.US_ASCII);
                at = 0;
            }
            read++;
            return line[at++];
        }

        boolean atEnd() { return event == events && at == line.length; }
    }

    /** Takes {@code limit} bytes, then fails every write with {@code message}, counting the tries. */
    static final class Failing extends OutputStream {
        private final String message;
        private final int limit;
        final ByteArrayOutputStream taken = new ByteArrayOutputStream();
        int failedWrites;

        Failing(String message, int limit) {
            this.message = message;
            this.limit = limit;
        }

        @Override public void write(int b) throws IOException { write(new byte[] {(byte) b}, 0, 1); }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            if (taken.size() + len > limit) {
                failedWrites++;
                throw new IOException(message);
            }
            taken.write(b, off, len);
        }
    }

    private static Io io(InputStream in, OutputStream stdout, ByteArrayOutputStream err) {
        PrintStream out = new PrintStream(new BufferedOutputStream(new StandardOutput(stdout), 1 << 16), false,
                StandardCharsets.UTF_8);
        return new Io(in, out, new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @Test
    @DisplayName("when the reader goes away (| head), --csv stops there: status 0, nothing on stderr, the trace left unread")
    void readerGoesAway() {
        Trace trace = new Trace(400_000);
        Failing pipe = new Failing("Broken pipe", 100_000);
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = Main.run(new String[] {"replay", "--csv", "-"}, io(trace, pipe, err));
        assertThat(status).isZero();
        assertThat(err.toString(StandardCharsets.UTF_8)).isEmpty();
        assertThat(pipe.failedWrites).as("one failed write, and none tried after it").isEqualTo(1);
        assertThat(trace.atEnd()).as("the replay stopped before the trace's end").isFalse();
        assertThat(pipe.taken.toString(StandardCharsets.UTF_8)).startsWith("step,op,handle,bytes,result,requested,allocated,reserved\n1,alloc,h0,512,ok,");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"No space left on device", "Input/output error"})
    @DisplayName("any other failure is an error: one line naming it, status 1, no stack trace")
    void otherFailure(String message) {
        Trace trace = new Trace(400_000);
        Failing disk = new Failing(message, 100_000);
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = Main.run(new String[] {"replay", "--csv", "-"}, io(trace, disk, err));
        assertThat(status).isEqualTo(1);
        assertThat(err.toString(StandardCharsets.UTF_8)).isEqualTo("error: replay: could not write standard output: " + message + "\n");
        assertThat(trace.atEnd()).isFalse();
    }

    @Test
    @DisplayName("the summary's replay stops too, its OOM lines written behind on another thread")
    void summaryStops() {
        StringBuilder t = new StringBuilder();
        for (int i = 0; i < 60_000; i++) t.append("alloc h").append(i).append(" 3MiB\n");   // the card fills: OOM lines
        InputStream in = new java.io.ByteArrayInputStream(t.toString().getBytes(StandardCharsets.US_ASCII));
        Failing pipe = new Failing("Broken pipe", 70_000);
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = Main.run(new String[] {"replay", "--device", "1GiB", "-"}, io(in, pipe, err));
        assertThat(status).isZero();
        assertThat(err.toString(StandardCharsets.UTF_8)).isEmpty();
        assertThat(pipe.failedWrites).isEqualTo(1);
        assertThat(pipe.taken.toString(StandardCharsets.UTF_8)).startsWith("OOM at step ");
    }

    @Test
    @DisplayName("while writes succeed, it passes every byte through as it is")
    void passesThrough() {
        ByteArrayOutputStream plain = new ByteArrayOutputStream();
        ByteArrayOutputStream wrapped = new ByteArrayOutputStream();
        assertThat(Main.run(new String[] {"replay", "--csv", "-"},
                new Io(new Trace(50_000), new PrintStream(plain, false, StandardCharsets.UTF_8), System.err))).isZero();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        assertThat(Main.run(new String[] {"replay", "--csv", "-"}, io(new Trace(50_000), wrapped, err))).isZero();
        assertThat(wrapped.toByteArray()).isEqualTo(plain.toByteArray());
        assertThat(plain.size()).isGreaterThan(1_000_000);   // past the 64 KiB buffer many times
    }
}
