package vramlab.alloc;

import vramlab.units.Bytes;

/**
 * A block: a run of bytes inside one segment, either handed out (live) or cached (free).
 * Blocks of a segment are linked by address ({@code prev}, {@code next}) and tile it.
 *
 * <p>A block's {@code size} and {@code offset} change only while it is out of its pool's free
 * set, because the set is ordered by them.
 */
public final class Block {
    final Segment segment;
    long offset;
    long size;
    long requested;
    boolean allocated;
    Block prev;
    Block next;

    Block(Segment segment, long offset, long size) {
        this.segment = segment;
        this.offset = offset;
        this.size = size;
    }

    public Segment segment() { return segment; }
    public long offset() { return offset; }
    public long size() { return size; }
    /** The caller's unrounded request; 0 while the block is free. */
    public long requested() { return requested; }
    public boolean isAllocated() { return allocated; }
    public long address() { return segment.address + offset; }
    public Block prev() { return prev; }
    public Block next() { return next; }
    public PoolKind pool() { return segment.pool; }
    public int stream() { return segment.stream; }

    /** Prints as the seed does: {@code seg0[4..10)M 6M LIVE}, in the largest unit that is exact. */
    @Override
    public String toString() {
        long end = offset + size;
        long unit = Bytes.MiB;
        String suffix = "M";
        if ((offset | size) % Bytes.MiB != 0) {
            unit = (offset | size) % Bytes.KiB == 0 ? Bytes.KiB : 1;
            suffix = unit == 1 ? "B" : "K";
        }
        return "seg" + segment.id + "[" + offset / unit + ".." + end / unit + ")" + suffix + " "
                + size / unit + suffix + " " + (allocated ? "LIVE" : "FREE");
    }
}
