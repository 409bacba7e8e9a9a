package vramlab.cli;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.Locale;

/**
 * Standard output that stops the command when it can no longer be written. A {@code PrintStream}
 * swallows its stream's {@code IOException}s, so a replay piped into {@code head} went on to the
 * trace's end writing into a closed pipe, each row costing the JDK an exception: {@code replay
 * --csv} of 1M events into {@code head -1} took 17 s instead of a moment (issue 38), and output
 * lost to a full disk went unreported with exit status 0.
 *
 * <p>The first failed write throws {@link Closed}, an unchecked exception the {@code PrintStream}
 * lets through, which ends the command ({@link Main}: quietly with status 0 when the reader went
 * away, "error: ... could not write standard output" and status 1 for anything else). Every write
 * after it is dropped, so the launcher's last flush does not throw again.
 */
final class StandardOutput extends OutputStream {
    private final OutputStream out;
    private boolean failed;

    StandardOutput(OutputStream out) { this.out = out; }

    @Override
    public void write(int b) {
        if (failed) return;
        try {
            out.write(b);
        } catch (IOException e) {
            throw fail(e);
        }
    }

    @Override
    public void write(byte[] b, int off, int len) {
        if (failed) return;
        try {
            out.write(b, off, len);
        } catch (IOException e) {
            throw fail(e);
        }
    }

    @Override
    public void flush() {
        if (failed) return;
        try {
            out.flush();
        } catch (IOException e) {
            throw fail(e);
        }
    }

    @Override
    public void close() throws IOException {
        out.close();
    }

    private Closed fail(IOException e) {
        failed = true;
        return new Closed(e);
    }

    /** Standard output could not be written: the reader went away, or something else failed. */
    static final class Closed extends UncheckedIOException {
        private static final long serialVersionUID = 1L;

        Closed(IOException cause) { super(cause.getMessage() == null ? "a write failed" : cause.getMessage(), cause); }

        /**
         * Whether the other end of a pipe was closed (the JDK's message for EPIPE: "Broken pipe"
         * on Linux and macOS; "The pipe is being closed" or "The pipe has been ended" on
         * Windows): the reader had what it wanted, as with {@code ./vramlab replay --csv t.txt | head}.
         */
        boolean readerWentAway() {
            String m = getMessage().toLowerCase(Locale.ROOT);
            return m.contains("broken pipe") || m.contains("pipe is being closed") || m.contains("pipe has been ended");
        }
    }
}
