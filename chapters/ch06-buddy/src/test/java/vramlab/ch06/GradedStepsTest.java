package vramlab.ch06;

import static org.assertj.core.api.Assertions.assertThat;
import static vramlab.units.Bytes.gib;
import static vramlab.units.Bytes.kib;
import static vramlab.units.Bytes.mib;

import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import vramlab.buddy.BuddyAllocator;
import vramlab.driver.Gpu;
import vramlab.kv.KvBlockPool;
import vramlab.kv.KvCacheManager;
import vramlab.quiz.Graded;
import vramlab.quiz.feedback.StepOrder;

/** The lab steps of chapter 6, one graded test each; failures show the pool's map. */
@DisplayName("ch06 lab steps")
@ExtendWith(StepOrder.class)
class GradedStepsTest {

    static BuddyAllocator pool16() {   // 16 MiB of 1 MiB minimum blocks, as in the notes
        return BuddyAllocator.upfront(new Gpu(gib(1)).openToyProcess(), mib(16), 20, 24);
    }

    static KvCacheManager kv(int blocks) {
        return new KvCacheManager(new KvBlockPool(new Gpu(gib(1)).openToyProcess(), blocks, 16, kib(64)));
    }

    /** Step 6.1's cases, in order: size, order. */
    static final long[][] ORDER_CASES = {{1, 20}, {mib(1), 20}, {mib(1) + 1, 21}, {mib(3), 22}, {mib(16), 24}};
    /** Step 6.2's cases, in order: offset, order, buddy. */
    static final long[][] BUDDY_CASES = {{8, 1, 10}, {10, 1, 8}, {0x12, 2, 0x16}, {mib(4), 22, 0}};
    /** Step 6.6's cases, in order: tokens, blocks. */
    static final long[][] BLOCKS_CASES = {{1, 1}, {16, 1}, {17, 2}, {0, 0}};

    @Test
    @Graded(step = "6.1", points = 2)
    @Timeout(value = 10, unit = TimeUnit.SECONDS)
    @DisplayName("6.1: a size rounds up to the smallest power of two at or above the minimum block")
    void orderFor() {
        BuddyAllocator b = pool16();
        for (long[] c : ORDER_CASES) {
            Ch06Feedback.ORDER_FOR.check("orderFor(" + vramlab.units.Bytes.readable(c[0]) + ") on 1 MiB minimum blocks", c[0], b.orderFor(c[0]),
                    (int) c[1]);
        }
        // The Javadoc names the exception, not its words: any message passes.
        Ch06Feedback.ORDER_FOR.checkThrows("orderFor(0), a size that is not positive", IllegalArgumentException.class,
                () -> b.orderFor(0));
        Ch06Feedback.ORDER_FOR.checkThrows("orderFor(16 MiB + 1 B), more than the largest block (16 MiB)",
                IllegalArgumentException.class, () -> b.orderFor(mib(16) + 1));
    }

    @Test
    @Graded(step = "6.2", points = 1)
    @Timeout(value = 10, unit = TimeUnit.SECONDS)
    @DisplayName("6.2: the buddy differs from the block in the bit of its order")
    void buddyOf() {
        for (long[] c : BUDDY_CASES) {
            var asked = new Ch06Feedback.Buddy(c[0], (int) c[1]);
            Ch06Feedback.BUDDY_OF.check(asked.toString(), asked, BuddyAllocator.buddyOf(c[0], (int) c[1]), c[2]);
        }
    }

    @Test
    @Graded(step = "6.3", points = 3)
    @Timeout(value = 10, unit = TimeUnit.SECONDS)
    @DisplayName("6.3: allocating splits the block down, upper halves go back free, the lowest piece is used")
    void splitDown() {
        BuddyAllocator b = pool16();
        long x = b.alloc(mib(1));
        Ch06Feedback.SPLIT_MAP.check("the map after alloc(1 MiB) on [F 16]", "", b.map(), "[A 1][F 1][F 2][F 4][F 8]");
        assertThat(x - b.base()).as("the offset of alloc(1 MiB); " + b.map()).isZero();
        assertThat(b.freeCounts()).as("freeCounts() after it; " + b.map()).containsExactly(1, 1, 1, 1, 0);
        b.alloc(mib(2));
        Ch06Feedback.SPLIT_MAP.check("then alloc(2 MiB)", "", b.map(), "[A 1][F 1][A 2][F 4][F 8]");
        b.checkInvariants();
    }

