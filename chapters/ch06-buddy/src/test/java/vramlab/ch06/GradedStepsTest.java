package vramlab.ch06;

import static org.assertj.core.api.Assertions.assertThat;
import static vramlab.units.Bytes.gib;
import static vramlab.units.Bytes.kib;
import static vramlab.units.Bytes.mib;

import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import vramlab.buddy.BuddyAllocator;
import vramlab.driver.Gpu;
import vramlab.kv.KvBlockPool;
import vramlab.kv.KvCacheManager;
import vramlab.quiz.Graded;

/** The lab steps of chapter 6, one graded test each; failures show the pool's map. */
@DisplayName("ch06 lab steps")
class GradedStepsTest {

    static BuddyAllocator pool16() {   // 16 MiB of 1 MiB minimum blocks, as in the notes
        return BuddyAllocator.upfront(new Gpu(gib(1)).openToyProcess(), mib(16), 20, 24);
    }

    static KvCacheManager kv(int blocks) {
        return new KvCacheManager(new KvBlockPool(new Gpu(gib(1)).openToyProcess(), blocks, 16, kib(64)));
    }

    @Test
    @Graded(step = "6.1", points = 2)
    @Timeout(value = 10, unit = TimeUnit.SECONDS)
    @DisplayName("6.1: a size rounds up to the smallest power of two at or above the minimum block")
    void orderFor() {
        BuddyAllocator b = pool16();
        assertThat(b.orderFor(1)).as("1 byte -> the 1 MiB minimum").isEqualTo(20);
        assertThat(b.orderFor(mib(1))).isEqualTo(20);
        assertThat(b.orderFor(mib(1) + 1)).isEqualTo(21);
        assertThat(b.orderFor(mib(3))).isEqualTo(22);
        assertThat(b.orderFor(mib(16))).isEqualTo(24);
    }

    @Test
    @Graded(step = "6.2", points = 1)
    @Timeout(value = 10, unit = TimeUnit.SECONDS)
    @DisplayName("6.2: the buddy differs from the block in the bit of its order")
    void buddyOf() {
        assertThat(BuddyAllocator.buddyOf(8, 1)).isEqualTo(10);
        assertThat(BuddyAllocator.buddyOf(10, 1)).isEqualTo(8);
        assertThat(BuddyAllocator.buddyOf(0x12, 2)).isEqualTo(0x16);
        assertThat(BuddyAllocator.buddyOf(mib(4), 22)).isZero();
    }

    @Test
    @Graded(step = "6.3", points = 3)
    @Timeout(value = 10, unit = TimeUnit.SECONDS)
    @DisplayName("6.3: allocating splits the block down, upper halves go back free, the lowest piece is used")
    void splitDown() {
        BuddyAllocator b = pool16();
        long x = b.alloc(mib(1));
        assertThat(x - b.base()).as(b.map()).isZero();
        assertThat(b.map()).isEqualTo("[A 1][F 1][F 2][F 4][F 8]");
        assertThat(b.freeCounts()).as(b.map()).containsExactly(1, 1, 1, 1, 0);
        b.alloc(mib(2));
        assertThat(b.map()).isEqualTo("[A 1][F 1][A 2][F 4][F 8]");
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
        assertThat(b.map()).as("y is live: x cannot merge").isEqualTo("[F 1][A 1][A 2][F 4][F 8]");
        b.free(y);
        assertThat(b.map()).as("x and y merge into 2, z is live").isEqualTo("[F 2][A 2][F 4][F 8]");
        b.free(z);
        assertThat(b.map()).as("everything merges back").isEqualTo("[F 16]");
        b.checkInvariants();
    }

    @Test
    @Graded(step = "6.5", points = 2)
    @Timeout(value = 10, unit = TimeUnit.SECONDS)
    @DisplayName("6.5: buddyinfo prints nr_free per order in /proc/buddyinfo's layout")
    void buddyinfo() {
        BuddyAllocator b = pool16();
        b.alloc(mib(3));
        assertThat(b.buddyinfo()).as(b.map())
                .isEqualTo("Node 0, zone   Normal      0      0      1      1      0 \n");
    }

    @Test
    @Graded(step = "6.6", points = 1)
    @Timeout(value = 10, unit = TimeUnit.SECONDS)
    @DisplayName("6.6: n tokens need ceil(n / 16) blocks")
    void blocksNeeded() {
        KvCacheManager m = kv(4);
        assertThat(m.blocksNeeded(1)).isEqualTo(1);
        assertThat(m.blocksNeeded(16)).isEqualTo(1);
        assertThat(m.blocksNeeded(17)).isEqualTo(2);
        assertThat(m.blocksNeeded(0)).isZero();
    }

    @Test
    @Graded(step = "6.7", points = 3)
    @Timeout(value = 10, unit = TimeUnit.SECONDS)
    @DisplayName("6.7: allocate_slots takes every block a request needs, or none")
    void allocateSlots() {
        KvCacheManager m = kv(4);                              // blocks 1, 2, 3 usable
        assertThat(m.allocateSlots("a", 17)).as(m.map()).isTrue();
        assertThat(m.blocks("a")).as(m.map()).containsExactly(1, 2);
        assertThat(m.allocateSlots("b", 20)).as(m.map()).isFalse();
        assertThat(m.blocks("b")).as(m.map()).isEmpty();
        assertThat(m.allocateSlots("a", 15)).as(m.map()).isTrue();   // 32 tokens: still 2 blocks
        assertThat(m.blocks("a")).as(m.map()).containsExactly(1, 2);
        assertThat(m.allocateSlots("b", 16)).as(m.map()).isTrue();
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
        assertThat(m.pool().freeQueue().toList()).as(m.map()).containsExactly(3, 2, 1, 4, 5);
        m.checkInvariants();
    }
}
