package vramlab.ch03.exercises;

import static vramlab.units.Bytes.mib;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import vramlab.alloc.Block;
import vramlab.alloc.CudaOutOfMemoryError;
import vramlab.alloc.Sim;
import vramlab.kit.Exercise;
import vramlab.units.Bytes;

/**
 * Exercise: a seeded run of toy allocations and frees on a 40 MiB card; predict the three
 * counters and the number of segments at the end. The answer replays the same run.
 */
public final class PredictTheCounters implements Exercise {
    static final long DEVICE = mib(40);

    /** One step of the run: an allocation of {@code size}, or a free of the {@code victim}-th live block. */
    record Step(long size, int victim) {
        boolean isAlloc() { return size > 0; }
    }

    @Override public String title() { return "Predict the counters after a run of allocs and frees"; }

    static List<Step> steps(long seed) {
        Random r = new Random(seed);
        List<Step> steps = new ArrayList<>();
        int live = 0;
        for (int i = 0; i < 6; i++) {
            if (live > 0 && r.nextInt(3) == 0) {
                steps.add(new Step(0, r.nextInt(live)));
                live--;
            } else {
                long size = r.nextBoolean() ? (1 + r.nextInt(900)) * 1024L : (1 + r.nextInt(7)) * mib(1) + r.nextInt(2);
                steps.add(new Step(size, -1));
                live++;
            }
        }
        return steps;
    }

    @Override
    public String prompt(long seed) {
        StringBuilder sb = new StringBuilder("On a toy card of " + Bytes.readable(DEVICE)
                + " (chapter 3's simplified policy), a program does, in order:\n");
        List<String> names = new ArrayList<>();
        int next = 0;
        for (Step s : steps(seed)) {
            if (s.isAlloc()) {
                String name = "t" + next++;
                names.add(name);
                sb.append("  ").append(name).append(" = alloc(").append(Bytes.readable(s.size())).append(")\n");
            } else {
                sb.append("  free(").append(names.remove(s.victim())).append(")\n");
            }
        }
        return sb.append("What are requested, allocated and reserved at the end, and how many segments\n")
                 .append("does the allocator hold? Draw the segment map. (If a call fails, say which one and\n")
                 .append("why; the program stops there.)").toString();
    }

    @Override
    public String answer(long seed) {
        Sim sim = new Sim(DEVICE);
        List<Block> live = new ArrayList<>();
        String failed = "";
        int next = 0;
        for (Step s : steps(seed)) {
            if (!s.isAlloc()) {
                sim.free(live.remove(s.victim()));
                continue;
            }
            try {
                live.add(sim.alloc(s.size()));
                next++;
            } catch (CudaOutOfMemoryError e) {
                failed = "t" + next + " = alloc(" + Bytes.readable(s.size()) + ") fails, and the program stops:\n  "
                        + e.getMessage() + "\n";
                break;
            }
        }
        // The counters once, exact (a block under 1 MiB is not "0M"), then the map's segments
        // without its own counters line, which rounds to whole MiB.
        String map = sim.map();
        return failed + "requested " + Bytes.readable(sim.requested()) + ", allocated " + Bytes.readable(sim.allocated())
                + ", reserved " + Bytes.readable(sim.reserved()) + "\nsegments: " + sim.allocator().segments().size()
                + "\n" + map.substring(map.indexOf('\n') + 1);
    }
}
