package vramlab.ch03;

import static vramlab.units.Bytes.mib;

import java.io.PrintStream;

import vramlab.alloc.Block;
import vramlab.alloc.Policy;
import vramlab.alloc.Sim;
import vramlab.alloc.ToyPolicy;
import vramlab.units.Bytes;

/**
 * The caching-allocator lab: the size ladder (what a request costs), then one split and one
 * merge watched on the segment map. Every number is the simulator's.
 */
public final class CachingAllocatorLab {
    /** The seed quiz's sizes and the fact sheet's edges: 100 B ... 25 MiB. */
    public static final long[] LADDER = {100, 300_000, mib(1), mib(1) + 1, mib(3) / 2, 2_516_582,
        mib(3) + 1, mib(5) + 1, mib(8), mib(10), mib(25)};

    private CachingAllocatorLab() {}

    public static void main(String[] args) { run(System.out); }

    public static void run(PrintStream out) {
        out.println("== The size ladder under the toy policy ==");
        out.print(ladder(new ToyPolicy()));
        out.println();
        out.println("== Split and merge on one segment ==");
        splitAndMerge(out);
    }

    /** One row per request: rounded block, pool, and the segment a cold cache would cudaMalloc. */
    public static String ladder(Policy p) {
        StringBuilder sb = new StringBuilder(String.format("%14s  %14s  %-5s  %14s%n",
                "request (B)", "block (B)", "pool", "new segment"));
        for (long n : LADDER) {
            long r = p.roundSize(n);
            sb.append(String.format("%14d  %14d  %-5s  %14s%n", n, r, p.poolFor(r).name().toLowerCase(),
                    Bytes.formatSize(p.segmentSize(r))));
        }
        return sb.toString();
    }

    // tag::split-merge[]
    /** A 20 MiB segment split three ways, then the middle and its neighbours freed. */
    public static Sim splitAndMerge(PrintStream out) {
        Sim sim = new Sim(mib(40));
        Block a = sim.alloc(mib(4));
        out.println("alloc 4 MiB:   " + a.segment());            // split: [A 4M][FREE 16M]
        Block b = sim.alloc(mib(6));
        Block c = sim.alloc(mib(4));
        out.println("alloc 6, 4:    " + b.segment());
        sim.free(b);
        out.println("free the 6:    " + a.segment());            // a hole between two live blocks
        sim.free(a);
        out.println("free the 4:    " + c.segment());            // merges with the hole on its right
        sim.free(c);
        out.println("free the last: " + sim.allocator().segments().iterator().next());
        out.println("empty_cache() released " + Bytes.toyMiB(sim.emptyCache()));
        return sim;
    }
    // end::split-merge[]

    public static String help() {
        return """
                Caching-allocator lab: rounding, pools, split and merge.
                  var p = new ToyPolicy();  p.roundSize(100)   the 512 B ladder; try mib(3) + 1
                  p.poolFor(p.roundSize(mib(1)))               which pool? then try mib(1) + 1
                  p.segmentSize(p.roundSize(mib(25)))          what one cudaMalloc would be
                  var sim = new Sim(mib(40)); var a = sim.alloc(mib(4)); sim   split on the map
                  sim.free(a); sim                             merge on the map
                  CachingAllocatorLab.run(System.out)          the whole lab
                Your steps (labs/): 3.1 rounding, 3.2 find a block, 3.3 the split rule,
                3.4 merge on free, 3.5 empty_cache. Check them: mvn test -Plab.
                """;
    }
}
