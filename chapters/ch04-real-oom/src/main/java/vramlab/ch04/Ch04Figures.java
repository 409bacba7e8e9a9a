package vramlab.ch04;

import static vramlab.units.Bytes.mib;

import java.io.OutputStream;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

import vramlab.alloc.Block;
import vramlab.alloc.Sim;
import vramlab.figures.SegmentMapFigure;
import vramlab.figures.TimelineFigure;
import vramlab.figures.TimelineFigure.Event;

/**
 * The figures of chapter 04's notes, drawn from the simulator at build time. The site finds
 * every public static {@code String figureXxx()} of this package and writes it as
 * {@code figures/xxx.svg} (and {@code figures/ch04-xxx.svg}).
 */
public final class Ch04Figures {
    private Ch04Figures() {}

    /** The triage ladder of the six causes, each step linked to its scenario. */
    public static String figureLadder() { return vramlab.ch04.causes.LadderFigure.figureLadder(); }

    // tag::figure-fragmentation[]
    /** The lab's fragmentation scenario, run now, its segments drawn as it leaves them. */
    public static String figureFragmentation() {
        Sim sim = RealOomLab.fragmentation(new PrintStream(OutputStream.nullOutputStream()));
        return SegmentMapFigure.svg("Fragmentation: 4 MiB holes between live 6 MiB blocks (toy policy, 40 MiB GPU)",
                SegmentMapFigure.snapshot(sim.allocator()));
    }
    // end::figure-fragmentation[]

    /** The same fill and free as an active-memory timeline: the stack shrinks, the holes stay. */
    public static String figureFragmentationTimeline() {
        Sim sim = new Sim(mib(40));
        List<Event> events = new ArrayList<>();
        List<Block> small = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            Block a = sim.alloc(mib(3) + 1);
            events.add(Event.alloc("a" + i, a.requested()));
            small.add(a);
            Block b = sim.alloc(mib(5) + 1);
            events.add(Event.alloc("b" + i, b.requested()));
        }
        for (int i = 0; i < small.size(); i++) {
            sim.free(small.get(i));
            events.add(Event.free("a" + i));
        }
        return TimelineFigure.svg("Active memory: four 3 MiB and four 5 MiB tensors, then the 3 MiB ones freed",
                events);
    }
}
