package vramlab.bench;

import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * bench/cpp/toy_replay.cpp line for line in Java, on a {@code TreeSet} where the C++ has a
 * {@code std::set} and a {@code HashMap<String, Block>} where it has an
 * {@code unordered_map<string, Block*>}: the same toy policy, the same bump-pointer segment
 * addresses, the same three lines of output. Not the kit: no statistics, no simulated driver,
 * no GMMU. {@code bench/e2e.sh} times it under the launcher's JVM flags beside the C++ and the
 * kit, to show how much of the kit's gap to the C++ replay is the JVM's (its start, its first
 * JIT tier) and how much the kit's own model; it also checks that the two yardsticks print the
 * same counters.
 *
 * <p>Usage: {@code java -cp bench/target/benchmarks.jar vramlab.bench.FlatToyReplay TRACE [DEVICE_SIZE]}
 */
public final class FlatToyReplay {
    static final long KiB = 1024, MiB = 1024 * KiB, GiB = 1024 * MiB, TiB = 1024 * GiB;
    static final long SMALL_SIZE = MiB, MIN_BLOCK = 512, SMALL_SEGMENT = 2 * MiB;
    static final long LARGE_STEP = 2 * MiB, LARGE_SEGMENT = 20 * MiB;

    static final class Block {
        final long address;
        long size, requested;
        boolean allocated, small, noted, dead;
        Block prev, next;

        Block(long address, long size) {
            this.address = address;
            this.size = size;
        }
    }

    static final Comparator<Block> BY_SIZE_ADDRESS = (a, b) ->
            a.size != b.size ? Long.compare(a.size, b.size) : Long.compare(a.address, b.address);

    static long alignUp(long n, long a) { return (n + a - 1) / a * a; }

    static final class ToyAllocator {
        long requested, allocated, reserved, segments;
        private final long device;
        private long nextAddress = 1L << 40;
        private final List<Block> wholeCached = new ArrayList<>();
        private final TreeSet<Block> smallPool = new TreeSet<>(BY_SIZE_ADDRESS);
        private final TreeSet<Block> largePool = new TreeSet<>(BY_SIZE_ADDRESS);
        private final Block key = new Block(0, 0);

        ToyAllocator(long device) { this.device = device; }

        Block alloc(long size) {
            long rounded = size <= SMALL_SIZE ? alignUp(size, MIN_BLOCK) : alignUp(size, LARGE_STEP);
            boolean small = rounded <= SMALL_SIZE;
            TreeSet<Block> pool = small ? smallPool : largePool;
            key.size = rounded;
            Block b = pool.ceiling(key);
            if (b != null) {
                pool.remove(b);
            } else {
                long seg = small ? SMALL_SEGMENT : Math.max(LARGE_SEGMENT, rounded);
                if (reserved + seg > device) return null;                     // OOM (the toy: no retry)
                b = new Block(nextAddress, seg);
                b.small = small;
                nextAddress += seg;
                reserved += seg;
                segments++;
            }
            if (b.size - rounded >= (small ? MIN_BLOCK : LARGE_STEP)) {       // split the front off
                Block rest = new Block(b.address + rounded, b.size - rounded);
                rest.small = small;
                rest.prev = b;
                rest.next = b.next;
                if (b.next != null) b.next.prev = rest;
                b.next = rest;
                b.size = rounded;
                pool.add(rest);
            }
            b.allocated = true;
            b.requested = size;
            requested += size;
            allocated += b.size;
            return b;
        }

        void free(Block b) {
            TreeSet<Block> pool = b.small ? smallPool : largePool;
            b.allocated = false;
            requested -= b.requested;
            allocated -= b.size;
            if (b.prev != null && !b.prev.allocated) {
                Block p = b.prev;
                pool.remove(p);
                absorbNext(p);
                b = p;
            }
            if (b.next != null && !b.next.allocated) {
                pool.remove(b.next);
                absorbNext(b);
            }
            if (b.prev == null && b.next == null && !b.noted) {
                b.noted = true;
                wholeCached.add(b);
            }
            pool.add(b);
        }

        /** As the C++ does: the blocks cached whole since the last empty_cache, large pool first. */
        void emptyCache() {
            List<Block> whole = new ArrayList<>();
            for (Block b : wholeCached) {
                b.noted = false;
                if (!b.dead && !b.allocated && b.prev == null && b.next == null) whole.add(b);
            }
            wholeCached.clear();
            whole.sort((x, y) -> x.small != y.small ? (x.small ? 1 : -1) : BY_SIZE_ADDRESS.compare(x, y));
            for (Block b : whole) {
                (b.small ? smallPool : largePool).remove(b);
                reserved -= b.size;
                segments--;
            }
        }

        /** The neighbour is merged away; one still in the list of blocks cached whole is marked dead there. */
        private static void absorbNext(Block a) {
            Block n = a.next;
            a.size += n.size;
            a.next = n.next;
            if (n.next != null) n.next.prev = a;
            if (n.noted) n.dead = true;
        }
    }

