package vramlab.alloc;

import java.util.ArrayList;
import java.util.List;

/**
 * A segment: one cudaMalloc'd range, cut into blocks that tile it. It belongs to one pool and
 * one stream for its whole life, and blocks never merge across segments.
 */
public final class Segment {
    final int id;
    final long address;
    final long size;
    final PoolKind pool;
    final int stream;
    Block first;

    Segment(int id, long address, long size, PoolKind pool, int stream) {
        this.id = id;
        this.address = address;
        this.size = size;
        this.pool = pool;
        this.stream = stream;
    }

    public int id() { return id; }
    public long address() { return address; }
    public long size() { return size; }
    public PoolKind pool() { return pool; }
    public int stream() { return stream; }
    public Block first() { return first; }

    /** True when one free block covers the whole segment: empty_cache may release it. */
    public boolean isEntirelyFree() { return first.next == null && !first.allocated; }

    public List<Block> blocks() {
        List<Block> out = new ArrayList<>();
        for (Block b = first; b != null; b = b.next) out.add(b);
        return out;
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        for (Block b = first; b != null; b = b.next) {
            if (sb.length() > 0) sb.append(' ');
            sb.append(b);
        }
        return sb.toString();
    }
}
