package vramlab.alloc;

import static org.assertj.core.api.Assertions.assertThat;
import static vramlab.units.Bytes.gib;
import static vramlab.units.Bytes.mib;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import vramlab.alloc.DeviceTrace.Action;
import vramlab.driver.Gpu;

/** Expandable segments as CCA:295-668 and 2178-2328 build them, on the driver's VMM calls. */
@DisplayName("expandable_segments:True")
class ExpandableSegmentsTest {

    static CachingAllocator allocator(long device) {
        return new CachingAllocator(new Gpu(device).openToyProcess(), new PyTorchPolicy("expandable_segments:True"));
    }

    @Test
    @DisplayName("a 25 MiB request maps two 20 MiB pages: a 25 MiB block and a free 15 MiB after it")
    void twentyFiveMiB() {
        CachingAllocator a = allocator(gib(80));
        a.trace().record(true, 100);
        Block b = a.alloc(mib(25));
        a.checkInvariants();
        assertThat(b.size()).isEqualTo(mib(25));
        assertThat(a.reserved()).isEqualTo(mib(40));
        assertThat(a.process().mappedBytes()).as("the driver's count").isEqualTo(mib(40));
        assertThat(b.next().size()).isEqualTo(mib(15));
        assertThat(b.next().isMapped()).isTrue();
        assertThat(b.next().next().isMapped()).isFalse();
        assertThat(a.memoryStats().stat("segment", "all").current()).as("mapping is not a segment").isZero();
        assertThat(a.process().cudaMallocCalls()).isZero();
        assertThat(a.trace().entries()).extracting(DeviceTrace.Entry::action)
                .containsExactly(Action.SEGMENT_MAP, Action.ALLOC);
        assertThat(a.trace().entries().get(0).size()).isEqualTo(mib(40));
    }

    @Test
    @DisplayName("the reservation is 1 1/8 of the device, in whole pages; small requests map 2 MiB pages")
    void reservationAndSmallPages() {
        CachingAllocator a = allocator(gib(80));
        Block s = a.alloc(100);
        assertThat(s.segment().size()).isEqualTo(gib(90));
        assertThat(s.segment().pages().pageSize()).isEqualTo(mib(2));
        assertThat(a.reserved()).isEqualTo(mib(2));
        Block l = a.alloc(mib(3));
        assertThat(l.segment()).isNotSameAs(s.segment());
        assertThat(l.segment().pages().pageSize()).isEqualTo(mib(20));
        assertThat(a.reserved()).isEqualTo(mib(22));
        a.checkInvariants();
    }

    @Test
    @DisplayName("a block may start in one page and end in the next: free space merges across the boundary")
    void mergeAcrossPageBoundary() {
        CachingAllocator a = allocator(gib(1));
        Block x = a.alloc(mib(15));                     // page 0: [x 15][free 5]
        Block y = a.alloc(mib(20));                     // maps page 1, merges with the free 5
        a.checkInvariants();
        assertThat(y.offset()).isEqualTo(mib(15));
        assertThat(y.segment()).isSameAs(x.segment());
        assertThat(a.reserved()).isEqualTo(mib(40));
        assertThat(y.next().size()).as("the rest of page 1").isEqualTo(mib(5));
    }

    @Test
    @DisplayName("best fit counts a block followed by unmapped space as large as it could grow")
    void expandableSizeInBestFit() {
        CachingAllocator a = allocator(gib(1));
        Block x = a.alloc(mib(10));                     // page 0: [x 10][keep 2][free 8 | unmapped]
        a.alloc(mib(2));
        a.free(x);                                      // [free 10][keep 2][free 8 | unmapped]
        Block y = a.alloc(mib(8));                      // the exact 8 could grow: the 10 counts as smaller
        a.checkInvariants();
        assertThat(y.offset()).isZero();
        assertThat(a.reserved()).isEqualTo(mib(20));
    }

    @Test
    @DisplayName("empty_cache unmaps only the pages wholly inside free blocks, and drops an empty reservation")
    void emptyCacheUnmapsPages() {
        CachingAllocator a = allocator(gib(1));
        Block x = a.alloc(mib(30));                     // pages 0-1: [x 30][free 10]
        Block y = a.alloc(mib(5));                      // [x 30][y 5][free 5]
        a.free(x);                                      // [free 30][y 5][free 5]
        assertThat(a.emptyCache()).as("page 0 only; page 1 holds y").isEqualTo(mib(20));
        a.checkInvariants();
        assertThat(a.reserved()).isEqualTo(mib(20));
        a.free(y);
        a.emptyCache();
        a.checkInvariants();
        assertThat(a.reserved()).isZero();
        assertThat(a.segments()).isEmpty();
        assertThat(a.process().mappedBytes()).isZero();
    }

    @Test
    @DisplayName("when the driver runs out of pages, the retry unmaps free pages and maps them where they are needed")
    void retryRemaps() {
        CachingAllocator a = allocator(mib(64));
        Block act = a.alloc(mib(30));
        a.alloc(mib(3) / 2);
        a.free(act);
        Block c = a.alloc(mib(46));
        a.checkInvariants();
        assertThat(c.size()).isEqualTo(mib(46));
        assertThat(a.reserved()).isEqualTo(mib(60));
        assertThat(a.memoryStats().numAllocRetries()).isEqualTo(1);
    }
}
