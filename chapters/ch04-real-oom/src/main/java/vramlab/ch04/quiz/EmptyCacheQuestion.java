package vramlab.ch04.quiz;

import static vramlab.units.Bytes.mib;

import java.util.ArrayList;
import java.util.List;

import vramlab.alloc.Block;
import vramlab.alloc.Sim;
import vramlab.quiz.Blanks;
import vramlab.quiz.Part;
import vramlab.quiz.Question;
import vramlab.quiz.Variant;
import vramlab.units.Bytes;

/** What empty_cache() does, what it does not, and when it is the right tool. */
public final class EmptyCacheQuestion implements Question {
    /** What empty_cache() gives back to the driver. */
    public enum Releases { WHOLLY_FREE_SEGMENTS, EVERY_FREE_BLOCK, LIVE_BLOCKS_AFTER_MOVING_THEM, NOTHING }

    static final long DEVICE = mib(200);

    /** Per segment: {first request, second request, which to free: 0 none, 1 first, 2 second, 3 both}. */
    static long[][] plan(Variant v) {
        if (v.isSeed()) {
            return new long[][] {{mib(8), mib(12), 3}, {mib(8), mib(12), 1}, {mib(4), mib(16), 0}, {mib(10), mib(10), 3}};
        }
        long[][] p = new long[(int) v.between("segments", 3, 6)][];
        for (int i = 0; i < p.length; i++) {
            long first = mib(v.between("first" + i, 2, 10));
            p[i] = new long[] {first, mib(20) - first, v.between("free" + i, 0, 3)};
        }
        return p;
    }

    @Override public String id() { return "q4.3"; }
    @Override public String notesSection() { return "Closing the holes, and planning capacity"; }
    @Override public String title() { return "What empty_cache() does and does not do"; }

    @Override
    public String prompt(Variant v) {
        StringBuilder sb = new StringBuilder("On a fresh Sim of " + Bytes.toyMiB(DEVICE) + " with the toy policy"
                + " (vramlab.alloc.ToyPolicy,\nnot PyTorch's real rules), for each row allocate the two sizes (one 20 MiB segment\nper row), then free what the row says:\n");
        for (long[] r : plan(v)) {
            sb.append("  alloc(").append(Bytes.toyMiB(r[0])).append("), alloc(").append(Bytes.toyMiB(r[1]))
              .append("), free ").append(new String[] {"nothing", "the first", "the second", "both"}[(int) r[2]])
              .append('\n');
        }
        return sb.append("Then call emptyCache().\n(a) how many bytes does it release? (b) what does it release?\n")
                 .append("(c) for which cause of an OOM, as ./vramlab triage names them, is it the right tool?").toString();
    }

    @Override
    public List<Part> parts(Variant v) {
        Sim sim = new Sim(DEVICE);
        List<Block> toFree = new ArrayList<>();
        for (long[] r : plan(v)) {
            Block a = sim.alloc(r[0]);
            Block b = sim.alloc(r[1]);
            if ((r[2] & 1) != 0) toFree.add(a);
            if ((r[2] & 2) != 0) toFree.add(b);
        }
        toFree.forEach(sim::free);
        long released = sim.emptyCache();
        return List.of(
                Part.of("a", 1, Blanks.size("q4.3.a.released", released, Bytes::parse)),
                Part.of("b", 1, Blanks.choice("q4.3.b.releases", Releases.class)),
                Part.of("c", 1, CauseChoice.of("q4.3.c.cause")));
    }
}
