package vramlab.replay;

import java.io.PrintStream;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

import vramlab.alloc.Block;
import vramlab.alloc.CachingAllocator;
import vramlab.alloc.PoolKind;
import vramlab.alloc.Segment;
import vramlab.alloc.SegmentMap;
import vramlab.units.Bytes;

/**
 * The segment map of a replay's end, in a size that fits a screen: every segment while there
 * are few ({@link #FULL_MAP_LIMIT} or fewer, with {@link #FULL_MAP_BLOCKS} blocks or fewer in
 * all), else the largest ones, a histogram of how full the segments are, one of the free
 * blocks' sizes, and the fragmentation figures.
 */
public final class MapSummary {
    /** Up to this many segments the whole map is printed, as {@link SegmentMap#text} draws it. */
    public static final int FULL_MAP_LIMIT = 40;
    /** How many of the largest segments the compact map draws. */
    static final int LARGEST = 10;

    private static final long[] FREE_EDGES = {Bytes.MiB, 2 * Bytes.MiB, 8 * Bytes.MiB, 32 * Bytes.MiB,
        128 * Bytes.MiB, Bytes.GiB};

    private MapSummary() {}

    /**
     * Up to this many blocks in all (with at most {@link #FULL_MAP_LIMIT} segments) the whole map
     * is printed: the full map lists every block on its segment's line, and a few expandable
     * segments can hold a hundred thousand blocks (one line of megabytes).
     */
    public static final int FULL_MAP_BLOCKS = 200;

    /** Prints the whole map when it is short or {@code full} is set, else the compact one. */
    public static void print(CachingAllocator a, boolean full, PrintStream out) {
        if (full || fitsInFull(a)) {
            out.print(SegmentMap.text(a));
        } else {
            out.print(compact(a));
        }
    }

    /** Whether the whole map is short: few segments, few blocks in all. */
    static boolean fitsInFull(CachingAllocator a) {
        if (a.segments().size() > FULL_MAP_LIMIT) return false;
        int blocks = 0;
        for (Segment s : a.segments()) {
            for (Block b = s.first(); b != null; b = b.next()) if (++blocks > FULL_MAP_BLOCKS) return false;
        }
        return true;
    }

    /** The compact map: counts, the largest segments, two histograms, fragmentation. */
    public static String compact(CachingAllocator a) {
        FreeTally free = new FreeTally();
        for (PoolKind kind : PoolKind.values()) for (Block b : a.freeBlocks(kind)) free.add(b);
        Tally t = new Tally(LARGEST, free, true);
        for (Segment s : a.segments()) t.add(s);
        if (t.live != a.allocated()) {                 // a block neither allocated nor cached: walk them all
            t = new Tally(LARGEST, free, false);
            for (Segment s : a.segments()) t.add(s);
        }
        StringBuilder sb = new StringBuilder();
        sb.append("segment map: ").append(t.segments).append(t.segments == 1 ? " segment (" : " segments (").append(t.small).append(" small, ")
          .append(t.segments - t.small).append(" large").append(t.expandable > 0 ? ", " + t.expandable + " expandable" : "")
          .append("); reserved ").append(Bytes.formatSize(a.reserved())).append(", allocated ")
          .append(Bytes.formatSize(a.allocated())).append(" (").append(a.policy().name())
          .append(" policy); --map prints every segment\n");
        List<Segment> top = t.top.list();
        if (top.size() < t.segments) sb.append("the ").append(top.size()).append(" largest:\n");
        else if (t.segments == 1) sb.append("the segment:\n");    // one, with too many blocks to draw
        else sb.append("all ").append(t.segments).append(", largest first:\n");
        for (Segment s : top) sb.append("  ").append(line(s)).append('\n');
        sb.append("segments by fill:");
        for (int i = 0; i < FILL_LABELS.length; i++) sb.append("  ").append(FILL_LABELS[i]).append(' ').append(t.fill[i]);
        sb.append('\n');
        free.print(sb);
        return sb.toString();
    }

    /**
     * What the map counts, in one pass over the segments. Each segment is one call, so that the
     * launcher's JIT compiles the per-segment work after its first few hundred segments; the
     * same work inline in a loop ran in the interpreter until the loop itself was compiled,
     * tens of thousands of segments later.
     *
     * <p>A cudaMalloc segment's blocks tile it, so its allocated bytes are its size less its
     * free bytes; those that are cached are counted in the one pass over the free blocks, with
     * no walk along the segment's blocks (after a long replay, a cache miss per block). That
     * counts a block neither allocated nor cached (a free waiting on an event) as allocated,
     * never the other way, so the sum over the segments is the allocator's allocated bytes
     * exactly when every segment's figure is right; when the sum is off, the pass is made again
     * walking every segment. An expandable segment is always walked.
     */
    private static final class Tally {
        int segments, small, expandable;
        final long[] fill = new long[FILL_LABELS.length];
        final Top top;
        long live;                                 // the allocated bytes of every segment, summed
        private final FreeTally free;
        private final boolean byFreeBlocks;        // false: walk every segment's blocks

        Tally(int largest, FreeTally free, boolean byFreeBlocks) {
            top = new Top(largest);
            this.free = free;
            this.byFreeBlocks = byFreeBlocks;
        }

        void add(Segment s) {
            segments++;
            if (s.isExpandable()) expandable++;
            if (s.pool() == PoolKind.SMALL) small++;
            long bytes = byFreeBlocks && !s.isExpandable() ? s.size() - free.inSegment(s) : liveBytes(s);
            live += bytes;
            fill[fillBucket(bytes, s.reservedBytes())]++;
            top.offer(s);
        }
    }

