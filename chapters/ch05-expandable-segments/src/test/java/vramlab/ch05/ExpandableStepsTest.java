package vramlab.ch05;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static vramlab.units.Bytes.mib;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import vramlab.alloc.Block;
import vramlab.alloc.CachingAllocator;
import vramlab.alloc.CudaOutOfMemoryError;
import vramlab.alloc.ExpandableSegment;
import vramlab.alloc.PyTorchPolicy;
import vramlab.driver.CudaException;
import vramlab.driver.Gpu;
import vramlab.driver.GpuProcess;
import vramlab.quiz.Graded;

/** The graded steps of chapter 5, each with the simulator's state in its failure message. */
@DisplayName("chapter 5 steps")
class ExpandableStepsTest {

    static CachingAllocator expandable(long device) {
        return new CachingAllocator(new Gpu(device).openToyProcess(), new PyTorchPolicy("expandable_segments:True"));
    }

    static String pages(ExpandableSegment s) {
        StringBuilder sb = new StringBuilder("pages: ");
        for (int i = 0; i < Math.min(s.pageCount(), 16); i++) sb.append(s.isMapped(i) ? '#' : '_');
        return sb.append(" mapped=").append(s.mappedBytes()).toString();
    }

    @Test
    @Graded(step = "5.1", points = 2)
    @Timeout(10)
    @DisplayName("5.1 map() rounds the range out to whole pages and maps each with its own handle")
    void mapOnDemand() {
        GpuProcess p = new Gpu(mib(200)).openToyProcess();
        ExpandableSegment s = new ExpandableSegment(p, mib(200), mib(20));
        ExpandableSegment.Range r = s.map(mib(5), mib(30));         // touches pages 0 and 1
        assertThat(r).as(pages(s)).isEqualTo(new ExpandableSegment.Range(0, mib(40)));
        assertThat(s.mappedBytes()).as(pages(s)).isEqualTo(mib(40));
        assertThat(p.mappedBytes()).as("the driver holds the two pages; " + pages(s)).isEqualTo(mib(40));
        assertThat(s.isMapped(0) && s.isMapped(1) && !s.isMapped(2)).as(pages(s)).isTrue();
        ExpandableSegment.Range next = s.map(mib(40), 1);
        assertThat(next).as(pages(s)).isEqualTo(new ExpandableSegment.Range(mib(40), mib(20)));
    }

    @Test
    @Graded(step = "5.1", points = 1)
    @Timeout(10)
    @DisplayName("5.1 when the driver runs out, map() gives back the pages it took and maps nothing")
    void mapAllOrNothing() {
        GpuProcess p = new Gpu(mib(50)).openToyProcess();
        ExpandableSegment s = new ExpandableSegment(p, mib(50), mib(20));
        ExpandableSegment.Range r = s.map(0, mib(60));               // three pages, only two fit
        assertThat(r.size()).as(pages(s)).isZero();
        assertThat(p.mappedBytes()).as(pages(s)).isZero();
        assertThat(p.gpu().free()).isEqualTo(mib(50));
        ExpandableSegment.Range one = s.map(0, mib(20));             // exactly one page fits
        assertThat(one).as("a range of exactly one page maps that page; " + pages(s))
                .isEqualTo(new ExpandableSegment.Range(0, mib(20)));
        ExpandableSegment.Range more = s.map(mib(20), mib(40));      // two more pages, one fits
        assertThat(more.size()).as(pages(s)).isZero();
        assertThat(s.isMapped(0) && !s.isMapped(1)).as("only this call's page is given back; " + pages(s)).isTrue();
        assertThat(p.mappedBytes()).as(pages(s)).isEqualTo(mib(20));
        ExpandableSegment odd = new ExpandableSegment(p, mib(16), mib(3));   // 3 MiB: not a 2 MiB multiple
        assertThatThrownBy(() -> odd.map(0, 1)).as("a driver error other than out-of-memory is not an empty "
                + "range: it propagates").isInstanceOfSatisfying(CudaException.class,
                        e -> assertThat(e.isOutOfMemory()).isFalse());
    }

    @Test
    @Graded(step = "5.2", points = 2)
    @Timeout(10)
    @DisplayName("5.2 a block that outgrows its page maps the next one and merges across the boundary")
    void mergeAcrossPageBoundary() {
        CachingAllocator a = expandable(mib(200));
        a.alloc(mib(15));                                            // page 0: [15 LIVE][5 FREE]
        Block y = a.alloc(mib(20));                                  // needs page 1 too
        a.checkInvariants();
        assertThat(y.offset()).as("%s", a).isEqualTo(mib(15));
        assertThat(a.reserved()).as("%s", a).isEqualTo(mib(40));
        assertThat(y.next().size()).as("%s", a).isEqualTo(mib(5));
        assertThat(y.next().isMapped()).as("%s", a).isTrue();
    }

    @Test
    @Graded(step = "5.2", points = 1)
    @Timeout(10)
    @DisplayName("5.2 a fresh 25 MiB request maps two 20 MiB pages and leaves 15 MiB free after its block")
    void twentyFive() {
        CachingAllocator a = expandable(mib(200));
        Block b = a.alloc(mib(25));
        a.checkInvariants();
        assertThat(b.size()).as("%s", a).isEqualTo(mib(25));
        assertThat(a.reserved()).as("%s", a).isEqualTo(mib(40));
        assertThat(a.memoryStats().stat("segment", "all").current()).as("%s", a).isZero();
        CachingAllocator small = expandable(mib(40));
        assertThatThrownBy(() -> small.alloc(mib(50))).as("three 20 MiB pages on a 40 MiB card; %s", small)
                .isInstanceOf(CudaOutOfMemoryError.class);
        small.checkInvariants();
        assertThat(small.reserved()).as("a failed map leaves nothing mapped; %s", small).isZero();
    }

    @Test
    @Graded(step = "5.3", points = 2)
    @Timeout(10)
    @DisplayName("5.3 unmap() releases only the pages lying wholly inside the range")
    void unmapWholePages() {
        GpuProcess p = new Gpu(mib(200)).openToyProcess();
        ExpandableSegment s = new ExpandableSegment(p, mib(200), mib(20));
        s.map(0, mib(60));
        ExpandableSegment.Range r = s.unmap(mib(10), mib(45));       // only page 1 is wholly inside
        assertThat(r).as(pages(s)).isEqualTo(new ExpandableSegment.Range(mib(20), mib(20)));
        assertThat(s.isMapped(0) && !s.isMapped(1) && s.isMapped(2)).as(pages(s)).isTrue();
        assertThat(p.mappedBytes()).as(pages(s)).isEqualTo(mib(40));
        assertThat(s.unmap(mib(41), mib(18)).size()).as("no whole page inside; " + pages(s)).isZero();
    }

    @Test
    @Graded(step = "5.3", points = 1)
    @Timeout(10)
    @DisplayName("5.3 empty_cache gives back the free pages but keeps a page that holds a live block")
    void emptyCacheKeepsLivePage() {
        CachingAllocator a = expandable(mib(200));
        Block x = a.alloc(mib(30));
        a.alloc(mib(5));                                             // [30 free][5 live] on pages 0-1
        a.free(x);
        long released = a.emptyCache();
        a.checkInvariants();
        assertThat(released).as("%s", a).isEqualTo(mib(20));
        assertThat(a.reserved()).as("%s", a).isEqualTo(mib(20));
    }
}
