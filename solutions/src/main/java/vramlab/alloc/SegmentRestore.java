package vramlab.alloc;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Puts a segment the allocator held before a recorded history began back into an allocator:
 * the segment at its recorded address, its live blocks at theirs, the bytes between them free.
 * A replay of a snapshot whose history starts mid-run begins from this state.
 *
 * <p>It works as PyTorch's own checkpoint restore does ({@code setSegmentStateToCheckpoint}
 * in c10/cuda/CUDACachingAllocator.cpp @001074d): every block of the segment is handed out
 * front to back, each split off the rest, and then the blocks that are not live are freed. So
 * the statistics, the free sets and the invariants come out as if the allocator had made those blocks itself.
 */
public final class SegmentRestore {
    /** A block that is live in the restored state: where it is, its size and the request. */
    public record Live(long address, long size, long requested) {
        public Live {
            if (size <= 0 || requested <= 0 || requested > size) {
                throw new IllegalArgumentException("a live block of " + size + " bytes for a request of "
                        + requested);
            }
        }
    }

    private SegmentRestore() {}

    /**
     * A cudaMalloc'd segment of {@code size} bytes at {@code address}, whatever the policy.
     *
     * @return the live blocks, in address order
     * @throws IllegalStateException when the card has no room or the address is taken
     */
    public static List<Block> cudaMalloc(CachingAllocator a, long address, long size, PoolKind pool,
                                         int stream, List<Live> live) {
        a.expectSegmentAt(address);
        Block whole = a.cudaMallocSegment(pool, stream, size);
        a.expectSegmentAt(CachingAllocator.NO_HINT);
        if (whole == null) {
            throw new IllegalStateException("no room on the card for the segment of " + size + " bytes at "
                    + hex(address));
        }
        requireAt(whole.segment, address);
        return carve(a, whole, live);
    }

    /**
     * A mapped range {@code [address, address + size)} of the expandable segment of
     * ({@code pool}, {@code stream}) whose reservation starts at {@code base}; the reservation
     * is made when the allocator has none there yet.
     *
     * @return the live blocks, in address order
     */
    public static List<Block> mappedRange(CachingAllocator a, long base, long address, long size,
                                          PoolKind pool, int stream, List<Live> live) {
        Segment s = reservation(a, base, pool, stream);
        long offset = address - base;
        long page = s.pages.pageSize();
        if (offset < 0 || offset % page != 0 || size % page != 0 || offset + size > s.size) {
            throw new IllegalStateException("the range " + hex(address) + "+" + size
                    + " is not whole pages of " + page + " bytes inside the reservation at "
                    + hex(base) + " of " + s.size + " bytes");
        }
        Block toMap = unmappedAt(a, s, offset);
        Block merged = a.expandable().mapBlock(toMap, size);
        if (merged == null) {
            throw new IllegalStateException("no room on the card to map " + size + " bytes at "
                    + hex(address));
        }
        if (merged.address != address || merged.size != size) {
            throw new IllegalStateException("the range at " + hex(address) + " touches another mapped range");
        }
        a.freeSet(pool).remove(merged);
        return carve(a, merged, live);
    }

    private static Segment reservation(CachingAllocator a, long base, PoolKind pool, int stream) {
        for (Segment s : a.segments()) {
            if (s.isExpandable() && s.address == base && s.pool == pool && s.stream == stream) return s;
        }
        a.expectSegmentAt(base);
        Segment s = a.expandable().newExpandableSegment(pool, stream).segment;
        a.expectSegmentAt(CachingAllocator.NO_HINT);
        requireAt(s, base);
        return s;
    }

    /** The unmapped block that starts at {@code offset}, split off the one holding it if need be. */
    private static Block unmappedAt(CachingAllocator a, Segment s, long offset) {
        for (Block b = s.first; b != null; b = b.next) {
            if (b.mapped || offset < b.offset || offset >= b.offset + b.size) continue;
            if (b.offset == offset) return b;
            FreeSet unmapped = a.unmappedSet(s.pool);
            unmapped.remove(b);                              // [b unmapped][rest unmapped]
            Block rest = new Block(s, b.stream, offset, b.offset + b.size - offset);
            rest.mapped = false;
            rest.prev = b;
            rest.next = b.next;
            if (b.next != null) b.next.prev = rest;
            b.next = rest;
            b.size = offset - b.offset;
            unmapped.add(b);
            unmapped.add(rest);
            return rest;
        }
        throw new IllegalStateException("the reservation at " + hex(s.address)
                + " has no unmapped page at offset " + offset + " (ranges overlap)");
    }

    /**
     * Hands out {@code free} (a block out of every free set) front to back as the live blocks
     * and the gaps between them, then frees the gaps.
     */
    private static List<Block> carve(CachingAllocator a, Block free, List<Live> live) {
        List<Live> sorted = new ArrayList<>(live);
        sorted.sort(Comparator.comparingLong(Live::address));
        FreeSet pool = a.freeSet(free.segment.pool);
        long end = free.address + free.size;
        List<Block> lives = new ArrayList<>(), gaps = new ArrayList<>();
        Block cur = free;
        for (Live l : sorted) {
            if (cur == null || l.address() < cur.address || l.address() + l.size() > end) {
                throw new IllegalStateException("the live block at " + hex(l.address()) + " of " + l.size()
                        + " bytes overlaps another or lies outside [" + hex(free.address) + ", "
                        + hex(end) + ")");
            }
            if (l.address() > cur.address) {
                long gap = l.address() - cur.address;
                gaps.add(cur);
                cur = take(a, pool, cur, gap, gap);
            }
            lives.add(cur);
            cur = take(a, pool, cur, l.size(), l.requested());
        }
        if (cur != null) {
            gaps.add(cur);
            take(a, pool, cur, cur.size, cur.size);
        }
        for (Block g : gaps) a.free(g);
        return lives;
    }

    /** Hands out the front {@code size} bytes of {@code b}; returns the rest, or null. */
    private static Block take(CachingAllocator a, FreeSet pool, Block b, long size, long requested) {
        boolean alreadySplit = b.isSplit();
        Block rest = b.size > size ? a.splitFront(b, size, pool) : null;
        a.markAllocated(b, requested, alreadySplit, rest);
        if (rest != null) pool.remove(rest);
        return rest;
    }

    private static void requireAt(Segment s, long address) {
        if (s.address != address) {
            throw new IllegalStateException("the address " + hex(address) + " overlaps a segment already there");
        }
    }

    private static String hex(long address) { return "0x" + Long.toHexString(address); }
}
