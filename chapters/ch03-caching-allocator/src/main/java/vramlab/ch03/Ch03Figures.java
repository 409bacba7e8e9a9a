package vramlab.ch03;

import static vramlab.units.Bytes.mib;

import java.util.ArrayList;
import java.util.List;

import vramlab.alloc.Block;
import vramlab.alloc.Sim;
import vramlab.figures.SegmentMapFigure;
import vramlab.figures.SegmentMapFigure.Step;

/**
 * The figures of chapter 03's notes, drawn from the simulator at build time. The site finds
 * every public static {@code String figureXxx()} of this package and writes it as
 * {@code figures/xxx.svg} (and {@code figures/ch03-xxx.svg}).
 */
public final class Ch03Figures {
    private Ch03Figures() {}

    /** {@link CachingAllocatorLab#splitAndMerge}'s steps, each drawn from the simulator's state. */
    public static String figureSplitMerge() {
        Sim sim = new Sim(mib(40));
        List<Step> steps = new ArrayList<>();
        Block a = sim.alloc(mib(4));
        steps.add(step("alloc 4 MiB: the new 20 MiB segment is split", sim));
        Block b = sim.alloc(mib(6));
        Block c = sim.alloc(mib(4));
        steps.add(step("alloc 6 MiB, then 4 MiB: each split off the free remainder", sim));
        sim.free(b);
        steps.add(step("free the 6 MiB block: a hole between two live blocks", sim));
        sim.free(a);
        steps.add(step("free the first 4 MiB: it merges with the hole on its right", sim));
        sim.free(c);
        steps.add(step("free the last: one free block covers the segment again", sim));
        sim.emptyCache();
        steps.add(step("empty_cache(): the whole free segment goes back to the driver", sim));
        return SegmentMapFigure.steps("Split and merge on one segment (toy policy)", steps);
    }

    private static Step step(String caption, Sim sim) {
        return new Step(caption, SegmentMapFigure.snapshot(sim.allocator()));
    }
}
