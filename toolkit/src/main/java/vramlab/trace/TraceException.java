package vramlab.trace;

/**
 * Bad input in a trace, with the file and line it was found at; line 0 means the file as a
 * whole (its size, its gzip stream, what it is), and the message then names no line:
 * {@code file: what}, never a line 0 that no editor can go to.
 */
public final class TraceException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String file;
    private final long line;
    private final String what;

    public TraceException(String file, long line, String what) {
        super(file + (line > 0 ? ":" + line : "") + ": " + what);
        this.file = file;
        this.line = line;
        this.what = what;
    }

    /** Bad input at a column of a line too ({@code file:line:column: what}), as JSON errors are. */
    public TraceException(String file, long line, long column, String what) {
        super(file + (line > 0 ? ":" + line + ":" + column : "") + ": " + what);
        this.file = file;
        this.line = line;
        this.what = what;
    }

    private TraceException(String message, String file, String what) {
        super(message);
        this.file = file;
        this.line = 0;
        this.what = what;
    }

    /**
     * Bad input at a byte of a binary file ({@code file: byte N: what}), as a pickle's errors
     * are: the offset is where the opcode that went wrong starts, counted from 0 as
     * {@code python -m pickletools} counts it.
     */
    public static TraceException atByte(String file, long offset, String what) {
        return new TraceException(file + ": byte " + offset + ": " + what, file, what);
    }

    public String file() { return file; }
    public long line() { return line; }
    public String what() { return what; }
}
