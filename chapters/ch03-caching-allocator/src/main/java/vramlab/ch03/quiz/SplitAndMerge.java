package vramlab.ch03.quiz;

import static vramlab.units.Bytes.mib;

import java.util.List;

import vramlab.alloc.Block;
import vramlab.alloc.Sim;
import vramlab.quiz.Blanks;
import vramlab.quiz.Part;
import vramlab.quiz.Question;
import vramlab.quiz.Variant;
import vramlab.units.Bytes;

/** Split on alloc, merge on free: three allocations, then the middle and the first freed. */
public final class SplitAndMerge implements Question {
    static final long DEVICE = mib(64);

    @Override public String id() { return "q3.2"; }
    @Override public String title() { return "Split and merge: the counters after five calls"; }

    static long[] sizes(Variant v) {
        if (v.isSeed()) return new long[] {mib(4), mib(6), mib(4)};
        return new long[] {
            v.between("x", mib(1) + 1, mib(6)), v.between("y", mib(1) + 1, mib(6)), v.between("z", mib(1) + 1, mib(6)),
        };
    }

    @Override
    public String prompt(Variant v) {
        long[] s = sizes(v);
        return "On a fresh Sim of " + Bytes.toyMiB(DEVICE) + " with the seed's toy policy (vramlab.alloc.ToyPolicy,\n"
                + "not PyTorch's real rules):\n"
                + "  a = alloc(" + s[0] + "); b = alloc(" + s[1] + "); c = alloc(" + s[2] + "); free(b); free(a);\n"
                + "  (a: " + Show.size(s[0]) + ", b: " + Show.size(s[1]) + ", c: " + Show.size(s[2]) + ")\n"
                + "(a) reserved and allocated now; (b) requested now, in bytes;\n"
                + "(c) the largest free block; (d) how many blocks segment 0 holds now.";
    }

    /** Replays the five calls on the reference simulator. */
    static Sim replay(Variant v) {
        long[] s = sizes(v);
        Sim sim = new Sim(DEVICE);
        Block a = sim.alloc(s[0]);
        Block b = sim.alloc(s[1]);
        sim.alloc(s[2]);
        sim.free(b);
        sim.free(a);
        return sim;
    }

    @Override
    public List<Part> parts(Variant v) {
        Sim sim = replay(v);
        int blocks = sim.allocator().segments().iterator().next().blocks().size();
        return List.of(
                Part.of("a", 1, Blanks.size("q3.2.a.reserved", sim.reserved(), Bytes::parse),
                        Blanks.size("q3.2.a.allocated", sim.allocated(), Bytes::parse)),
                Part.of("b", 1, Blanks.number("q3.2.b.requested", sim.requested())),
                Part.of("c", 1, Blanks.size("q3.2.c.largest", sim.largestFreeBlock(), Bytes::parse)),
                Part.of("d", 1, Blanks.number("q3.2.d.blocks", blocks)));
    }
}