    /** toy_replay.cpp's parseSize: digits (and a point), then an optional unit; -1 when bad. */
    static long parseSize(byte[] s, int from, int to) {
        int i = from;
        while (i < to && ((s[i] >= '0' && s[i] <= '9') || s[i] == '.')) i++;
        String unit = new String(s, i, to - i, StandardCharsets.US_ASCII).toLowerCase();
        long scale = unit.isEmpty() || unit.equals("b") ? 1 : unit.charAt(0) == 'k' ? KiB
                : unit.charAt(0) == 'm' ? MiB : unit.charAt(0) == 'g' ? GiB : unit.charAt(0) == 't' ? TiB : -1;
        if (i == from || scale < 0) return -1;
        boolean point = false;
        for (int k = from; k < i; k++) point |= s[k] == '.';
        if (!point) {
            long v = 0;
            for (int k = from; k < i; k++) v = v * 10 + (s[k] - '0');
            return v * scale;
        }
        return (long) (Double.parseDouble(new String(s, from, i - from, StandardCharsets.US_ASCII)) * scale + 0.5);
    }

    private final ToyAllocator a;
    private final Map<String, Block> live = new HashMap<>();
    private final String file;
    long events, ooms, peakReq, peakAlloc, peakRes, lineNo;
    private final int[] words2 = new int[8];                // each word's [from, to), reused per line

    FlatToyReplay(long device, String file) {
        this.a = new ToyAllocator(device);
        this.file = file;
    }

    /** One line, {@code s[from, to)} without its newline. */
    void line(byte[] s, int from, int to) {
        lineNo++;
        for (int k = from; k < to; k++) {
            if (s[k] == '#') {
                to = k;
                break;
            }
        }
        int[] w = words2;
        int words = 0;
        for (int i = from; i < to && words < 4; ) {
            while (i < to && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r')) i++;
            if (i == to) break;
            int start = i;
            while (i < to && s[i] != ' ' && s[i] != '\t' && s[i] != '\r') i++;
            w[2 * words] = start;
            w[2 * words++ + 1] = i;
        }
        if (words == 0) return;
        events++;
        if (words == 3 && is(s, w[0], w[1], "alloc")) {
            String handle = new String(s, w[2], w[3] - w[2], StandardCharsets.UTF_8);
            long size = parseSize(s, w[4], w[5]);
            if (size <= 0) fail("bad size");
            Block b = a.alloc(size);
            if (b != null) live.put(handle, b);
            else ooms++;
        } else if (words == 2 && is(s, w[0], w[1], "free")) {
            Block b = live.remove(new String(s, w[2], w[3] - w[2], StandardCharsets.UTF_8));
            if (b != null) a.free(b);
        } else if (words == 1 && is(s, w[0], w[1], "empty_cache")) {
            a.emptyCache();
        } else {
            fail("unknown command");
        }
        peakReq = Math.max(peakReq, a.requested);
        peakAlloc = Math.max(peakAlloc, a.allocated);
        peakRes = Math.max(peakRes, a.reserved);
    }

    private static boolean is(byte[] s, int from, int to, String word) {
        if (to - from != word.length()) return false;
        for (int k = 0; k < word.length(); k++) if (s[from + k] != word.charAt(k)) return false;
        return true;
    }

    private void fail(String what) {
        System.err.println("error: " + file + ":" + lineNo + ": " + what);
        System.exit(2);
    }

    /** Reads {@code in} in 64 KiB reads, a line at a time, as the C++ does with fread. */
    void replay(InputStream in) throws IOException {
        byte[] buf = new byte[1 << 16];
        byte[] carry = new byte[256];
        int carried = 0;
        int got;
        while ((got = in.read(buf)) > 0) {
            int start = 0;
            for (int i = 0; i < got; i++) {
                if (buf[i] != '\n') continue;
                if (carried > 0) {
                    carry = append(carry, carried, buf, start, i);
                    line(carry, 0, carried + i - start);
                    carried = 0;
                } else {
                    line(buf, start, i);
                }
                start = i + 1;
            }
            carry = append(carry, carried, buf, start, got);
            carried += got - start;
        }
        if (carried > 0) line(carry, 0, carried);
    }

    private static byte[] append(byte[] carry, int carried, byte[] buf, int from, int to) {
        int n = carried + to - from;
        if (n > carry.length) carry = java.util.Arrays.copyOf(carry, Math.max(n, 2 * carry.length));
        System.arraycopy(buf, from, carry, carried, to - from);
        return carry;
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 1 && args.length != 2) {
            System.err.println("usage: FlatToyReplay TRACE [DEVICE_SIZE]   (default 80GiB)");
            System.exit(2);
        }
        long device = 80 * GiB;
        if (args.length == 2) {
            byte[] d = args[1].getBytes(StandardCharsets.US_ASCII);
            device = parseSize(d, 0, d.length);
            if (device <= 0) {
                System.err.println("error: DEVICE_SIZE '" + args[1] + "': expected a size such as 80GiB");
                System.exit(2);
            }
        }
        FlatToyReplay r = new FlatToyReplay(device, args[0]);
        try (InputStream in = new FileInputStream(args[0])) {
            r.replay(in);
        } catch (java.io.FileNotFoundException e) {
            System.err.println("error: " + args[0] + ": no such file");
            System.exit(2);
        }
        ToyAllocator a = r.a;
        System.out.println("events: " + r.events + ", OOMs: " + r.ooms + " (toy policy, Java TreeSet)");
        System.out.println("peak      requested " + r.peakReq + " allocated " + r.peakAlloc + " reserved " + r.peakRes);
        System.out.println("final     requested " + a.requested + " allocated " + a.allocated + " reserved "
                + a.reserved + " segments " + a.segments);
    }
}
