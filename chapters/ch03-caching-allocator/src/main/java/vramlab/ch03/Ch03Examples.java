package vramlab.ch03;

import static vramlab.units.Bytes.kib;
import static vramlab.units.Bytes.mib;
import static vramlab.units.Bytes.readable;

import vramlab.alloc.Block;
import vramlab.alloc.PoolKind;
import vramlab.alloc.Sim;
import vramlab.alloc.ToyPolicy;
import vramlab.figures.ExampleTable;

/**
 * The worked example of each of chapter 03's graded steps, computed by the reference when the
 * site is built (the notes include {@code {generated}/step-3.N.adoc}). Each shows inputs and
 * what the rule gives for them, never the code that gives it.
 */
public final class Ch03Examples {
    private Ch03Examples() {}

    /** Step 3.1: the size ladder under the toy policy. */
    public static String example3_1() {
        ToyPolicy toy = new ToyPolicy();
        ExampleTable t = ExampleTable.of("3.1", "roundSize under the toy policy", "requested", "rounded", "pool");
        for (long r : new long[] {1, 100, 512, 513, kib(300), mib(1), mib(1) + 1, mib(3) + 1, mib(25)}) {
            long rounded = toy.roundSize(r);
            t.row(readable(r), readable(rounded), "=" + toy.poolFor(rounded).name().toLowerCase());
        }
        return t.then("At most 1 MiB rounds to a multiple of 512 B; above it, in the toy, to a multiple of "
                + "2 MiB. 1 MiB itself is still small.").toString();
    }

    /** Step 3.2: which free block a request gets, with holes of 4, 6 and 10 MiB. */
    public static String example3_2() {
        ExampleTable t = ExampleTable.of("3.2", "best fit among free blocks of 4, 6 and 10 MiB",
                "alloc", "rounded", "block it gets");
        for (long r : new long[] {mib(3) + 1, mib(5), mib(6), mib(7)}) {
            Sim sim = holes();
            Block b = sim.alloc(r);
            t.row("alloc(" + readable(r) + ")", readable(new ToyPolicy().roundSize(r)),
                    "segment " + b.segment().id() + " at +" + readable(b.offset()) + ", " + readable(b.size()));
        }
        return t.then("The free blocks: 4 MiB at +0, 6 MiB at +6 MiB and 10 MiB at +14 MiB of one 24 MiB "
                + "segment (live 2 MiB blocks between them). The smallest block that fits wins; 7 MiB rounds "
                + "to 8 MiB and only the 10 MiB block is large enough.").toString();
    }

    /** One 24 MiB segment: free 4 MiB, live 2, free 6, live 2, free 10 (toy policy). */
    static Sim holes() {
        Sim sim = new Sim(mib(40));
        Block a = sim.alloc(mib(24));
        sim.free(a);
        Block h1 = sim.alloc(mib(4));
        sim.alloc(mib(2));
        Block h2 = sim.alloc(mib(6));
        sim.alloc(mib(2));
        sim.free(h1);
        sim.free(h2);
        return sim;
    }

    /** Step 3.3: split or hand over whole. */
    public static String example3_3() {
        ToyPolicy toy = new ToyPolicy();
        ExampleTable t = ExampleTable.of("3.3", "shouldSplit under the toy policy", "pool", "free block",
                "rounded request", "remainder", "split?");
        long[][] cases = {{0, mib(2), kib(512)}, {0, kib(1), 512}, {0, 1024, 1024}, {1, mib(20), mib(4)},
            {1, mib(5), mib(4)}, {1, mib(6), mib(4)}};
        for (long[] c : cases) {
            PoolKind pool = c[0] == 0 ? PoolKind.SMALL : PoolKind.LARGE;
            t.row("=" + pool.name().toLowerCase(), readable(c[1]), readable(c[2]),
                    c[1] == c[2] ? "0 B" : readable(c[1] - c[2]), "=" + (toy.shouldSplit(pool, c[1], c[2]) ? "yes" : "no"));
        }
        return t.then("A remainder is split off only when it could be a block of its pool: at least 512 B in "
                + "the small pool, at least 2 MiB in the toy's large pool.").toString();
    }

    /** Step 3.4: what one free merges. */
    public static String example3_4() {
        ExampleTable t = ExampleTable.of("3.4", "free and merge in one 20 MiB segment",
                "after", "the segment's blocks, in address order");
        Sim sim = new Sim(mib(40));
        Block a = sim.alloc(mib(4));
        Block b = sim.alloc(mib(6));
        Block c = sim.alloc(mib(4));
        t.row("=alloc 4, 6 and 4 MiB", blocks(sim));
        sim.free(b);
        t.row("=free the 6 MiB block", blocks(sim));
        sim.free(a);
        t.row("=free the first 4 MiB block", blocks(sim));
        sim.free(c);
        t.row("=free the last block", blocks(sim));
        return t.then("A freed block joins the free block before it and the free block after it, in the same "
                + "segment; after the last free, one block covers the segment again.").toString();
    }

    /** Step 3.5: what empty_cache gives back. */
    public static String example3_5() {
        ExampleTable t = ExampleTable.of("3.5", "empty_cache with one live block",
                "state", "reserved before", "emptyCache() returns", "reserved after");
        Sim sim = new Sim(mib(80));
        Block keep = sim.alloc(mib(4));
        Block gone = sim.alloc(mib(30));
        sim.free(gone);
        long before = sim.reserved();
        long released = sim.emptyCache();
        t.row("=a 20 MiB segment holding a live 4 MiB block, and a 30 MiB segment all free",
                readable(before), readable(released), readable(sim.reserved()));
        sim.free(keep);
        before = sim.reserved();
        released = sim.emptyCache();
        t.row("=then the 4 MiB block freed too", readable(before), readable(released), readable(sim.reserved()));
        return t.then("Only a segment that is one free block goes back to the driver; a segment with one live "
                + "block keeps all its bytes reserved.").toString();
    }

    private static String blocks(Sim sim) {
        StringBuilder sb = new StringBuilder();
        for (var s : sim.allocator().segments()) {
            for (Block b : s.blocks()) {
                if (sb.length() > 0) sb.append(", ");
                sb.append(readable(b.size())).append(b.isAllocated() ? " live" : " free");
            }
        }
        return sb.toString();
    }
}
