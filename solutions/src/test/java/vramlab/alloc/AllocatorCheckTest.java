package vramlab.alloc;

import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static vramlab.units.Bytes.mib;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import vramlab.driver.Gpu;

/**
 * checkInvariants is what every other test trusts to notice a broken allocator, so each of its
 * checks is shown to fire: the state is broken on purpose, the way a bug would break it.
 */
@DisplayName("checkInvariants notices each way the allocator's books can go wrong")
class AllocatorCheckTest {
    /** [3 MiB live][17 MiB free] in one 20 MiB segment, and a cached 26 MiB segment. */
    static CachingAllocator twoSegments() {
        CachingAllocator a = new CachingAllocator(new Gpu(mib(100)).openToyProcess(), new PyTorchPolicy());
        a.alloc(mib(3));
        a.free(a.alloc(mib(26)));
        a.checkInvariants();
        return a;
    }

    static Segment segment(CachingAllocator a, long size) {
        return a.segments().stream().filter(s -> s.size == size).findFirst().orElseThrow();
    }

    static void broken(CachingAllocator a, String message) {
        assertThatThrownBy(a::checkInvariants).isInstanceOf(IllegalStateException.class).hasMessageContaining(message);
    }

    @Test
    @DisplayName("a segment that names another owner, or whose cudaMalloc is gone")
    void segments() {
        CachingAllocator a = twoSegments();
        segment(a, mib(20)).owner = null;
        broken(a, "does not name this allocator as its owner");
        CachingAllocator b = twoSegments();
        b.process().cudaFree(segment(b, mib(26)).address);
        broken(b, "is not a live cudaMalloc");
    }

    @Test
    @DisplayName("blocks that do not tile their segment, or leave its end uncovered")
    void tiling() {
        CachingAllocator a = twoSegments();
        segment(a, mib(20)).first.size = mib(4);
        broken(a, "do not tile it");
        CachingAllocator b = twoSegments();
        segment(b, mib(20)).first.next.size = mib(16);
        broken(b, "cover " + mib(19) + " of " + mib(20));
        assertThatThrownBy(b::checkInvariants).as("the message survives a map that cannot be drawn")
                .hasMessageContaining("the segment map cannot be drawn");
    }

    @Test
    @DisplayName("two free neighbours left unmerged")
    void unmerged() {
        CachingAllocator a = twoSegments();
        Block live = segment(a, mib(20)).first;
        live.allocated = false;
        live.requested = 0;
        a.freeSet(PoolKind.LARGE).add(live);
        broken(a, "adjacent free blocks");
    }

    @Test
    @DisplayName("a free block missing from its pool's free set, a live one inside it, a stale entry")
    void freeSets() {
        CachingAllocator a = twoSegments();
        a.freeSet(PoolKind.LARGE).remove(segment(a, mib(26)).first);
        broken(a, "free block missing from its pool");
        CachingAllocator b = twoSegments();
        Block cached = segment(b, mib(26)).first;
        b.freeSet(PoolKind.LARGE).remove(cached);
        cached.allocated = true;
        b.freeSet(PoolKind.LARGE).add(cached);
        broken(b, "block in free set");
        CachingAllocator c = twoSegments();
        Segment stray = new Segment(99, 1L << 40, mib(4), PoolKind.LARGE, 0);
        Block strayFree = new Block(stray, 0, mib(2));
        Block strayLive = new Block(stray, mib(2), mib(2));
        strayLive.allocated = true;
        strayFree.next = strayLive;
        strayLive.prev = strayFree;
        stray.first = strayFree;
        c.freeSet(PoolKind.LARGE).add(strayFree);
        broken(c, "stale entries in LARGE free set");
        CachingAllocator d = twoSegments();
        Segment whole = new Segment(98, 1L << 40, mib(2), PoolKind.LARGE, 0);
        whole.first = new Block(whole, 0, mib(2));
        d.freeSet(PoolKind.LARGE).add(whole.first);
        broken(d, "cached, not noted");           // a whole free block empty_cache would not find
    }

    @Test
    @DisplayName("counters or statistics that disagree with the blocks")
    void counters() {
        CachingAllocator a = twoSegments();
        segment(a, mib(20)).first.requested -= 1;
        broken(a, "counters disagree with blocks");
        CachingAllocator b = twoSegments();
        b.memoryStats().stat("allocated_bytes", "all").current += 1;
        broken(b, "statistics disagree with the counters");
    }

    @Test
    @DisplayName("expandable segments: the unmapped set, a live unmapped block, pages that disagree with the blocks")
    void expandable() {
        CachingAllocator a = new CachingAllocator(new Gpu(mib(200)).openToyProcess(),
                new PyTorchPolicy("expandable_segments:True"));
        Block b = a.alloc(mib(25));
        a.checkInvariants();
        Block tail = b.next.next;                         // [25 live][15 free][rest unmapped]
        a.unmappedSet(PoolKind.LARGE).remove(tail);
        broken(a, "unmapped set disagrees");
        a.unmappedSet(PoolKind.LARGE).add(tail);
        tail.allocated = true;
        broken(a, "unmapped block that is live or not expandable");
        tail.allocated = false;
        a.checkInvariants();
        b.segment().pages.unmap(0, mib(20));              // a page goes behind the allocator's back
        broken(a, "blocks map");
    }
}
