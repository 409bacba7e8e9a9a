package vramlab.buddy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static vramlab.units.Bytes.gib;

import java.util.Collection;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import vramlab.driver.Gpu;

/**
 * The buddy allocator's checkInvariants fires on each broken promise (free lists are reachable
 * from the package, so a test can break them the way a bug in split or merge would).
 */
@DisplayName("The buddy allocator's checker notices broken free lists")
class BuddyCheckTest {
    /** 16 units, min order 0: [A 1][F 1][F 2][F 4][F 8] after one unit is taken. */
    static BuddyAllocator pool() {
        BuddyAllocator b = BuddyAllocator.upfront(new Gpu(gib(1)).openToyProcess(), 16, 0, 4);
        b.alloc(1);
        b.checkInvariants();
        return b;
    }

    static void broken(BuddyAllocator b, String message) {
        assertThatThrownBy(b::checkInvariants).isInstanceOf(IllegalStateException.class).hasMessageContaining(message);
    }

    @Test
    @DisplayName("an overlap, a block off its alignment, two free buddies, a pool left uncovered")
    void freeLists() {
        BuddyAllocator a = pool();
        a.freeArea(1).add(3L);                            // overlaps [F 2] at 2
        broken(a, "gap or overlap");
        BuddyAllocator b = pool();
        b.freeArea(2).remove(4L);
        b.freeArea(1).add(4L);
        b.freeArea(1).add(6L);                            // [F 2][F 2] at 4 and 6: buddies, both free
        broken(b, "two free buddies of order 1 at 4");
        BuddyAllocator c = pool();
        c.freeArea(3).remove(8L);                         // the last 8 units vanish
        broken(c, "blocks cover 8 of 16 bytes");
        BuddyAllocator d = pool();
        d.freeArea(2).remove(4L);
        d.freeArea(2).add(6L);                            // order 2 is 4 units: 6 is not aligned... and leaves a gap
        broken(d, "gap or overlap at offset 4");
    }

    @Test
    @DisplayName("fits at the smallest order: a one-unit request fits a free order-0 block")
    void fitsOrderZero() {
        BuddyAllocator b = BuddyAllocator.upfront(new Gpu(gib(1)).openToyProcess(), 2, 0, 1);
        b.alloc(1);                                       // [A 1][F 1]
        assertThat(b.fits(1)).isTrue();
        assertThat(b.fits(2)).isFalse();
    }

    @Test
    @DisplayName("a block that tiles the pool but sits off its own alignment: [F 1] at 0, [F 2] at 1, [F 1] at 3")
    void misaligned() {
        BuddyAllocator b = BuddyAllocator.upfront(new Gpu(gib(1)).openToyProcess(), 4, 0, 2);
        b.checkInvariants();
        b.freeArea(2).remove(0L);
        b.freeArea(0).add(0L);
        b.freeArea(1).add(1L);                            // no gap, no overlap, but 1 % 2 != 0
        b.freeArea(0).add(3L);
        broken(b, "block not aligned to its size");
    }

    /**
     * A backing whose commit allocates from its own pool once (a bug a backing could have):
     * the outer alloc then books a second block on the offset the inner one already took.
     */
    static final class Reentrant extends Backing {
        BuddyAllocator pool;
        boolean armed = true;

        @Override public long base() { return 0; }
        @Override public long reserved() { return 0; }
        @Override void commit(long offset, long size) {
            if (armed) {
                armed = false;
                pool.alloc(size);
            }
        }
        @Override void release(long offset, long size) { }
        @Override void check(Collection<BuddyAllocator.Span> liveBlocks) { }
        @Override public String name() { return "re-entrant"; }
    }

    @Test
    @DisplayName("a block booked twice: the counters say two blocks, the blocks sum to one")
    void countersDisagree() {
        Reentrant backing = new Reentrant();
        BuddyAllocator b = new BuddyAllocator(16, 0, 4, backing);
        backing.pool = b;
        b.alloc(1);
        assertThat(b.liveBlocks()).isEqualTo(1);
        broken(b, "counters allocated=2 requested=2 but blocks sum to 1 and 1");
    }

    @Test
    @DisplayName("a compaction says how many blocks moved and the bytes a real copy would move")
    void compactionText() {
        BuddyAllocator b = BuddyAllocator.onDemand(new Gpu(gib(1)).openToyProcess(), 32L << 20, 21, 25);
        b.alloc(2L << 20);
        long gap = b.alloc(2L << 20);
        b.alloc(8L << 20);
        b.free(gap);                                      // [A 1][F 1][F 2][A 4][F 8]: both live blocks move
        assertThat(b.compact()).hasToString("compaction: 2 blocks moved, 10.00 MiB copied");
    }
}
