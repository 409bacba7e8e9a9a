package vramlab.alloc;

import static org.assertj.core.api.Assertions.assertThat;
import static vramlab.units.Bytes.mib;

import java.util.List;
import java.util.NavigableSet;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import vramlab.driver.Gpu;
import vramlab.ch03.Ch03Feedback;
import vramlab.quiz.Graded;
import vramlab.quiz.feedback.StepOrder;

/**
 * Steps 3.2 and 3.4 on hand-built blocks, without the rest of the allocator: these tests fail
 * with their own step's Todo even before step 3.1 is written. (They sit in package
 * {@code vramlab.alloc} to reach the package-private step methods.)
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
@ExtendWith(StepOrder.class)
class StepsInIsolationTest {
    /** An allocator with no segments: only its step methods are used. */
    final CachingAllocator allocator = new CachingAllocator(new Gpu(mib(40)).openToyProcess(), new ToyPolicy());

    static List<Block> segment(int id, long address, long... sizesMiB) {
        return HandBuilt.segment(id, address, sizesMiB);
    }

    @Graded(step = "3.2", points = 2)
    @Test
    @DisplayName("3.2 on its own: the smallest free block that fits, and the lower address among equals")
    void bestFitOnItsOwn() { bestFit(allocator::findFreeBlock); }

    /** A body of step 3.2: the allocator's own, or (in the kit's tests of this feedback) a wrong one. */
    interface FindBody { Block find(NavigableSet<Block> pool, int stream, long rounded); }

    /** A body of step 3.4, likewise. */
    interface MergeBody { Block merge(Block block, NavigableSet<Block> pool); }

    /** {@link #bestFitOnItsOwn} on {@code body}. */
    static void bestFit(FindBody body) {
        List<Block> s0 = segment(0, 1L << 40, 2, 6, 2, 4, 6);        // free: 6 MiB @2, 4 MiB @10
        List<Block> s1 = segment(1, 2L << 40, 2, 4, 14);              // free: 4 MiB @2 (higher address)
        TreeSet<Block> pool = new TreeSet<>(FreeSet.BY_STREAM_SIZE_ADDRESS);
        pool.addAll(List.of(s0.get(1), s0.get(3), s1.get(1)));
        find(body, pool, 0, mib(3), s0.get(3));
        find(body, pool, 0, mib(5), s0.get(1));
        find(body, pool, 0, mib(7), null);
        find(body, pool, 1, mib(1), null);                            // another stream's blocks are not taken
        List<Block> s2 = HandBuilt.segmentOn(1, 2, 3L << 40, 2, 8, 10); // stream 1: free 8 MiB @2
        pool.add(s2.get(1));
        find(body, pool, 0, mib(7), null);      // stream 1's 8 MiB block sorts after stream 0's, but is not its
        find(body, pool, 1, mib(7), s2.get(1));
    }

    /**
     * A free set that checks how it is used: it is ordered by size, so a block must leave it
     * before its size changes (a block whose size changed inside would be filed in the wrong place).
     */
    static final class SizeCheckingPool extends TreeSet<Block> {
        private static final long serialVersionUID = 1L;
        private final transient java.util.Map<Block, Long> sizeWhenAdded = new java.util.IdentityHashMap<>();

        SizeCheckingPool() { super(FreeSet.BY_STREAM_SIZE_ADDRESS); }

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
    void mergeOnItsOwn() { mergeBothSides(allocator::mergeWithNeighbours); }

    /**
     * {@link #mergeOnItsOwn} on {@code body}. The call is described as it was made: the freed
     * block and its segment before the merge, since a wrong merge changes both.
     */
    static void mergeBothSides(MergeBody body) {
        List<Block> s = segment(0, 1L << 40, 2, 6, 2, 4, 6);
        TreeSet<Block> pool = new TreeSet<>(FreeSet.BY_STREAM_SIZE_ADDRESS);
        pool.addAll(List.of(s.get(1), s.get(3)));
        Block middle = s.get(2);
        middle.allocated = false;                                     // freeing the 2 MiB block
        var freeing = new Ch03Feedback.Merge(where(middle), mib(20));
        String call = "mergeWithNeighbours(" + middle + ") in " + s.get(0).segment();
        Block merged = body.merge(middle, pool);
        Ch03Feedback.MERGE.check(call, freeing, where(merged), "seg0 2M+12M");
        assertThat(merged).as("the merged block is the left neighbour, grown").isSameAs(s.get(1));
        assertThat(merged.next()).as("the merged block's next").isSameAs(s.get(4));
        assertThat(s.get(4).prev()).as("the next block's prev").isSameAs(merged);
        Ch03Feedback.MERGED_AWAY.check("the free set after the merge (the caller adds the merged block)", freeing,
                pool.size(), 0);

        List<Block> t = segment(1, 2L << 40, 2, 6, 2, 4, 6);
        SizeCheckingPool checked = new SizeCheckingPool();
        checked.add(t.get(1));
        checked.add(t.get(3));
        t.get(2).allocated = false;
        assertThat(body.merge(t.get(2), checked).size()).isEqualTo(mib(12));
        assertThat(checked).as("each neighbour left the free set before it was absorbed").isEmpty();
    }

    @Graded(step = "3.4", points = 1)
    @Test
    @DisplayName("3.4 on its own: a free block never merges into the next segment, even at the next address")
    void mergeStaysInItsSegment() {
        List<Block> s0 = segment(0, 1L << 40, 2, 18);                // [2 L][18 ->F]
        List<Block> s1 = segment(1, (1L << 40) + mib(20), 4, 16);     // at the next address: [4 F][16 L]
        s1.get(0).allocated = false;
        s1.get(1).allocated = true;
        TreeSet<Block> pool = new TreeSet<>(FreeSet.BY_STREAM_SIZE_ADDRESS);
        pool.add(s1.get(0));
        Block last = s0.get(1);                                       // freeing segment 0's last block
        var freeing = new Ch03Feedback.Merge(where(last), mib(20));   // as it was before the call
        String call = "mergeWithNeighbours(" + last + ") with segment 1 starting at the next address";
        Block merged = allocator.mergeWithNeighbours(last, pool);
        Ch03Feedback.MERGE.check(call, freeing, where(merged), "seg0 2M+18M");
        assertThat(pool).as("segment 1's free block stays in the free set").containsExactly(s1.get(0));
    }

    /** {@code seg0 2M+12M}: a block's segment, offset and size, as the merge feedback reads it. */
    static String where(Block b) {
        return "seg" + b.segment().id() + " " + b.offset() / mib(1) + "M+" + b.size() / mib(1) + "M";
    }

    /** One search, described with each free block's stream, so that "another stream's block" can be checked. */
    static void find(FindBody body, TreeSet<Block> pool, int stream, long rounded, Block expected) {
        var asked = new vramlab.ch03.Ch03Feedback.Find(List.copyOf(pool), stream, rounded);
        Ch03Feedback.FIND.check("findFreeBlock(pool, stream " + stream + ", " + rounded / mib(1) + " MiB) over "
                + asked.listing(), asked, body.find(pool, stream, rounded), expected);
    }
}
