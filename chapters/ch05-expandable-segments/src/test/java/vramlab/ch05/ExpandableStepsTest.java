package vramlab.ch05;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static vramlab.units.Bytes.mib;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import vramlab.alloc.Block;
import vramlab.alloc.CachingAllocator;
import vramlab.alloc.CudaOutOfMemoryError;
import vramlab.alloc.ExpandableSegment;
import vramlab.alloc.PyTorchPolicy;
import vramlab.driver.CudaException;
import vramlab.driver.Gpu;
import vramlab.driver.GpuProcess;
import vramlab.quiz.Graded;
import vramlab.quiz.feedback.StepOrder;

/** The graded steps of chapter 5, each with the simulator's state in its failure message. */
@DisplayName("chapter 5 steps")
@ExtendWith(StepOrder.class)
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
        Ch05Feedback.MAP_RANGE.check("map(5 MiB, 30 MiB) on 20 MiB pages", new Ch05Feedback.Asked(mib(5), mib(30)), r,
                new ExpandableSegment.Range(0, mib(40)), () -> pages(s));
        assertThat(s.mappedBytes()).as("mappedBytes(); " + pages(s)).isEqualTo(mib(40));
        Ch05Feedback.MAP_BYTES.check("what the driver holds after it", "mapped", p.mappedBytes(), mib(40), () -> pages(s));
        assertThat(s.isMapped(0) && s.isMapped(1) && !s.isMapped(2)).as("pages 0 and 1 mapped, not 2; " + pages(s))
                .isTrue();
        ExpandableSegment.Range next = s.map(mib(40), 1);
        Ch05Feedback.MAP_RANGE.check("then map(40 MiB, 1 B)", new Ch05Feedback.Asked(mib(40), 1), next,
                new ExpandableSegment.Range(mib(40), mib(20)), () -> pages(s));
    }

    @Test
    @Graded(step = "5.1", points = 1)
    @Timeout(10)
    @DisplayName("5.1 when the driver runs out, map() gives back the pages it took and maps nothing")
    void mapAllOrNothing() {
        GpuProcess p = new Gpu(mib(50)).openToyProcess();
        ExpandableSegment s = new ExpandableSegment(p, mib(50), mib(20));
        ExpandableSegment.Range r = s.map(0, mib(60));               // three pages, only two fit
        assertThat(r.size()).as("the size map(0, 60 MiB) returns on a 50 MiB card; " + pages(s)).isZero();
        Ch05Feedback.MAP_BYTES.check("what the driver holds after the failed map(0, 60 MiB)", "after OOM",
                p.mappedBytes(), 0L, () -> pages(s));
        assertThat(p.gpu().free()).as("the card's free bytes after it").isEqualTo(mib(50));
        // a map() that maps nothing passes the lines above: a range that fits must be mapped
        ExpandableSegment.Range one = s.map(0, mib(20));             // exactly one page fits
        assertThat(one).as("a range of exactly one page maps that page; " + pages(s))
                .isEqualTo(new ExpandableSegment.Range(0, mib(20)));
        ExpandableSegment.Range more = s.map(mib(20), mib(40));      // two more pages, one fits
        assertThat(more.size()).as("the size map(20 MiB, 40 MiB) returns with one page left; " + pages(s)).isZero();
        assertThat(s.isMapped(0) && !s.isMapped(1)).as("only this call's page is given back; " + pages(s)).isTrue();
        Ch05Feedback.MAP_BYTES.check("what the driver holds after the failed map(20 MiB, 40 MiB)", "after OOM",
                p.mappedBytes(), mib(20), () -> pages(s));
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
        Ch05Feedback.GROWTH.check("the offset of alloc(20 MiB) after alloc(15 MiB) on 20 MiB pages", "offset",
                y.offset(), mib(15), a::toString);
        Ch05Feedback.GROWTH.check("reserved after both", "reserved", a.reserved(), mib(40), a::toString);
        assertThat(y.next().size()).as("the free block after it; %s", a).isEqualTo(mib(5));
        assertThat(y.next().isMapped()).as("the free block after it is mapped; %s", a).isTrue();
    }

    @Test
    @Graded(step = "5.2", points = 1)
    @Timeout(10)
    @DisplayName("5.2 a fresh 25 MiB request maps two 20 MiB pages and leaves 15 MiB free after its block")
    void twentyFive() {
        CachingAllocator a = expandable(mib(200));
        Block b = a.alloc(mib(25));
        a.checkInvariants();
        assertThat(b.size()).as("the size of alloc(25 MiB); %s", a).isEqualTo(mib(25));
        Ch05Feedback.GROWTH.check("reserved after alloc(25 MiB) on 20 MiB pages", "reserved", a.reserved(), mib(40),
                a::toString);
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
        Ch05Feedback.UNMAP_RANGE.check("unmap(10 MiB, 45 MiB) of three mapped 20 MiB pages",
                new Ch05Feedback.Asked(mib(10), mib(45)), r, new ExpandableSegment.Range(mib(20), mib(20)), () -> pages(s));
        assertThat(s.isMapped(0) && !s.isMapped(1) && s.isMapped(2)).as("pages 0 and 2 stay; " + pages(s)).isTrue();
        assertThat(p.mappedBytes()).as("what the driver holds after it; " + pages(s)).isEqualTo(mib(40));
        assertThat(s.unmap(mib(41), mib(18)).size()).as("unmap(41 MiB, 18 MiB): no whole page inside; " + pages(s))
                .isZero();
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
        Ch05Feedback.RELEASED.check("emptyCache() with [30 free][5 live] on pages 0-1", "released", released, mib(20),
                a::toString);
        assertThat(a.reserved()).as("reserved after it; %s", a).isEqualTo(mib(20));
    }
}