    @Test
    @Graded(step = "6.4", points = 3)
    @Timeout(value = 10, unit = TimeUnit.SECONDS)
    @DisplayName("6.4: freeing merges with the buddy while it is free, and stops at a live buddy")
    void mergeUp() {
        BuddyAllocator b = pool16();
        long x = b.alloc(mib(1)), y = b.alloc(mib(1)), z = b.alloc(mib(2));
        b.free(x);
        Ch06Feedback.MERGE_MAP.check("free(x) of [x 1][y 1][z 2][F 4][F 8] (y is live)", "x", b.map(),
                "[F 1][A 1][A 2][F 4][F 8]");
        b.free(y);
        Ch06Feedback.MERGE_MAP.check("then free(y) (z is live)", "y", b.map(), "[F 2][A 2][F 4][F 8]");
        b.free(z);
        Ch06Feedback.MERGE_MAP.check("then free(z)", "z", b.map(), "[F 16]");
        b.checkInvariants();
        BuddyAllocator two = BuddyAllocator.upfront(new Gpu(gib(1)).openToyProcess(), mib(32), 20, 24);
        long left = two.alloc(mib(16)), right = two.alloc(mib(16));
        two.free(left);
        two.free(right);
        assertThat(two.map()).as("two top-order blocks stay two: nothing merges above the largest order")
                .isEqualTo("[F 16][F 16]");
        two.checkInvariants();
    }

    @Test
    @Graded(step = "6.5", points = 2)
    @Timeout(value = 10, unit = TimeUnit.SECONDS)
    @DisplayName("6.5: buddyinfo prints nr_free per order in /proc/buddyinfo's layout")
    void buddyinfo() {
        BuddyAllocator b = pool16();
        b.alloc(mib(3));
        Ch06Feedback.BUDDYINFO.check("buddyinfo() after alloc(3 MiB), map " + b.map(), "", b.buddyinfo(),
                "Node 0, zone   Normal      0      0      1      1      0 \n");
    }

    @Test
    @Graded(step = "6.6", points = 1)
    @Timeout(value = 10, unit = TimeUnit.SECONDS)
    @DisplayName("6.6: n tokens need ceil(n / 16) blocks")
    void blocksNeeded() {
        KvCacheManager m = kv(4);
        for (long[] c : BLOCKS_CASES) {
            Ch06Feedback.BLOCKS_NEEDED.check("blocksNeeded(" + c[0] + ")", c[0], m.blocksNeeded(c[0]), (int) c[1]);
        }
    }

    @Test
    @Graded(step = "6.7", points = 3)
    @Timeout(value = 10, unit = TimeUnit.SECONDS)
    @DisplayName("6.7: allocate_slots takes every block a request needs, or none")
    void allocateSlots() {
        KvCacheManager m = kv(4);                              // blocks 1, 2, 3 usable
        Ch06Feedback.ADMITTED.check("allocateSlots(a, 17) with three blocks free", "fits", m.allocateSlots("a", 17), true,
                m::map);
        Ch06Feedback.TABLES.check("a's blocks after it", "taken", m.blocks("a"), List.of(1, 2), m::map);
        Ch06Feedback.ADMITTED.check("allocateSlots(b, 20) with one block free", "too big", m.allocateSlots("b", 20),
                false, m::map);
        Ch06Feedback.TABLES.check("b's blocks after allocateSlots(b, 20) was refused", "refused", m.blocks("b"),
                List.of(), m::map);
        Ch06Feedback.ADMITTED.check("allocateSlots(a, 15), 32 tokens in all in a's two blocks", "fits",
                m.allocateSlots("a", 15), true, m::map);
        Ch06Feedback.TABLES.check("a's blocks after 15 more tokens (32 in all: still 2 blocks)", "grown", m.blocks("a"),
                List.of(1, 2), m::map);
        Ch06Feedback.ADMITTED.check("allocateSlots(b, 16) with one block free", "fits", m.allocateSlots("b", 16), true,
                m::map);
        m.checkInvariants();
    }

    @Test
    @Graded(step = "6.8", points = 2)
    @Timeout(value = 10, unit = TimeUnit.SECONDS)
    @DisplayName("6.8: free gives the blocks back in reverse order, last block first in line")
    void freeReverse() {
        KvCacheManager m = kv(6);
        m.allocateSlots("a", 48);                              // 1, 2, 3; free queue 4, 5
        m.free("a");
        // no hashes: vLLM's free_blocks puts them at the front, in the order they are freed
        Ch06Feedback.FREE_QUEUE.check("the free queue after free(a) of blocks 1, 2, 3 (4, 5 were free)", "3",
                m.pool().freeQueue().toList(), List.of(3, 2, 1, 4, 5), m::map);
        Throwable twice = StepOrder.thrownBy(() -> m.free("a"));
        Ch06Feedback.DOUBLE_FREE.check("free(a) a second time", "", twice == null ? "returned normally"
                : twice.getClass().getSimpleName(), "IllegalArgumentException", m::map);
        m.checkInvariants();
    }
}
