package vramlab.buddy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static vramlab.units.Bytes.gib;

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
}
