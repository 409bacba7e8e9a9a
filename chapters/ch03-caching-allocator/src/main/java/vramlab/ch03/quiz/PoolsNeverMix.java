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

/** A small request next to a large cached hole: pools never mix. */
public final class PoolsNeverMix implements Question {
    static final long DEVICE = mib(64);

    /** Whether a request reused bytes the allocator had cached. */
    public enum Reuse { YES, NO }

    @Override public String id() { return "q3.4"; }
    @Override public String notesSection() { return "Rule 2: pools never mix"; }
    @Override public String title() { return "Pools never mix: a small request beside a large hole"; }

    static long[] sizes(Variant v) {
        if (v.isSeed()) return new long[] {mib(8), 900 * 1024};
        return new long[] {v.between("big", mib(2) + 1, mib(30)), v.between("small", 1, mib(1))};
    }

    @Override
    public String prompt(Variant v) {
        long[] s = sizes(v);
        return "On a fresh Sim of " + Bytes.toyMiB(DEVICE) + " with the toy policy (vramlab.alloc.ToyPolicy):\n"
                + "big = alloc(" + s[0] + "); free(big);\n"
                + "then small = alloc(" + s[1] + ").   (big: " + Bytes.readable(s[0]) + ", small: " + Bytes.readable(s[1]) + ")\n"
                + "(a) the pool of the small request; (b) does it reuse the bytes big left cached?\n"
                + "(c) reserved after the three calls.";
    }

    @Override
    public List<Part> parts(Variant v) {
        long[] s = sizes(v);
        Sim sim = new Sim(DEVICE);
        Block big = sim.alloc(s[0]);
        sim.free(big);
        Block small = sim.alloc(s[1]);
        Reuse reuse = small.segment() == big.segment() ? Reuse.YES : Reuse.NO;
        return List.of(
                Part.of("a", 1, Blanks.choice("q3.4.a.pool", small.pool())),
                Part.of("b", 1, Blanks.choice("q3.4.b.reuse", reuse)),
                Part.of("c", 1, Blanks.size("q3.4.c.reserved", sim.reserved(), Bytes::parse)));
    }
}
