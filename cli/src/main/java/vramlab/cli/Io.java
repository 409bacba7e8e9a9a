package vramlab.cli;

import java.io.BufferedOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** The streams a command reads and writes, so tests can run commands in memory. */
public record Io(InputStream in, PrintStream out, PrintStream err) {
    /**
     * Standard streams; standard output is buffered (a CSV replay prints millions of rows) and
     * stops the command when it can no longer be written ({@link StandardOutput}).
     */
    public static Io system() {
        PrintStream out = new PrintStream(new BufferedOutputStream(
                new StandardOutput(new FileOutputStream(FileDescriptor.out)), 1 << 16), false, StandardCharsets.UTF_8);
        return new Io(System.in, out, System.err);
    }
}
