package vramlab.cli;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.zip.GZIPOutputStream;

/**
 * Breaks a good file the ways a file breaks: cut short, bits flipped, bytes set to the values
 * at the edges of a field (0, 0x7f, 0x80, 0xff), a 4-byte field set to a huge or negative
 * length, spans duplicated, deleted or inserted, a pickle opcode or a JSON bracket swapped for
 * another (a list where a dict was, an int where a string was), numbers in text made huge or
 * negative, lines doubled or dropped. Each case is one seed: {@code new Corruptor(seed)} breaks
 * the same file the same way on every machine, so a failure names its seed and is replayed
 * alone.
 */
final class Corruptor {
    /** Pickle opcodes a snapshot uses, swapped for one another (CPython's Lib/pickletools.py). */
    private static final byte[] OPCODES = bytes("}])KJMXGNaeush(.", 0x8c, 0x88, 0x89, 0x8a, 0x94, 0x95, 0x80, 'q', 'r', 'j');
    /** JSON's and a trace's structure characters. */
    private static final byte[] TEXT = "{}[]\":,0123456789-.eE \n\ttruefalsnl#=".getBytes(StandardCharsets.US_ASCII);
    private static final int[] EDGES = {0, 0x7f, 0x80, 0xff, 0x01, 0xfe};
    private static final long[] LENGTHS = {0x7fffffffL, 0xffffffffL, 0x80000000L, 0x40000000L, 0, 1, 0xffffL, 0x10000L};
    private static final String[] NUMBERS = {"99999999999999999999999999", "-1", "0", "1e309", "-9223372036854775809",
            "18446744073709551616", "NaN", "4.5", "0x10", "1" + "0".repeat(5000), "9223372036854775807"};

    private final SplittableRandom random;
    final long seed;
    final StringBuilder how = new StringBuilder();

    Corruptor(long seed) {
        this.seed = seed;
        this.random = new SplittableRandom(seed);
    }

    /** {@code good} with one to three breaks; {@link #how} says which. */
    byte[] corrupt(byte[] good, boolean text) {
        byte[] b = good;
        int n = 1 + random.nextInt(3);
        for (int i = 0; i < n; i++) b = once(b, text);
        return b;
    }

    int nextInt(int bound) { return random.nextInt(bound); }

    private byte[] once(byte[] b, boolean text) {
        if (b.length == 0) return new byte[] {(byte) random.nextInt(256)};
        int kind = random.nextInt(text ? 11 : 9);
        int at = random.nextInt(b.length);
        switch (kind) {
            case 0 -> {
                how.append("truncate@").append(at).append(' ');
                return Arrays.copyOf(b, at);
            }
            case 1 -> {
                int flips = 1 + random.nextInt(8);
                how.append("flip").append(flips).append(' ');
                byte[] c = b.clone();
                for (int i = 0; i < flips; i++) c[random.nextInt(c.length)] ^= (byte) (1 << random.nextInt(8));
                return c;
            }
            case 2 -> {
                how.append("edge@").append(at).append(' ');
                byte[] c = b.clone();
                c[at] = (byte) EDGES[random.nextInt(EDGES.length)];
                return c;
            }
            case 3 -> {
                how.append("length@").append(at).append(' ');
                byte[] c = b.clone();
                long v = LENGTHS[random.nextInt(LENGTHS.length)];
                for (int i = 0; i < 4 && at + i < c.length; i++) c[at + i] = (byte) (v >>> (8 * i));
                return c;
            }
            case 4 -> {
                int len = 1 + random.nextInt(Math.min(b.length, 4096));
                int from = random.nextInt(Math.max(1, b.length - len + 1));
                how.append("dup").append(len).append('@').append(at).append(' ');
                return splice(b, at, 0, Arrays.copyOfRange(b, from, Math.min(b.length, from + len)));
            }
            case 5 -> {
                int len = 1 + random.nextInt(Math.min(b.length - at, 4096));
                how.append("delete").append(len).append('@').append(at).append(' ');
                return splice(b, at, len, new byte[0]);
            }
            case 6 -> {
                byte[] junk = new byte[1 + random.nextInt(16)];
                for (int i = 0; i < junk.length; i++) junk[i] = (byte) random.nextInt(256);
                how.append("insert").append(junk.length).append('@').append(at).append(' ');
                return splice(b, at, 0, junk);
            }
            case 7, 8 -> {                    // a type changed: an opcode or a structure character swapped
                byte[] set = text ? TEXT : OPCODES;
                byte[] c = b.clone();
                for (int tries = 0; tries < 64; tries++) {
                    int i = random.nextInt(c.length);
                    if (indexOf(set, c[i]) >= 0) {
                        c[i] = set[random.nextInt(set.length)];
                        how.append("swap@").append(i).append(' ');
                        return c;
                    }
                }
                return c;
            }
            case 9 -> {                       // text: a number made huge, negative or not a number
                String s = new String(b, StandardCharsets.ISO_8859_1);
                int d = indexOfDigit(s, at);
                if (d < 0) return b;
                int e = d;
                while (e < s.length() && Character.isDigit(s.charAt(e))) e++;
                String num = NUMBERS[random.nextInt(NUMBERS.length)];
                how.append("number@").append(d).append(' ');
                return splice(b, d, e - d, num.getBytes(StandardCharsets.ISO_8859_1));
            }
            default -> {                      // text: a line doubled, dropped, or a long run of brackets
                String s = new String(b, StandardCharsets.ISO_8859_1);
                int start = s.lastIndexOf('\n', at) + 1;
                int end = s.indexOf('\n', at);
                end = end < 0 ? s.length() : end + 1;
                int r = random.nextInt(3);
                how.append(r == 0 ? "dropline@" : r == 1 ? "dupline@" : "nest@").append(start).append(' ');
                if (r == 0) return splice(b, start, end - start, new byte[0]);
                if (r == 1) return splice(b, start, 0, Arrays.copyOfRange(b, start, end));
                return splice(b, at, 0, "[".repeat(1 + random.nextInt(200)).getBytes(StandardCharsets.US_ASCII));
            }
        }
    }

