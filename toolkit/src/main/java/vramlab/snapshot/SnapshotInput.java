package vramlab.snapshot;

import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.zip.GZIPInputStream;

import vramlab.trace.TraceException;
import vramlab.units.Bytes;

/**
 * A whole file read into memory with a cap: {@code replay}, {@code advise} and {@code triage}
 * read every snapshot (and advise and triage every file) through here, so a file that is, or
 * unzips to, more than its limit ({@link #DEFAULT_LIMIT} unless {@code --max-input} says
 * otherwise, never more than {@link #MAX_INPUT}) is refused with its size before it is held. A
 * file that starts with gzip's magic bytes is unzipped, and one that would expand past the
 * limit (a "gzip bomb") is refused having held only its compressed bytes, after unzipping at
 * most one byte past the limit, whatever it declares.
 * <p>
 * The gzip trailer's size field (ISIZE, RFC 1952 2.3.1) is never trusted to refuse a file: it
 * holds the last member's size modulo 2^32, so a 4 GiB + 1 KiB bomb declares 1 KiB, a file of
 * several members declares only its last, and a file cut short ends in whatever bytes were cut.
 * Counting is exact; the limit is what keeps it short.
 */
public final class SnapshotInput {
    /**
     * The most the kit reads from one file, whatever {@code --max-input} asks: 1 GiB. A Java
     * array holds under 2 GiB, and the objects a pickle of 1 GiB makes take several times
     * that in the heap. The browser's page unzips no further than this either.
     */
    public static final long MAX_INPUT = Bytes.GiB;

    /**
     * What {@code replay}, {@code advise} and {@code triage} read unless {@code --max-input}
     * says otherwise: 256 MiB unzipped. The largest of the real snapshots in
     * {@code ../shared/real-snapshots} unzips to 3.7 MiB (3,867,125 bytes) and its reader kept
     * 4.4 times that in the heap (measured), so a file at this limit needs about 1.4 GiB of
     * heap. Counting 256 MiB is what refusing a bomb costs, whatever it declares: {@code
     * ./vramlab replay} of a 2 MB gzip that unzips to 2 GiB took 0.6 s of CPU time, 0.1 s of it
     * the JVM's start (a 2-line trace: 0.1 s), on a shared 2-core machine; 1 GiB took about 3 s.
     * That collection could not fetch files of 4 MiB or more zipped, so larger real snapshots
     * exist: {@code --max-input} raises the limit up to {@link #MAX_INPUT}.
     */
    public static final long DEFAULT_LIMIT = 256 * Bytes.MiB;

    private SnapshotInput() {}

    /** Whether {@code head} starts with gzip's magic bytes 1f 8b (RFC 1952, 2.3.1). */
    public static boolean isGzip(byte[] head) {
        return head.length >= 2 && (head[0] & 0xff) == 0x1f && (head[1] & 0xff) == 0x8b;
    }

    /** {@link #readAll(InputStream, String, long)} with the commands' default, {@link #DEFAULT_LIMIT}. */
    public static byte[] readAll(InputStream in, String file) {
        return readAll(in, file, DEFAULT_LIMIT);
    }

    /**
     * Every byte of {@code in}, unzipped when it starts with gzip's magic bytes, or a
     * {@link TraceException} naming the file when there are more than {@code limit} of them
     * (or the gzip stream is broken). The file's own bytes are read into a buffer that grows
     * with what arrived, never with a declared size; a gzip file is then unzipped twice: once
     * into a small scratch buffer only to count its bytes, stopping at {@code limit + 1}, and
     * once into an array of exactly that size. So a gzip bomb is refused having held its
     * compressed bytes and 64 KiB, and having unzipped {@code limit + 1} bytes, whatever it
     * would expand to. The refusal says what was counted, the limit, and (below
     * {@link #MAX_INPUT}) how to raise it.
     */
    public static byte[] readAll(InputStream in, String file, long limit) {
        if (limit < 0 || limit > MAX_INPUT) {
            throw new IllegalArgumentException("a limit of " + limit + " bytes; the kit reads at most "
                    + Bytes.readable(MAX_INPUT) + " from one file");
        }
        byte[] raw;
        try {
            raw = capped(in, limit);
        } catch (IOException e) {
            throw unreadable(file, e);
        }
        if (raw == null) {
            throw new TraceException(file, 0, "is larger than " + limitText(limit) + ": refused after reading "
                    + (limit + 1) + " bytes" + toRaise(limit));
        }
        if (raw.length == 0) checkNotEmpty(file, false);
        if (!isGzip(raw)) return raw;
        try {
            long n = unzippedSize(raw, limit);
            if (n > limit) {
                throw new TraceException(file, 0, "unzips to more than " + limitText(limit) + ": counted " + n
                        + " bytes unzipped from its " + raw.length + " and stopped, holding none of them"
                        + toRaise(limit));
            }
            if (n == 0) checkNotEmpty(file, true);
            byte[] out = new byte[(int) n];
            try (InputStream z = new GZIPInputStream(new ByteArrayInputStream(raw), 1 << 16)) {
                int at = 0;
                while (at < n) {
                    int r = z.read(out, at, (int) n - at);
                    if (r < 0) break;
                    at += r;
                }
            }
            return out;
        } catch (IOException e) {
            throw brokenGzip(file, e);
        }
    }

