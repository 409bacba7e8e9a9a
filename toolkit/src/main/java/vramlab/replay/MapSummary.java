package vramlab.replay;

import java.io.PrintStream;
import java.util.ArrayList;
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
 * are few ({@link #FULL_MAP_LIMIT} or fewer), else the largest ones, a histogram of how full
 * the segments are, one of the free blocks' sizes, and the fragmentation figures.
 */
public final class MapSummary {
    /** Up to this many segments the whole map is printed, as {@link SegmentMap#text} draws it. */
    public static final int FULL_MAP_LIMIT = 40;
    /** How many of the largest segments the compact map draws. */
    static final int LARGEST = 10;

    private static final long[] FREE_EDGES = {Bytes.MiB, 2 * Bytes.MiB, 8 * Bytes.MiB, 32 * Bytes.MiB,
        128 * Bytes.MiB, Bytes.GiB};

    private MapSummary() {}

    /** Prints the whole map when it is short or {@code full} is set, else the compact one. */
    public static void print(CachingAllocator a, boolean full, PrintStream out) {
        if (full || a.segments().size() <= FULL_MAP_LIMIT) {
            out.print(SegmentMap.text(a));
        } else {
            out.print(compact(a));
        }
    }

    /** The compact map: counts, the largest segments, two histograms, fragmentation. */
    public static String compact(CachingAllocator a) {
        StringBuilder sb = new StringBuilder();
        List<Segment> segments = new ArrayList<>(a.segments());
        int expandable = 0, small = 0;
        for (Segment s : segments) {
            if (s.isExpandable()) expandable++;
            if (s.pool() == PoolKind.SMALL) small++;
        }
        sb.append("segment map: ").append(segments.size()).append(" segments (").append(small).append(" small, ")
          .append(segments.size() - small).append(" large").append(expandable > 0 ? ", " + expandable + " expandable" : "")
          .append("); reserved ").append(Bytes.formatSize(a.reserved())).append(", allocated ")
          .append(Bytes.formatSize(a.allocated())).append(" (").append(a.policy().name())
          .append(" policy); --map prints every segment\n");
        List<Segment> top = largest(segments, LARGEST);
        sb.append("the ").append(top.size()).append(" largest:\n");
        for (Segment s : top) sb.append("  ").append(line(s)).append('\n');
        fill(sb, segments);
        freeBlocks(sb, a);
        return sb.toString();
    }

    /** Largest first; equal ones by id. */
    static final Comparator<Segment> LARGEST_FIRST =
            Comparator.comparingLong(Segment::reservedBytes).reversed().thenComparingInt(Segment::id);

    /**
     * The first {@code n} segments in {@link #LARGEST_FIRST} order, found in one pass: sorting
     * every segment (tens of thousands after a long replay) cost more than the rest of the map.
     */
    static List<Segment> largest(List<Segment> segments, int n) {
        List<Segment> top = new ArrayList<>(n + 1);
        for (Segment s : segments) {
            if (top.size() == n && (n == 0 || LARGEST_FIRST.compare(s, top.get(n - 1)) >= 0)) continue;
            int i = top.size();
            while (i > 0 && LARGEST_FIRST.compare(s, top.get(i - 1)) < 0) i--;
            top.add(i, s);
            if (top.size() > n) top.remove(n);
        }
        return top;
    }

    /** One segment: its header and bar, and its blocks counted rather than listed. */
    private static String line(Segment s) {
        int blocks = 0, live = 0;
        for (Block b = s.first(); b != null; b = b.next()) {
            blocks++;
            if (b.isAllocated()) live++;
        }
        String full = SegmentMap.line(s);
        String head = full.substring(0, full.indexOf("): ") + 1);
        return head + ": " + SegmentMap.bar(s) + " " + blocks + (blocks == 1 ? " block, " : " blocks, ") + live + " live";
    }

    /** How full the segments are: allocated bytes over the bytes each holds on the device. */
    private static void fill(StringBuilder sb, List<Segment> segments) {
        String[] labels = {"empty", "under 25%", "25-50%", "50-75%", "75-99%", "full"};
        long[] counts = new long[labels.length];
        for (Segment s : segments) {
            long live = 0;
            for (Block b = s.first(); b != null; b = b.next()) if (b.isAllocated()) live += b.size();
            long held = s.reservedBytes();
            int bucket = live == 0 ? 0 : live >= held ? 5 : 1 + (int) Math.min(3, 4 * live / held);
            counts[bucket]++;
        }
        sb.append("segments by fill:");
        for (int i = 0; i < labels.length; i++) sb.append("  ").append(labels[i]).append(' ').append(counts[i]);
        sb.append('\n');
    }

    private static String edge(long bytes) {
        return bytes % Bytes.GiB == 0 ? bytes / Bytes.GiB + "G" : bytes / Bytes.MiB + "M";
    }

    /** The cached free blocks by size, and how fragmented the free bytes are. */
    private static void freeBlocks(StringBuilder sb, CachingAllocator a) {
        long[] counts = new long[FREE_EDGES.length + 1];
        long[] bytes = new long[FREE_EDGES.length + 1];
        long total = 0, largest = 0, n = 0;
        for (PoolKind kind : PoolKind.values()) {
            for (Block b : a.freeBlocks(kind)) {
                int bucket = 0;
                while (bucket < FREE_EDGES.length && b.size() >= FREE_EDGES[bucket]) bucket++;
                counts[bucket]++;
                bytes[bucket] += b.size();
                total += b.size();
                largest = Math.max(largest, b.size());
                n++;
            }
        }
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
            sb.append(String.format(" (1 - largest/free = %.1f%%)", 100.0 * (total - largest) / total));
        }
        sb.append('\n');
    }
}