    /** Values a field of a snapshot is changed to: its type or its range wrong. */
    private static final Object[] VALUES = {-1, 0, 1, Integer.MAX_VALUE, Long.MAX_VALUE, Long.MIN_VALUE,
            new java.math.BigInteger("36893488147419103232"), -4096L, 1e300, Double.NaN, "", "alloc", "oom",
            "free_completed", "segment_map", "snapshot", "small", "large", "active_allocated", "x", true, false,
            null};

    /**
     * The snapshot {@code root} (as {@code SnapshotReader.load} gives it) with one to four of its
     * fields changed in place: a value set to another type or to the edge of its range, a key
     * removed, a list item dropped or doubled, a list emptied. The pickle written from it again
     * is well formed, so these cases reach the snapshot's readers and the replay behind them.
     */
    @SuppressWarnings("unchecked")
    Object corruptTree(Object root) {
        int n = 1 + random.nextInt(4);
        for (int k = 0; k < n; k++) {
            Object node = root;
            Object parent = null;
            Object key = null;
            for (int depth = 0; depth < 8; depth++) {         // a random walk down, stopping anywhere
                Object child;
                Object childKey;
                if (node instanceof Map<?, ?> m && !m.isEmpty()) {
                    childKey = new ArrayList<>(m.keySet()).get(random.nextInt(m.size()));
                    child = m.get(childKey);
                } else if (node instanceof List<?> l && !l.isEmpty()) {
                    childKey = random.nextInt(l.size());
                    child = l.get((Integer) childKey);
                } else {
                    break;
                }
                parent = node;
                key = childKey;
                node = child;
                if (!(node instanceof Map<?, ?> || node instanceof List<?>) || random.nextInt(4) == 0) break;
            }
            if (parent == null) continue;
            int what = random.nextInt(6);
            Object value = VALUES[random.nextInt(VALUES.length)];
            if (parent instanceof Map<?, ?> m) {
                Map<Object, Object> map = (Map<Object, Object>) m;
                if (what == 0) {
                    map.remove(key);
                    how.append("tree:remove ").append(key).append(' ');
                } else if (what == 1 && node instanceof List<?> l) {
                    map.put(key, new ArrayList<>());
                    how.append("tree:empty ").append(key).append(' ');
                } else {
                    map.put(key, value);
                    how.append("tree:").append(key).append('=').append(value).append(' ');
                }
            } else {
                List<Object> list = (List<Object>) parent;
                int i = (Integer) key;
                if (what == 0) {
                    list.remove(i);
                    how.append("tree:drop[").append(i).append("] ");
                } else if (what == 1) {
                    list.add(i, list.get(i));
                    how.append("tree:double[").append(i).append("] ");
                } else {
                    list.set(i, value);
                    how.append("tree:[").append(i).append("]=").append(value).append(' ');
                }
            }
        }
        return root;
    }

    static byte[] gzip(byte[] b) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream z = new GZIPOutputStream(out)) {
            z.write(b);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    private static byte[] splice(byte[] b, int at, int remove, byte[] insert) {
        byte[] c = new byte[b.length - remove + insert.length];
        System.arraycopy(b, 0, c, 0, at);
        System.arraycopy(insert, 0, c, at, insert.length);
        System.arraycopy(b, at + remove, c, at + insert.length, b.length - at - remove);
        return c;
    }

    private static int indexOf(byte[] set, byte v) {
        for (int i = 0; i < set.length; i++) if (set[i] == v) return i;
        return -1;
    }

    private static int indexOfDigit(String s, int from) {
        for (int i = from; i < s.length(); i++) if (Character.isDigit(s.charAt(i))) return i;
        return -1;
    }

    private static byte[] bytes(String chars, int... more) {
        byte[] a = chars.getBytes(StandardCharsets.ISO_8859_1);
        byte[] b = Arrays.copyOf(a, a.length + more.length);
        for (int i = 0; i < more.length; i++) b[a.length + i] = (byte) more[i];
        return b;
    }
}
