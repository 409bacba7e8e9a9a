package vramlab.alloc;

import vramlab.units.Bytes;

/**
 * Text pictures of an allocator's segments, for JShell and failure messages:
 * <pre>
 * segment 0 (large, 20M): |....######....######| seg0[0..4)M 4M FREE seg0[4..10)M 6M LIVE ...
 * </pre>
 * One cell per MiB up to 40 cells, scaled beyond; {@code #} live, {@code .} free,
 * {@code ~} freed but waiting for another stream's events, {@code _} address space with no
 * pages. A cell shows the busiest state of any byte in it, in that order: a cell holding a
 * single live byte is {@code #} (so a 2 MiB small segment with 485 KiB live at its front draws
 * {@code |#.|}, never {@code |..|}), a cell with no live byte but one waiting for events is
 * {@code ~}, and a cell is {@code _} only when none of it is mapped. A {@code .} cell is
 * therefore wholly free. An expandable segment is drawn up to the end of its last mapped page.
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

    /** The marks, least busy first: the index is a block's {@link #rank}. */
    private static final String MARKS = "_.~#";

    /**
     * A bar of cells across the segment. Cell {@code i} of {@code n} covers bytes
     * {@code [i * extent / n, (i + 1) * extent / n)}; it shows the busiest block with a byte in it.
     */
    public static String bar(Segment s) {
        long extent = extent(s);
        int cells = (int) Math.min(MAX_CELLS, Math.max(1, extent / Bytes.MiB));
        StringBuilder sb = new StringBuilder("|");
        Block b = s.first;
        for (int i = 0; i < cells; i++) {
            long start = i * extent / cells;
            long end = (i + 1) * extent / cells;
            while (b.offset + b.size <= start) b = b.next;
            int busiest = 0;
            for (Block c = b; c != null && c.offset < end; c = c.next) busiest = Math.max(busiest, rank(c));
            sb.append(MARKS.charAt(busiest));
        }
        return sb.append('|').toString();
    }

    /** 3 live, 2 waiting for events, 1 free, 0 unmapped: a block's index in {@link #MARKS}. */
    static int rank(Block b) {
        return b.allocated ? 3 : !b.mapped ? 0 : b.isPendingFree() ? 2 : 1;
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
