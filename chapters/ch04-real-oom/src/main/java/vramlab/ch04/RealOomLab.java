package vramlab.ch04;

import static vramlab.units.Bytes.mib;
import static vramlab.units.Bytes.toyM;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

import vramlab.alloc.Block;
import vramlab.alloc.CudaOutOfMemoryError;
import vramlab.alloc.Sim;
import vramlab.alloc.SimExp;
import vramlab.ch04.causes.Causes;
import vramlab.kit.Scenario;

/**
 * The real-OOM lab: the fragmentation scenario of the notes on a 40 MiB toy GPU, and the
 * same workload under the essence of expandable segments. Every number is the simulator's.
 *
 * <p>Run it three ways: {@code ./vramlab lab real-oom}, this class's {@code main}, or step by
 * step in {@code ./vramlab jshell real-oom}.
 */
public final class RealOomLab {
    private RealOomLab() {}

    public static void main(String[] args) { run(System.out); }

    public static void run(PrintStream out) { Scenario.runAll(out, scenarios()); }

    /** The lab's scenarios, in the notes' order; each runs on its own (see {@link Scenario}). */
    public static List<Scenario> scenarios() {
        List<Scenario> all = new ArrayList<>(List.of(
                new Scenario("Fragmentation: free >= request, and the allocation still fails", RealOomLab::fragmentation),
                new Scenario("The same workload under expandable segments (SimExp, the toy's expandable twin)",
                        RealOomLab::expandableTwin),
                Scenario.afterword(RealOomLab::whatToNotice),
                new Scenario("The six causes, each staged until it OOMs, and what triage reads from its message",
                        out -> { })));
        all.addAll(Causes.labScenarios());
        return all;
    }

    // tag::fragmentation[]
    /** Fills 40 MiB with alternating 4 MiB and 6 MiB blocks, frees the 4 MiB side, asks for 8 MiB. */
    public static Sim fragmentation(PrintStream out) {
        Sim sim = new Sim(mib(40));
        List<Block> a = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            a.add(sim.alloc(mib(3) + 1));               // 3 MiB + 1 B -> a 4 MiB block
            sim.alloc(mib(5) + 1);                      // 5 MiB + 1 B -> a 6 MiB block, kept live
        }
        out.println("fill:  " + sim.counters());
        a.forEach(sim::free);                           // free the 4 MiB side only
        out.println("freed: " + sim.counters() + " free=" + toyM(sim.freeBytes())
                + " largest=" + toyM(sim.largestFreeBlock()));
        out.println("segment 0: " + sim.allocator().segments().iterator().next());
        try {
            sim.alloc(mib(8));                          // 16 MiB free >= 8 MiB asked...
        } catch (CudaOutOfMemoryError e) {
            out.println("OOM: " + e.getMessage());
        }
        Block x = sim.alloc(mib(3) + 1);                // a 4 MiB hole fits exactly
        out.println("4 MiB alloc from a hole: OK -> " + x);
        out.println("empty_cache() released: " + sim.emptyCache() / mib(1) + " MiB");
        return sim;
    }
    // end::fragmentation[]

    // tag::expandable[]
    /** The same fill and free, but each free unmaps its pages and each alloc maps fresh VA. */
    public static SimExp expandableTwin(PrintStream out) {
        SimExp exp = new SimExp(mib(40));
        List<SimExp.Mapping> a = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            a.add(exp.alloc(mib(3) + 1));
            exp.alloc(mib(5) + 1);
        }
        out.println("expandable fill:            mapped=" + toyM(exp.mapped()));
        a.forEach(exp::free);
        out.println("expandable freed 4 MiB side: mapped=" + toyM(exp.mapped()) + " (pages returned NOW)");
        SimExp.Mapping p = exp.alloc(mib(8));
        out.println("expandable 8 MiB alloc:     OK at VA +" + toyM(p.offset()) + ", mapped=" + toyM(exp.mapped()));
        return exp;
    }
    // end::expandable[]

    public static String whatToNotice() {
        return """
                What to notice:
                  1. The rounding tax: 32M requested became 40M allocated (3 MiB + 1 B costs 4 MiB).
                  2. The OOM comes from the driver boundary: a fresh 20 MiB segment does not fit on a
                     card that is 40/40 reserved, while 16 MiB sit free in holes of 4 MiB each.
                  3. A 4 MiB request still succeeds: an exact fit in a hole.
                  4. empty_cache() releases 0 MiB: both segments hold live 6 MiB blocks. It is not a
                     defragmenter.
                  5. Under the expandable twin, freed pages go back to the driver at free (the twin's
                     simplification: PyTorch unmaps only whole free pages, at empty_cache() or the
                     OOM retry), and the 8 MiB request maps fresh pages at fresh, contiguous VA (+40M).
                  The toy is the simplified policy chapter 3 starts from; real PyTorch rounds and splits differently
                  (./vramlab replay --policy pytorch, and the notes' "Where the toy simplifies").
                """;
    }

    /** What a student can try in JShell. */
    public static String help() {
        return """
                Real-OOM lab: build the fragmentation scenario yourself. Try:
                  var sim = new Sim(mib(40));             a 40 MiB toy GPU, toy policy
                  var a = sim.alloc(mib(3) + 1);          its block: seg0[0..4)M 4M LIVE
                  var b = sim.alloc(mib(5) + 1);
                  sim.counters()                          reserved / allocated / requested
                  sim.free(a); sim                        the segment map after a free
                  sim.alloc(mib(8))                       fill the card first, then watch it fail (step 4.1)
                  readable(sim.emptyCache())              bytes released (whole free segments only)
                  var exp = new SimExp(mib(40)); exp.alloc(mib(3) + 1); exp   the expandable twin (4.2, 4.3)
                  var o = Causes.named("other-process").run(Causes.defaultPolicy(), 7);   one of the six causes
                  Triage.of(o.pasted()).text()            what ./vramlab triage says of its message
                  RealOomLab.run(System.out)              the whole lab, as ./vramlab lab real-oom prints it
                Your steps (labs/src/main/java/vramlab/alloc/):
                  4.1 The toy's OOM message        ToyPolicy.oomMessage
                  4.2 SimExp: map pages on demand  SimExp.alloc
                  4.3 SimExp: return pages at free SimExp.free
                Check one step: ./vramlab check 4.1   the chapter: ./vramlab check 4
                Quiz (outside JShell): ./vramlab quiz 4   your answers: ./vramlab quiz 4 --check labs/answers/ch04.txt
                """;
    }
}
