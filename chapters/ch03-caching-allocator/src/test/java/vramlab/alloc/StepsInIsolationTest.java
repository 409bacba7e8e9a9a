package vramlab.alloc;

import static org.assertj.core.api.Assertions.assertThat;
import static vramlab.units.Bytes.mib;

import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import vramlab.driver.Gpu;
import vramlab.quiz.Graded;

/**
 * Steps 3.2 and 3.4 on hand-built blocks, without the rest of the allocator: these tests fail
 * with their own step's Todo even before step 3.1 is written. (They sit in package
 * {@code vramlab.alloc} to reach the package-private step methods.)
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class StepsInIsolationTest {
    /** An allocator with no segments: only its step methods are used. */
    final CachingAllocator allocator = new CachingAllocator(new Gpu(mib(40)).openToyProcess(), new ToyPolicy());

    /** A 20 MiB segment at {@code address}, cut into blocks of these MiB sizes; even ones live. */
    static List<Block> segment(int id, long address, long... sizesMiB) {
        return segmentOn(0, id, address, sizesMiB);
    }

    /** The same on {@code stream}. */
    static List<Block> segmentOn(int stream, int id, long address, long... sizesMiB) {
        Segment s = new Segment(id, address, mib(20), PoolKind.LARGE, stream);
        List<Block> blocks = new java.util.ArrayList<>();
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

    @Graded(step = "3.2", points = 2)
    @Test
    @DisplayName("3.2 on its own: the smallest free block that fits, and the lower address among equals")
    void bestFitOnItsOwn() {
        List<Block> s0 = segment(0, 1L << 40, 2, 6, 2, 4, 6);        // free: 6 MiB @2, 4 MiB @10
        List<Block> s1 = segment(1, 2L << 40, 2, 4, 14);              // free: 4 MiB @2 (higher address)
        TreeSet<Block> pool = new TreeSet<>(CachingAllocator.BY_STREAM_SIZE_ADDRESS);
        pool.addAll(List.of(s0.get(1), s0.get(3), s1.get(1)));
        assertThat(allocator.findFreeBlock(pool, 0, mib(3))).as("%s", pool).isSameAs(s0.get(3));
        assertThat(allocator.findFreeBlock(pool, 0, mib(5))).as("%s", pool).isSameAs(s0.get(1));
        assertThat(allocator.findFreeBlock(pool, 0, mib(7))).as("%s", pool).isNull();
        assertThat(allocator.findFreeBlock(pool, 1, mib(1))).as("another stream's blocks are not taken").isNull();
        List<Block> s2 = segmentOn(1, 2, 3L << 40, 2, 8, 10);        // stream 1: free 8 MiB @2
        pool.add(s2.get(1));
        assertThat(allocator.findFreeBlock(pool, 0, mib(7))).as("nothing of stream 0 fits; stream 1's 8 MiB "
                + "block sorts after it but is not stream 0's: %s", pool).isNull();
        assertThat(allocator.findFreeBlock(pool, 1, mib(7))).as("%s", pool).isSameAs(s2.get(1));
    }

    /**
     * A free set that checks how it is used: it is ordered by size, so a block must leave it
     * before its size changes (a block whose size changed inside would be filed in the wrong place).
     */
    static final class SizeCheckingPool extends TreeSet<Block> {
        private static final long serialVersionUID = 1L;
        private final transient java.util.Map<Block, Long> sizeWhenAdded = new java.util.IdentityHashMap<>();

        SizeCheckingPool() { super(CachingAllocator.BY_STREAM_SIZE_ADDRESS); }

        @Override public boolean add(Block b) {
            sizeWhenAdded.put(b, b.size);
            return super.add(b);
        }

        @Override public boolean remove(Object o) {
            Block b = (Block) o;
            Long was = sizeWhenAdded.remove(b);
            if (was != null && was != b.size) {
                throw new AssertionError("the block at offset " + b.offset() + " left the free set after its size "
                        + "changed (" + was + " -> " + b.size + " B): remove a neighbour before absorbing it");
            }
            return super.remove(o);
        }
    }

    @Graded(step = "3.4", points = 2)
    @Test
    @DisplayName("3.4 on its own: [2 L][6 F][2 ->F][4 F] merges into one 12 MiB free block")
    void mergeOnItsOwn() {
        List<Block> s = segment(0, 1L << 40, 2, 6, 2, 4, 6);
        TreeSet<Block> pool = new TreeSet<>(CachingAllocator.BY_STREAM_SIZE_ADDRESS);
        pool.addAll(List.of(s.get(1), s.get(3)));
        Block middle = s.get(2);
        middle.allocated = false;                                     // freeing the 2 MiB block
        Block merged = allocator.mergeWithNeighbours(middle, pool);
        assertThat(merged).isSameAs(s.get(1));
        assertThat(merged.offset()).isEqualTo(mib(2));
        assertThat(merged.size()).isEqualTo(mib(12));
        assertThat(merged.next()).isSameAs(s.get(4));
        assertThat(s.get(4).prev()).isSameAs(merged);
        assertThat(pool).as("the neighbours left the free set; the caller adds the merged block").isEmpty();

        List<Block> t = segment(1, 2L << 40, 2, 6, 2, 4, 6);
        SizeCheckingPool checked = new SizeCheckingPool();
        checked.add(t.get(1));
        checked.add(t.get(3));
        t.get(2).allocated = false;
        assertThat(allocator.mergeWithNeighbours(t.get(2), checked).size()).isEqualTo(mib(12));
        assertThat(checked).as("each neighbour left the free set before it was absorbed").isEmpty();
    }
}