    /**
     * A gzip file that cannot be read, said once for every reader: one that ends early was cut
     * short (a copy or a download stopped before its end), which Java's own words, "Unexpected end
     * of ZLIB input stream", do not say; any other fault is given as the library found it.
     */
    public static TraceException brokenGzip(String file, IOException e) {
        if (e instanceof EOFException) {
            return new TraceException(file, 0, "not a readable gzip file: it ends early, so it was cut short"
                    + " (a copy or a download that stopped before its end?)");
        }
        return new TraceException(file, 0, "not a readable gzip file: "
                + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()));
    }

    /**
     * The file {@code file}, read as {@link #readAll(InputStream, String, long)} reads it, or one
     * line naming it: "no such file", or {@link #unreadable} for a file that cannot be opened
     * (no permission, a path through a plain file, a symbolic link loop) or read (a folder).
     * {@code advise} and {@code triage} read a named file through here; {@code replay} opens its
     * own (a trace streams) and says the same.
     */
    public static byte[] readFile(String file, long limit) {
        try (InputStream in = Files.newInputStream(Path.of(file))) {
            return readAll(in, file, limit);
        } catch (NoSuchFileException e) {
            throw new TraceException(file, 0, "no such file");
        } catch (IOException e) {
            throw unreadable(file, e);
        }
    }

    /**
     * A file that could not be opened or read (a folder, no permission), in the system's words
     * ("Is a directory", "Permission denied"): what {@code replay}, {@code advise} and {@code
     * triage} say of it.
     */
    public static TraceException unreadable(String file, IOException e) {
        return new TraceException(file, 0, "cannot read it: " + why(e));
    }

    private static String why(IOException e) {
        if (e instanceof java.nio.file.AccessDeniedException) return "Permission denied";
        if (e instanceof java.nio.file.FileSystemException f && f.getReason() != null) return f.getReason();
        return e.getMessage();
    }

    /**
     * Whether a file's name says it holds a snapshot: {@code .pickle} or {@code .pkl} (what
     * {@code torch.cuda.memory._dump_snapshot} and {@code pickle.dump} are given), {@code .json},
     * each gzipped or not. A trace or a pasted message may be empty; a snapshot never is (the
     * smallest dict, {@code {"segments": [], "device_traces": []}}, pickles to 47 bytes).
     */
    public static boolean namedAsSnapshot(String file) {
        String name = file.toLowerCase(java.util.Locale.ROOT);
        if (name.endsWith(".gz")) name = name.substring(0, name.length() - 3);
        return name.endsWith(".pickle") || name.endsWith(".pkl") || name.endsWith(".json");
    }

    /**
     * Refuses an empty file named as a snapshot ({@link #namedAsSnapshot}): what a dump that
     * failed or was cut short (a full disk, a job killed while it wrote) leaves behind, which
     * would otherwise read as an empty trace with nothing to say. {@code unzipped}: the file is
     * a gzip whose contents are empty.
     */
    public static void checkNotEmpty(String file, boolean unzipped) {
        if (!namedAsSnapshot(file)) return;
        throw new TraceException(file, 0, "empty file: " + (unzipped ? "it unzips to 0 bytes" : "0 bytes")
                + ", where a memory snapshot (pickle or JSON) was expected; a dump that failed or was cut short"
                + " leaves such a file");
    }

    private static String limitText(long limit) {
        return Bytes.readable(limit) + " (" + limit + " bytes), the "
                + (limit == MAX_INPUT ? "most the kit reads from one file" : "limit for one file");
    }

    /** How to raise the limit, where it can be: {@code --max-input}, which the commands take. */
    private static String toRaise(long limit) {
        return limit < MAX_INPUT ? "; raise it with --max-input SIZE (at most " + Bytes.readable(MAX_INPUT) + ")" : "";
    }

    /** The bytes of {@code in}, or null when there are more than {@code limit}. */
    private static byte[] capped(InputStream in, long limit) throws IOException {
        byte[] buf = new byte[(int) Math.min(limit + 1, 1 << 16)];
        int n = 0;
        while (true) {
            if (n == buf.length) {
                if (n > limit) return null;
                buf = Arrays.copyOf(buf, (int) Math.min(limit + 1, 2L * buf.length));
            }
            int r = in.read(buf, n, buf.length - n);
            if (r < 0) break;
            n += r;
        }
        return n == buf.length ? buf : Arrays.copyOf(buf, n);
    }

    /**
     * How many bytes {@code gzip} unzips to, counting no further than {@code limit + 1}: the
     * unzipping stream is never asked for more, so no more than that is unzipped (and the
     * refusal's "counted N" is that number).
     */
    static long unzippedSize(byte[] gzip, long limit) throws IOException {
        byte[] scratch = new byte[1 << 16];
        long n = 0;
        try (InputStream z = new GZIPInputStream(new ByteArrayInputStream(gzip), 1 << 16)) {
            while (n <= limit) {
                int r = z.read(scratch, 0, (int) Math.min(scratch.length, limit + 1 - n));
                if (r < 0) break;
                n += r;
            }
        }
        return n;
    }
}
