package vramlab.alloc;

import vramlab.units.Bytes;

/**
 * Text pictures of an allocator's segments, for JShell and failure messages:
 * <pre>
 * segment 0 (large, 20M): |....######....######| seg0[0..4)M 4M FREE seg0[4..10)M 6M LIVE ...
 * </pre>
 * One cell per MiB up to 40 cells, scaled beyond; {@code #} live, {@code .} free,
 * {@code ~} freed but waiting for another stream's events, {@code _} address space with no
 * pages. An expandable segment is drawn up to the end of its last mapped page.
 */
public final class SegmentMap {
    private static final int MAX_CELLS = 40;

    private SegmentMap() {}

    public static String text(CachingAllocator a) {
        StringBuilder sb = new StringBuilder();
        sb.append("reserved=").append(Bytes.toyM(a.reserved()))
          .append(" allocated=").append(Bytes.toyM(a.allocated()))
          .append(" requested=").append(Bytes.toyM(a.requested()))
          .append(" (").append(a.policy().name()).append(" policy)\n");
        if (a.segments().isEmpty()) sb.append("(no segments)\n");
        for (Segment s : a.segments()) sb.append(line(s)).append('\n');
        return sb.toString();
    }

    /** One segment: its header, bar and blocks. */
    public static String line(Segment s) {
        return head(s) + ": " + bar(s) + ' ' + s;
    }

    /** A segment's header: {@code segment 0 (large, 20M)}, its stream when not 0. */
    public static String head(Segment s) {
        String head = "segment " + s.id + " (" + s.pool.name().toLowerCase() + ", ";
        if (s.isExpandable()) {
            head += "expandable, " + sizeLabel(s.reservedBytes()) + " mapped";
        } else {
            head += sizeLabel(s.size);
        }
        if (s.stream != 0) head += ", stream " + s.stream;
        return head + ")";
    }

    /** A bar of cells across the segment: the state of the block under each cell's middle. */
    public static String bar(Segment s) {
        long extent = extent(s);
        int cells = (int) Math.min(MAX_CELLS, Math.max(1, extent / Bytes.MiB));
        StringBuilder sb = new StringBuilder("|");
        Block b = s.first;
        for (int i = 0; i < cells; i++) {
            long mid = (2L * i + 1) * (extent / 2) / cells;
            while (b.offset + b.size <= mid) b = b.next;
            sb.append(b.allocated ? '#' : !b.mapped ? '_' : b.isPendingFree() ? '~' : '.');
        }
        return sb.append('|').toString();
    }

    /** The part of a segment worth drawing: all of it, or an expandable one's mapped front. */
    static long extent(Segment s) {
        if (!s.isExpandable()) return s.size;
        long end = 0;
        for (Block b = s.first; b != null; b = b.next) if (b.mapped) end = b.offset + b.size;
        return Math.max(end, s.pages.pageSize());
    }

    private static String sizeLabel(long size) {
        return size % Bytes.MiB == 0 ? Bytes.toyM(size) : Bytes.formatSize(size);
    }
}
