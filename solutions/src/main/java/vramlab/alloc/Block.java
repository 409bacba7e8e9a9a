package vramlab.alloc;

import java.util.Set;
import java.util.TreeSet;

import vramlab.units.Bytes;

/**
 * A block: a run of bytes inside one segment, either handed out (live) or cached (free).
 * Blocks of a segment are linked by address ({@code prev}, {@code next}) and tile it.
 *
 * <p>A block's {@code size} and {@code offset} change only while it is out of its pool's free
 * set, because the set is ordered by them.
 *
 * <p>PyTorch's extra state (c10/cuda/CUDACachingAllocator.cpp, 2024 main, struct Block):
 * {@code streamUses} are the other streams {@code record_stream} named; {@code eventCount} the
 * events still pending after a free; a block of an expandable segment may be {@code !mapped}
 * (address space with no pages under it).
 */
public final class Block {
    final Segment segment;
    final int stream;
    long offset;
    long address;                          // segment.address + offset, kept for the free sets' order
    long size;
    long requested;
    boolean allocated;
    boolean mapped = true;
    int eventCount;
    Set<Integer> streamUses;               // null when empty: most blocks never see another stream
    long gcStamp;                          // the pool's get_free_block count when it was cached
    boolean noted;                         // in its allocator's list of blocks cached whole
    boolean notedExpandable;               // in its allocator's list of expandable blocks cached
    FreeSet.Chunk freeChunk;               // the free set's chunk that holds it (FreeSet's: a remove needs no search)
    Block prev;
    Block next;

    Block(Segment segment, long offset, long size) {
        this(segment, segment.stream, offset, size);
    }

    Block(Segment segment, int stream, long offset, long size) {
        this.segment = segment;
        this.stream = stream;
        this.offset = offset;
        this.address = segment.address + offset;
        this.size = size;
    }

    /** Moves the block's start within its segment (only while it is out of every free set). */
    void moveTo(long newOffset) {
        offset = newOffset;
        address = segment.address + newOffset;
    }

    public Segment segment() { return segment; }
    public long offset() { return offset; }
    public long size() { return size; }
    /** The caller's unrounded request; 0 while the block is free. */
    public long requested() { return requested; }
    public boolean isAllocated() { return allocated; }
    public long address() { return address; }
    public Block prev() { return prev; }
    public Block next() { return next; }
    public PoolKind pool() { return segment.pool; }
    public int stream() { return stream; }
    /** False for address space of an expandable segment that has no physical pages yet. */
    public boolean isMapped() { return mapped; }
    /** PyTorch's {@code is_split()}: the block has a neighbour in its segment. */
    public boolean isSplit() { return prev != null || next != null; }

    /** Freed by the caller, but events on other streams are still pending (snapshot state). */
    public boolean isPendingFree() { return !allocated && (eventCount > 0 || hasStreamUses()); }

    /** PyTorch's {@code active}: allocated, or freed with events still pending. */
    public boolean isActive() { return allocated || isPendingFree(); }

    boolean hasStreamUses() { return streamUses != null && !streamUses.isEmpty(); }

    /** The streams {@code record_stream} named for this block, sorted. */
    public Set<Integer> streamUses() {
        return streamUses == null ? Set.of() : java.util.Collections.unmodifiableSet(new TreeSet<>(streamUses));
    }

    /** Prints as the notes do: {@code seg0[4..10)M 6M LIVE}, in the largest unit that is exact. */
    @Override
    public String toString() {
        long end = offset + size;
        long unit = Bytes.MiB;
        String suffix = "M";
        if ((offset | size) % Bytes.MiB != 0) {
            unit = (offset | size) % Bytes.KiB == 0 ? Bytes.KiB : 1;
            suffix = unit == 1 ? "B" : "K";
        }
        String state = allocated ? "LIVE" : !mapped ? "UNMAPPED" : isPendingFree() ? "PENDING" : "FREE";
        return "seg" + segment.id + "[" + offset / unit + ".." + end / unit + ")" + suffix + " "
                + size / unit + suffix + " " + state;
    }
}
