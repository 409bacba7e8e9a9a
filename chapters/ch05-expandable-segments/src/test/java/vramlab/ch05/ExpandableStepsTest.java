package vramlab.ch05;

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

    /** The first {@code n} pages, {@code #} mapped and {@code _} not. */
    static String mapped(ExpandableSegment s, int n) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < n; i++) sb.append(s.isMapped(i) ? '#' : '_');
        return sb.toString();
    }

    /** What {@code run} did: returned normally, or threw (the exception's name, out of memory or not). */
    static String outcome(Runnable run) {
        try {
            run.run();
            return "returned normally";
        } catch (CudaException e) {
            return e.isOutOfMemory() ? "CudaException (out of memory)" : "CudaException (not out of memory)";
        } catch (RuntimeException e) {
            if (e.getClass().getName().equals("vramlab.lab.Todo")) throw e;
            return e.getClass().getSimpleName();
        }
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
        Ch05Feedback.MAP_BYTES.check("the segment's mappedBytes() after it", "mapped", s.mappedBytes(), mib(40),
                () -> pages(s));
        Ch05Feedback.MAP_BYTES.check("what the driver holds after it", "mapped", p.mappedBytes(), mib(40), () -> pages(s));
        Ch05Feedback.PAGES_MAPPED.check("pages 0-2 mapped after it", "mapped", mapped(s, 3), "##_", () -> pages(s));
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
        Ch05Feedback.MAP_BYTES.check("the size map(0, 60 MiB) returns on a 50 MiB card", "after OOM", r.size(), 0L,
                () -> pages(s));
        Ch05Feedback.MAP_BYTES.check("what the driver holds after the failed map(0, 60 MiB)", "after OOM",
                p.mappedBytes(), 0L, () -> pages(s));
        Ch05Feedback.MAP_BYTES.check("the card's free bytes after it", "free", p.gpu().free(), mib(50), () -> pages(s));
        // a map() that maps nothing passes the lines above: a range that fits must be mapped
        ExpandableSegment.Range one = s.map(0, mib(20));             // exactly one page fits
        Ch05Feedback.MAP_RANGE.check("then map(0, 20 MiB), exactly one page, on the 50 MiB card",
                new Ch05Feedback.Asked(0, mib(20)), one, new ExpandableSegment.Range(0, mib(20)), () -> pages(s));
        ExpandableSegment.Range more = s.map(mib(20), mib(40));      // two more pages, one fits
        Ch05Feedback.MAP_BYTES.check("the size map(20 MiB, 40 MiB) returns with one page left", "after OOM",
                more.size(), 0L, () -> pages(s));
        Ch05Feedback.PAGES_MAPPED.check("pages 0-1 mapped after it (only this call's page is given back)", "after OOM",
                mapped(s, 2), "#_", () -> pages(s));
        Ch05Feedback.MAP_BYTES.check("what the driver holds after the failed map(20 MiB, 40 MiB)", "after OOM",
                p.mappedBytes(), mib(20), () -> pages(s));
        ExpandableSegment odd = new ExpandableSegment(p, mib(16), mib(3));   // 3 MiB: not a 2 MiB multiple
        Ch05Feedback.DRIVER_ERROR.check("map(0, 1 B) on 3 MiB pages, which the driver refuses (a driver error other "
                + "than out-of-memory propagates)", "driver error", outcome(() -> odd.map(0, 1)),
                "CudaException (not out of memory)");
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
        Ch05Feedback.GROWTH.check("the size of the free block after it", "free after", y.next().size(), mib(5),
                a::toString);
        Ch05Feedback.GROWTH_STATE.check("isMapped() of the free block after it", "mapped",
                String.valueOf(y.next().isMapped()), "true", a::toString);
    }

    @Test
    @Graded(step = "5.2", points = 1)
    @Timeout(10)
    @DisplayName("5.2 a fresh 25 MiB request maps two 20 MiB pages and leaves 15 MiB free after its block")
    void twentyFive() {
        CachingAllocator a = expandable(mib(200));
        Block b = a.alloc(mib(25));
        a.checkInvariants();
        Ch05Feedback.GROWTH.check("the size of alloc(25 MiB)", "size", b.size(), mib(25), a::toString);
        Ch05Feedback.GROWTH.check("reserved after alloc(25 MiB) on 20 MiB pages", "reserved", a.reserved(), mib(40),
                a::toString);
        Ch05Feedback.GROWTH_STATE.check("memory_stats' segment.all.current (an expandable segment is not a new "
                + "cudaMalloc segment)", "segments", String.valueOf(a.memoryStats().stat("segment", "all").current()),
                "0", a::toString);
        CachingAllocator small = expandable(mib(40));
        Ch05Feedback.GROWTH_STATE.checkThrows("alloc(50 MiB) on a 40 MiB card (three 20 MiB pages)",
                CudaOutOfMemoryError.class, () -> small.alloc(mib(50)));
        small.checkInvariants();
        Ch05Feedback.GROWTH.check("reserved after the failed alloc(50 MiB) (a failed map leaves nothing mapped)",
                "after OOM", small.reserved(), 0L, small::toString);
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
        Ch05Feedback.PAGES_KEPT.check("pages 0-2 mapped after it", "after unmap", mapped(s, 3), "#_#", () -> pages(s));
        Ch05Feedback.SHRUNK.check("what the driver holds after it", "after unmap", p.mappedBytes(), mib(40),
                () -> pages(s));
        Ch05Feedback.SHRUNK.check("the size unmap(41 MiB, 18 MiB) returns (no whole page inside)", "unmapped",
                s.unmap(mib(41), mib(18)).size(), 0L, () -> pages(s));
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
        Ch05Feedback.SHRUNK.check("reserved after it", "after empty_cache", a.reserved(), mib(20), a::toString);
    }
}
