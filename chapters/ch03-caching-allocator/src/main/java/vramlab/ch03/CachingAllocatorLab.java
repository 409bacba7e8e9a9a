package vramlab.ch03;

import static vramlab.units.Bytes.mib;

import java.io.PrintStream;
import java.util.List;

import vramlab.alloc.Block;
import vramlab.alloc.Policy;
import vramlab.alloc.Sim;
import vramlab.alloc.ToyPolicy;
import vramlab.kit.Scenario;
import vramlab.units.Bytes;

/**
 * The caching-allocator lab: the size ladder (what a request costs), then one split and one
 * merge watched on the segment map. Every number is the simulator's.
 */
public final class CachingAllocatorLab {
    /** The quiz's sizes and the ladder's edges (1 MiB, 1 MiB + 1 B, 10 MiB): 100 B ... 25 MiB. */
    public static final long[] LADDER = {100, 300_000, mib(1), mib(1) + 1, mib(3) / 2, 2_516_582,
        mib(3) + 1, mib(5) + 1, mib(8), mib(10), mib(25)};

    private CachingAllocatorLab() {}

    public static void main(String[] args) { run(System.out); }

    public static void run(PrintStream out) { Scenario.runAll(out, scenarios()); }

    /** The lab's scenarios, in the notes' order; each runs on its own (see {@link Scenario}). */
    public static List<Scenario> scenarios() {
        return List.of(
                new Scenario("The size ladder under the toy policy", out -> out.print(ladder(new ToyPolicy()))),
                new Scenario("Split and merge on one segment", CachingAllocatorLab::splitAndMerge));
    }

    /** One row per request: rounded block, pool, and the segment a cold cache would cudaMalloc. */
    public static String ladder(Policy p) {
        StringBuilder sb = new StringBuilder(String.format("%14s  %14s  %-5s  %14s\n",
                "request (B)", "block (B)", "pool", "new segment"));
        for (long n : LADDER) {
            long r = p.roundSize(n);
            sb.append(String.format("%14d  %14d  %-5s  %14s\n", n, r, p.poolFor(r).name().toLowerCase(),
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
                Caching-allocator lab: rounding, pools, split and merge. Try:
                  var p = new ToyPolicy(); readable(p.roundSize(100))   the 512 B ladder; then mib(3) + 1
                  p.poolFor(p.roundSize(mib(1)))                        which pool? then try mib(1) + 1
                  readable(p.segmentSize(p.roundSize(mib(25))))         what one cudaMalloc would be
                  var sim = new Sim(mib(40)); var a = sim.alloc(mib(4)); sim   a split, on the map
                  sim.free(a); sim                                      the merge, on the map
                  CachingAllocatorLab.run(System.out)   the whole lab, as ./vramlab lab caching-allocator prints it
                Your steps (labs/src/main/java/vramlab/alloc/):
                  3.1 Round a request      ToyPolicy.roundSize
                  3.2 Find a block         CachingAllocator.findFreeBlock
                  3.3 The split rule       ToyPolicy.shouldSplit
                  3.4 Merge on free        CachingAllocator.mergeWithNeighbours
                  3.5 empty_cache          CacheRelease.releaseWholeFreeSegments
                Check one step: ./vramlab check 3.1   the chapter: ./vramlab check 3
                Quiz (outside JShell): ./vramlab quiz 3   your answers: ./vramlab quiz 3 --check labs/answers/ch03.txt
                """;
    }
}
