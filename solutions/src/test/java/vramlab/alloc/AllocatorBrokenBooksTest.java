package vramlab.alloc;

import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static vramlab.units.Bytes.gib;
import static vramlab.units.Bytes.mib;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import vramlab.driver.Gpu;

/**
 * More of checkInvariants' checks shown to fire (as AllocatorCheckTest does): the books broken
 * from inside the package the way a bug would break them, each so that exactly the check
 * named is the first to notice.
 */
@DisplayName("checkInvariants notices a live block, a split, an unmapped set and pages gone wrong")
class AllocatorBrokenBooksTest {
    static CachingAllocator allocator(String conf) {
        return new CachingAllocator(new Gpu(gib(1)).openToyProcess(), new PyTorchPolicy(conf));
    }

    static void broken(CachingAllocator a, String message) {
        assertThatThrownBy(a::checkInvariants).isInstanceOf(IllegalStateException.class).hasMessageContaining(message);
    }

    @Test
    @DisplayName("a live block that records a request larger than itself")
    void requestTooLarge() {
        CachingAllocator a = allocator("");
        Block b = a.alloc(mib(3));
        a.checkInvariants();
        b.requested = b.size + 1;                        // a bug books the unrounded size wrong
        broken(a, "smaller than its request");
    }

    @Test
    @DisplayName("a split that leaves a block of 0 bytes between two others")
    void zeroBytes() {
        CachingAllocator a = allocator("");
        Block x = a.alloc(mib(3)), y = a.alloc(mib(4));
        a.checkInvariants();
        Block empty = new Block(x.segment, x.offset + x.size, 0);   // a remainder of nothing
        empty.prev = x;
        empty.next = y;
        x.next = empty;
        y.prev = empty;
        broken(a, "do not tile it at " + empty);
    }

    @Test
    @DisplayName("an unmapped set that still holds a block no segment has")
    void staleUnmapped() {
        CachingAllocator a = allocator("expandable_segments:True");
        Block x = a.alloc(mib(20));
        a.checkInvariants();
        Block tail = x.next;                             // the reservation's unmapped rest
        Block stale = new Block(x.segment, tail.offset + mib(20), mib(20));
        stale.mapped = false;
        a.unmappedSet(PoolKind.LARGE).add(stale);        // left behind by a merge, say
        broken(a, "stale entries in LARGE unmapped set");
    }

    @Test
    @DisplayName("pages mapped under the wrong blocks, the total still right")
    void wrongPages() {
        CachingAllocator a = allocator("expandable_segments:True");
        a.alloc(mib(20));
        Block y = a.alloc(mib(20));
        a.free(y);                                       // page 1: mapped, free; page 2 on: unmapped
        a.checkInvariants();
        ExpandableSegment pages = y.segment.pages();
        pages.unmap(y.offset, mib(20));                  // behind the allocator's back
        pages.map(y.offset + mib(20), mib(20));
        broken(a, "page 1 of segment " + y.segment.id + " disagrees with " + y);
    }

    @Test
    @DisplayName("an unmapped run that no longer ends on a page boundary, the mapped bytes still right")
    void unmappedOffPage() {
        CachingAllocator a = allocator("expandable_segments:True");
        a.alloc(mib(20));
        Block y = a.alloc(mib(20));
        Block z = a.alloc(mib(20));
        a.free(y);
        a.emptyCache();                                  // [x live][y unmapped][z live][unmapped ...]
        a.checkInvariants();
        Block u1 = z.prev, u2 = z.next;
        long h = mib(1);                                 // a bug slides z 1 MiB down between the two
        u1.size -= h;
        z.moveTo(z.offset - h);
        u2.moveTo(u2.offset - h);
        u2.size += h;
        broken(a, "unmapped block not on page boundaries: " + u1);
    }
}
