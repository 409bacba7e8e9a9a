package vramlab.ch03.quiz;

import static vramlab.units.Bytes.mib;

import java.util.List;

import vramlab.alloc.Sim;
import vramlab.quiz.Blanks;
import vramlab.quiz.Part;
import vramlab.quiz.Question;
import vramlab.quiz.Variant;
import vramlab.units.Bytes;

/** requested <= allocated <= reserved: the seed's alternating fill, with this student's sizes. */
public final class RoundingTax implements Question {
    static final long DEVICE = mib(256);

    @Override public String id() { return "q3.3"; }
    @Override public String title() { return "The rounding tax: requested, allocated, reserved after a fill"; }

    /** {count, size of the first kind, size of the second kind}. */
    static long[] fill(Variant v) {
        if (v.isSeed()) return new long[] {4, mib(3) + 1, mib(5) + 1};
        return new long[] {v.between("count", 3, 6), v.between("s1", mib(1) + 1, mib(5)), v.between("s2", mib(1) + 1, mib(7))};
    }

    @Override
    public String prompt(Variant v) {
        long[] f = fill(v);
        return "On a fresh toy Sim of " + Bytes.toyMiB(DEVICE) + ", alternate " + f[0] + " times:\n"
                + "  alloc(" + f[1] + "); alloc(" + f[2] + ");   (" + Show.size(f[1]) + ", " + Show.size(f[2]) + ")\n"
                + "and free nothing. (a) allocated; (b) reserved; (c) how many segments (cudaMalloc calls).";
    }

    @Override
    public List<Part> parts(Variant v) {
        long[] f = fill(v);
        Sim sim = new Sim(DEVICE);
        for (int i = 0; i < f[0]; i++) {
            sim.alloc(f[1]);
            sim.alloc(f[2]);
        }
        return List.of(
                Part.of("a", 1, Blanks.size("q3.3.a.allocated", sim.allocated(), Bytes::parse)),
                Part.of("b", 1, Blanks.size("q3.3.b.reserved", sim.reserved(), Bytes::parse)),
                Part.of("c", 1, Blanks.number("q3.3.c.segments", sim.allocator().segments().size())));
    }
}
