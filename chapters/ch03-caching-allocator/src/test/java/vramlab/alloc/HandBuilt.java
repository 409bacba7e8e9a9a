package vramlab.alloc;

import static vramlab.units.Bytes.mib;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/** Segments and free sets built by hand, for tests that call one step without the allocator. */
public final class HandBuilt {
    private HandBuilt() {}

    /** A 20 MiB segment at {@code address}, cut into blocks of these MiB sizes; even ones live. */
    public static List<Block> segment(int id, long address, long... sizesMiB) {
        return segmentOn(0, id, address, sizesMiB);
    }

    /** The same on {@code stream}. */
    public static List<Block> segmentOn(int stream, int id, long address, long... sizesMiB) {
        Segment s = new Segment(id, address, mib(20), PoolKind.LARGE, stream);
        List<Block> blocks = new ArrayList<>();
        long offset = 0;
        Block prev = null;
        for (int i = 0; i < sizesMiB.length; i++) {
            Block b = new Block(s, offset, mib(sizesMiB[i]));
            b.allocated = i % 2 == 0;
            b.prev = prev;
            if (prev != null) prev.next = b;
            else s.first = b;
            blocks.add(b);
            prev = b;
            offset += b.size;
        }
        return blocks;
    }

    /** A free set, ordered as the allocator orders it: stream, size, address. */
    public static TreeSet<Block> pool(List<Block> blocks) {
        TreeSet<Block> pool = new TreeSet<>(FreeSet.BY_STREAM_SIZE_ADDRESS);
        pool.addAll(blocks);
        return pool;
    }
}
