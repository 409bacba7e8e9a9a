package vramlab.ch05;

import static vramlab.units.Bytes.mib;
import static vramlab.units.Bytes.readable;

import vramlab.alloc.Block;
import vramlab.alloc.CachingAllocator;
import vramlab.alloc.ExpandableSegment;
import vramlab.alloc.PyTorchPolicy;
import vramlab.alloc.Segment;
import vramlab.driver.Gpu;
import vramlab.figures.ExampleTable;

/**
 * The worked example of each of chapter 05's graded steps, computed by the reference when the
 * site is built (the notes include {@code {generated}/step-5.N.adoc}). A returned range is shown as
 * {@link ExpandableSegment.Range#toString()} writes it, what JShell prints for the same call, so a
 * student replaying the example there sees the table's words.
 */
public final class Ch05Examples {
    private Ch05Examples() {}

    /** Step 5.1: pages mapped on demand, all or nothing. */
    public static String example5_1() {
        ExpandableSegment s = new ExpandableSegment(new Gpu(mib(64)).openToyProcess(), mib(64), mib(20));
        ExampleTable t = ExampleTable.of("5.1", "map on a 64 MiB card, 20 MiB pages (" + s.pageCount()
                + " pages of address space reserved)", "call", "returns", "mapped after");
        for (long[] c : new long[][] {{0, mib(25)}, {mib(40), mib(30)}, {mib(40), mib(1)}}) {
            ExpandableSegment.Range r = s.map(c[0], c[1]);
            t.row("map(" + readable(c[0]) + ", " + readable(c[1]) + ")", r, readable(s.mappedBytes()));
        }
        return t.then("A range is rounded out to whole pages, one cuMemCreate and one cuMemMap each. The "
                + "second call needs two more pages but the card has room for one: it gives back the page "
                + "it made and maps nothing. A range prints as JShell shows it, its ends in the segment and its "
                + "size: in `./vramlab jshell 5`, `var s = new ExpandableSegment(new Gpu(mib(64)).openToyProcess(), "
                + "mib(64), mib(20))` is this segment, and `s.map(0, mib(25))` is the first row.").toString();
    }

    /** Step 5.2: a block grows into the next page and merges across the boundary. */
    public static String example5_2() {
        CachingAllocator a = new CachingAllocator(new Gpu(mib(128)).openToyProcess(),
                new PyTorchPolicy("expandable_segments:True"));
        ExampleTable t = ExampleTable.of("5.2", "expandable_segments:True on a 128 MiB card",
                "call", "block", "pages mapped", "reserved");
        for (long size : new long[] {mib(25), mib(10), mib(10)}) {
            Block b = a.alloc(size);
            Segment s = a.segments().iterator().next();
            t.row("alloc(" + readable(size) + ")", "+" + readable(b.offset()) + ", " + readable(b.size()),
                    s.pages().mappedBytes() / s.pages().pageSize(), readable(a.reserved()));
        }
        return t.then("The first request maps two 20 MiB pages; the second fits in what they left; the third "
                + "needs 5 MiB more than is mapped, so one page is mapped at the end and the free block merges "
                + "with it across the page boundary.").toString();
    }

    /** Step 5.3: only pages wholly inside a free range are unmapped. */
    public static String example5_3() {
        ExampleTable t = ExampleTable.of("5.3", "unmap with 2 MiB pages, 8 MiB mapped first",
                "call", "returns", "mapped after");
        for (long[] c : new long[][] {{mib(1), mib(4)}, {0, mib(1)}, {0, mib(8)}}) {
            ExpandableSegment s = new ExpandableSegment(new Gpu(mib(64)).openToyProcess(), mib(64), mib(2));
            s.map(0, mib(8));
            ExpandableSegment.Range r = s.unmap(c[0], c[1]);
            t.row("unmap(" + readable(c[0]) + ", " + readable(c[1]) + ")", r, readable(s.mappedBytes()));
        }
        return t.then("Each row starts from the same 8 MiB mapped. A page shared with a neighbour stays "
                + "mapped, so a free range gives back only the pages it covers whole.").toString();
    }
}