    /** The cached free blocks: a histogram of their sizes, the largest, and each segment's share. */
    private static final class FreeTally {
        final long[] counts = new long[FREE_EDGES.length + 1];
        final long[] bytes = new long[FREE_EDGES.length + 1];
        long total, largest, n;
        private long[] bySegment = new long[64];          // free bytes, by segment id (dense from 0)

        void add(Block b) {
            long size = b.size();
            int bucket = sizeBucket(size);
            counts[bucket]++;
            bytes[bucket] += size;
            total += size;
            largest = Math.max(largest, size);
            n++;
            int id = b.segment().id();
            if (id >= bySegment.length) bySegment = Arrays.copyOf(bySegment, Math.max(id + 1, 2 * bySegment.length));
            bySegment[id] += size;
        }

        long inSegment(Segment s) { return s.id() < bySegment.length ? bySegment[s.id()] : 0; }

        void print(StringBuilder sb) {
            sb.append("free blocks by size:");
            for (int i = 0; i < counts.length; i++) {
                String label = i == 0 ? "<" + edge(FREE_EDGES[0])
                        : i == FREE_EDGES.length ? edge(FREE_EDGES[i - 1]) + "+"
                        : edge(FREE_EDGES[i - 1]) + "-" + edge(FREE_EDGES[i]);
                sb.append("  ").append(label).append(' ').append(counts[i]);
                if (counts[i] > 0) sb.append(" (").append(Bytes.formatSize(bytes[i])).append(')');
            }
            sb.append('\n');
            sb.append("fragmentation: ").append(n).append(" free blocks hold ").append(Bytes.formatSize(total))
              .append("; the largest is ").append(Bytes.formatSize(largest));
            if (total > 0) {
                sb.append(" (1 - largest/free = ").append(percent(total - largest, total)).append("%)");
            }
            sb.append('\n');
        }
    }

    /** Largest first; equal ones by id. */
    static final Comparator<Segment> LARGEST_FIRST = MapSummary::largestFirst;

    private static int largestFirst(Segment x, Segment y) {
        long bx = x.reservedBytes(), by = y.reservedBytes();
        return bx != by ? Long.compare(by, bx) : Integer.compare(x.id(), y.id());
    }

    /**
     * The first {@code n} segments in {@link #LARGEST_FIRST} order, found in one pass: sorting
     * every segment (tens of thousands after a long replay) cost more than the rest of the map.
     */
    static List<Segment> largest(List<Segment> segments, int n) {
        Top top = new Top(n);
        for (Segment s : segments) top.offer(s);
        return top.list();
    }

    /** The {@code n} first segments offered so far, in {@link #LARGEST_FIRST} order. */
    private static final class Top {
        private final Segment[] kept;
        private int size;

        Top(int n) { kept = new Segment[n]; }

        void offer(Segment s) {
            int n = kept.length;
            if (size == n && (n == 0 || largestFirst(s, kept[n - 1]) >= 0)) return;
            int i = size < n ? size++ : n - 1;                   // the last one drops out when full
            while (i > 0 && largestFirst(s, kept[i - 1]) < 0) {
                kept[i] = kept[i - 1];
                i--;
            }
            kept[i] = s;
        }

        List<Segment> list() { return List.of(Arrays.copyOf(kept, size)); }
    }

    /** One segment: its header and bar, and its blocks counted rather than listed. */
    private static String line(Segment s) {
        int blocks = 0, live = 0;
        for (Block b = s.first(); b != null; b = b.next()) {
            blocks++;
            if (b.isAllocated()) live++;
        }
        return SegmentMap.head(s) + ": " + SegmentMap.bar(s) + " " + blocks + (blocks == 1 ? " block, " : " blocks, ") + live + " live";
    }

    private static final String[] FILL_LABELS = {"empty", "under 25%", "25-50%", "50-75%", "75-99%", "full"};

    /** The bytes of a segment's allocated blocks, walked. */
    static long liveBytes(Segment s) {
        long live = 0;
        for (Block b = s.first(); b != null; b = b.next()) if (b.isAllocated()) live += b.size();
        return live;
    }

    /** Which of {@link #FILL_LABELS} a segment holding {@code held} bytes, {@code live} of them allocated, is. */
    static int fillBucket(long live, long held) {
        return live == 0 ? 0 : live >= held ? 5 : 1 + (int) Math.min(3, 4 * live / held);
    }

    private static String edge(long bytes) {
        return bytes % Bytes.GiB == 0 ? bytes / Bytes.GiB + "G" : bytes / Bytes.MiB + "M";
    }

    /** Which of the free-block histogram's bars a block of {@code size} bytes falls in. */
    static int sizeBucket(long size) {
        int bucket = 0;
        while (bucket < FREE_EDGES.length && size >= FREE_EDGES[bucket]) bucket++;
        return bucket;
    }

    /**
     * {@code 100 * part / whole} with one decimal, rounded half up, from the exact quotient
     * (not from a double, and without {@code String.format}, whose first use costs a short
     * replay about a tenth of its time).
     */
    static String percent(long part, long whole) {
        return BigDecimal.valueOf(part).multiply(BigDecimal.valueOf(100))
                .divide(BigDecimal.valueOf(whole), 1, RoundingMode.HALF_UP).toPlainString();
    }
}
