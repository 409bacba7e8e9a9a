package vramlab.alloc;

import java.util.ArrayList;
import java.util.List;

/**
 * A segment: one cudaMalloc'd range, cut into blocks that tile it. It belongs to one pool and
 * one stream for its whole life, and blocks never merge across segments.
 *
 * <p>An expandable segment ({@link #isExpandable()}) is instead one virtual reservation with
 * physical pages mapped on demand ({@link ExpandableSegment}); its blocks tile the whole
 * reservation, and those over unmapped pages are {@code !mapped}. Its {@link #size()} is the
 * reservation; what it holds on the device is {@link #reservedBytes()}.
 */
public final class Segment {
    final int id;
    /**
     * Where the segment starts, as PyTorch reports and orders it: the driver's pointer, or, in a
     * replay of a recorded run, the address that run's cudaMalloc returned
     * ({@link CachingAllocator#expectSegmentAt}).
     */
    final long address;
    /** The driver's pointer: what cudaFree takes (the reservation's base for an expandable one). */
    final long ptr;
    final long size;
    final PoolKind pool;
    final int stream;
    final ExpandableSegment pages;         // null for a cudaMalloc segment
    Block first;
    CachingAllocator owner;                // set while the allocator holds this segment

    Segment(int id, long address, long size, PoolKind pool, int stream) {
        this(id, address, address, size, pool, stream, null);
    }

    Segment(int id, long address, long ptr, long size, PoolKind pool, int stream, ExpandableSegment pages) {
        this.id = id;
        this.address = address;
        this.ptr = ptr;
        this.size = size;
        this.pool = pool;
        this.stream = stream;
        this.pages = pages;
    }

    public int id() { return id; }
    public long address() { return address; }
    public long size() { return size; }
    public PoolKind pool() { return pool; }
    public int stream() { return stream; }
    public Block first() { return first; }
    public boolean isExpandable() { return pages != null; }
    /** The pages under an expandable segment; null for a cudaMalloc segment. */
    public ExpandableSegment pages() { return pages; }

    /** Device memory this segment holds: its size, or an expandable segment's mapped pages. */
    public long reservedBytes() { return pages == null ? size : pages.mappedBytes(); }

    /** True when one free block covers the whole segment: empty_cache may release it. */
    public boolean isEntirelyFree() { return first.next == null && !first.allocated && !first.isPendingFree(); }

    public List<Block> blocks() {
        List<Block> out = new ArrayList<>();
        for (Block b = first; b != null; b = b.next) out.add(b);
        return out;
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        for (Block b = first; b != null; b = b.next) {
            if (!b.mapped && b.next == null && b.prev != null) break;   // the unmapped tail of a reservation
            if (sb.length() > 0) sb.append(' ');
            sb.append(b);
        }
        return sb.toString();
    }
}
