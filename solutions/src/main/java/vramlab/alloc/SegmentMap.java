package vramlab.alloc;

import vramlab.units.Bytes;

/**
 * Text pictures of an allocator's segments, for JShell and failure messages:
 * <pre>
 * segment 0 (large, 20M): |....######....######| seg0[0..4)M 4M FREE seg0[4..10)M 6M LIVE ...
 * </pre>
 * One cell per MiB up to 40 cells, scaled beyond; {@code #} live, {@code .} free.
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
        for (Segment s : a.segments()) {
            sb.append("segment ").append(s.id).append(" (").append(s.pool.name().toLowerCase())
              .append(", ").append(sizeLabel(s.size)).append("): ")
              .append(bar(s)).append(' ').append(s).append('\n');
        }
        return sb.toString();
    }

    /** A bar of cells across the segment: {@code #} where a live block covers the cell's middle. */
    public static String bar(Segment s) {
        int cells = (int) Math.min(MAX_CELLS, Math.max(1, s.size / Bytes.MiB));
        StringBuilder sb = new StringBuilder("|");
        Block b = s.first;
        for (int i = 0; i < cells; i++) {
            long mid = (2L * i + 1) * (s.size / 2) / cells;
            while (b.offset + b.size <= mid) b = b.next;
            sb.append(b.allocated ? '#' : '.');
        }
        return sb.append('|').toString();
    }

    private static String sizeLabel(long size) {
        return size % Bytes.MiB == 0 ? Bytes.toyM(size) : Bytes.formatSize(size);
    }
}
