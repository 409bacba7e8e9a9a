package vramlab.snapshot;

import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipException;

import vramlab.trace.TraceException;
import vramlab.units.Bytes;

/**
 * A whole file read into memory with a cap: {@code replay}, {@code advise} and {@code triage}
 * read every snapshot (and advise and triage every file) through here, so a file that is, or
 * unzips to, more than {@link #MAX_INPUT} is refused with its size before it is held. A file
 * that starts with gzip's magic bytes is unzipped, and one that would expand past the cap (a
 * "gzip bomb") is refused having held only its compressed bytes.
 */
public final class SnapshotInput {
    /**
     * The most a snapshot may hold once unzipped: 1 GiB. The largest real snapshot the kit was
     * tried on is a few MB unzipped; a Java array holds under 2 GiB, and the objects a pickle
     * of 1 GiB makes take several times that in the heap.
     */
    public static final long MAX_INPUT = Bytes.GiB;

    private SnapshotInput() {}

    /** Whether {@code head} starts with gzip's magic bytes 1f 8b (RFC 1952, 2.3.1). */
    public static boolean isGzip(byte[] head) {
        return head.length >= 2 && (head[0] & 0xff) == 0x1f && (head[1] & 0xff) == 0x8b;
    }

    /** {@link #readAll(InputStream, String, long)} with the kit's cap, {@link #MAX_INPUT}. */
    public static byte[] readAll(InputStream in, String file) {
        return readAll(in, file, MAX_INPUT);
    }

    /**
     * Every byte of {@code in}, unzipped when it starts with gzip's magic bytes, or a
     * {@link TraceException} naming the file when there are more than {@code limit} of them
     * (or the gzip stream is broken). The file's own bytes are read into a buffer that grows
     * with what arrived, never with a declared size; a gzip file is then unzipped twice: once
     * into a small scratch buffer only to count its bytes, stopping at {@code limit + 1}, and
     * once into an array of exactly that size. So a gzip bomb is refused having held its
     * compressed bytes and 64 KiB, whatever it would expand to.
     */
    public static byte[] readAll(InputStream in, String file, long limit) {
        if (limit < 0 || limit > Integer.MAX_VALUE - 16) {
            throw new IllegalArgumentException("a limit of " + limit + " bytes does not fit one array");
        }
        byte[] raw;
        try {
            raw = capped(in, limit);
        } catch (IOException e) {
            throw new TraceException(file, 0, "cannot read it: " + e.getMessage());
        }
        if (raw == null) {
            throw new TraceException(file, 0, "is larger than " + Bytes.readable(limit) + " (" + limit
                    + " bytes), the most the kit reads from one file; refused after reading " + (limit + 1)
                    + " bytes");
        }
        if (!isGzip(raw)) return raw;
        try {
            long n = count(raw, limit);
            if (n > limit) {
                throw new TraceException(file, 0, "unzips to more than " + Bytes.readable(limit) + " (" + limit
                        + " bytes), the most the kit reads from one file: a " + raw.length + "-byte gzip file"
                        + " refused before holding any of it");
            }
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
        } catch (ZipException | EOFException e) {
            throw new TraceException(file, 0, "not a readable gzip file: "
                    + (e.getMessage() == null ? "it ends before its last block" : e.getMessage()));
        } catch (IOException e) {
            throw new TraceException(file, 0, "not a readable gzip file: " + e.getMessage());
        }
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

    /** How many bytes {@code gzip} unzips to, counting no further than {@code limit + 1}. */
    private static long count(byte[] gzip, long limit) throws IOException {
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
