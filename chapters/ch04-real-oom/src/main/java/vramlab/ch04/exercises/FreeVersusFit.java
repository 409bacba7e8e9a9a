package vramlab.ch04.exercises;

import static vramlab.units.Bytes.mib;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import vramlab.alloc.Block;
import vramlab.alloc.CudaOutOfMemoryError;
import vramlab.alloc.Sim;
import vramlab.alloc.SimExp;
import vramlab.kit.Exercise;
import vramlab.units.Bytes;

/**
 * Exercise: the lab's fragmentation with seeded sizes. A full toy card of alternating blocks,
 * one side freed, then one request: does it fit in the cache, under the expandable twin, and
 * what does emptyCache() release? The answer replays it on {@code Sim} and {@code SimExp}.
 */
public final class FreeVersusFit implements Exercise {
    /** Block sizes in MiB (a, b) whose pairs fill a 20 MiB segment exactly. */
    static final int[][] PAIRS = {{2, 8}, {4, 6}, {6, 4}, {8, 2}, {4, 16}, {6, 14}, {8, 12}, {10, 10}, {12, 8}};

    /** The seeded workload: segments, the two request sizes, and the last request. */
    record Plan(int segments, int a, int b, long sizeA, long sizeB, long request) {
        int pairs() { return segments * 20 / (a + b); }
        long device() { return mib(20) * segments; }
    }

    /** What happened: the cache's free bytes and largest block, and the three outcomes. */
    record Result(long free, long largest, boolean fits, long tried, boolean fitsExpandable,
                  long mappedAfter, long released) {}

    @Override public String title() { return "Free bytes versus a fit: the fragmentation arithmetic"; }

    static Plan plan(long seed) {
        Random r = new Random(seed);
        int[] p = PAIRS[r.nextInt(PAIRS.length)];
        int segments = 2 + r.nextInt(3);
        long sizeA = above(p[0], r);                    // rounds up to a MiB (toy: 2 MiB steps)
        long sizeB = above(p[1], r);
        long request = r.nextInt(3) == 0 ? mib(p[0]) - r.nextInt((int) mib(1))
                : mib(p[0]) + 1 + r.nextInt((int) mib(p[0] + p[1]));
        return new Plan(segments, p[0], p[1], sizeA, sizeB, request);
    }

    /** A size in the large pool that the toy rounds up to exactly {@code mib} MiB. */
    private static long above(int mib, Random r) {
        long lo = Math.max(mib(mib - 2), mib(1)) + 1;
        return lo + r.nextInt((int) (mib(mib) - lo + 1));
    }

    @Override
    public String prompt(long seed) {
        Plan p = plan(seed);
        return "On a toy card of " + Bytes.readable(p.device()) + " (chapter 3's simplified policy), repeat "
                + p.pairs() + " times:\n"
                + "  a = alloc(" + p.sizeA() + " B); b = alloc(" + p.sizeB() + " B);\n"
                + "then free every a, and ask for alloc(" + p.request() + " B).\n"
                + "(a) How many bytes are free in the cache, and what is the largest free block?\n"
                + "(b) Does the request succeed? If not, what does the toy's message say it tried to allocate?\n"
                + "(c) Under the expandable twin (SimExp, same card, same fills and frees): does it succeed,\n"
                + "    and what is mapped after it?\n"
                + "(d) What does emptyCache() release at that moment on the first card?";
    }

    static Result run(long seed) {
        Plan p = plan(seed);
        Sim sim = new Sim(p.device());
        List<Block> as = new ArrayList<>();
        for (int i = 0; i < p.pairs(); i++) {
            as.add(sim.alloc(p.sizeA()));
            sim.alloc(p.sizeB());
        }
        as.forEach(sim::free);
        long free = sim.freeBytes();
        long largest = sim.largestFreeBlock();
        boolean fits = true;
        long tried = 0;
        try {
            sim.alloc(p.request());
        } catch (CudaOutOfMemoryError e) {
            fits = false;
            tried = e.report().tried();
        }
        SimExp exp = new SimExp(p.device());
        List<SimExp.Mapping> ms = new ArrayList<>();
        for (int i = 0; i < p.pairs(); i++) {
            ms.add(exp.alloc(p.sizeA()));
            exp.alloc(p.sizeB());
        }
        ms.forEach(exp::free);
        boolean fitsExp = true;
        try {
            exp.alloc(p.request());
        } catch (CudaOutOfMemoryError e) {
            fitsExp = false;
        }
        return new Result(free, largest, fits, tried, fitsExp, exp.mapped(), sim.emptyCache());
    }

    @Override
    public String answer(long seed) {
        Plan p = plan(seed);
        Result r = run(seed);
        StringBuilder sb = new StringBuilder();
        sb.append("Each a rounds to ").append(p.a()).append(" MiB and each b to ").append(p.b())
          .append(" MiB: ").append(p.pairs()).append(" pairs fill the card, ").append(20 / (p.a() + p.b()))
          .append(" to a segment.\n");
        sb.append("(a) free in the cache: ").append(Bytes.readable(r.free())).append("; largest free block: ")
          .append(Bytes.readable(r.largest())).append(" (every hole is fenced by live b blocks)\n");
        sb.append("(b) ").append(r.fits() ? "it succeeds: the request fits in one hole"
                : "OOM: no hole is large enough, and the new segment it tried to allocate, "
                        + Bytes.toyMiB(r.tried()) + ", does not fit on a card that is all reserved").append('\n');
        sb.append("(c) expandable twin: ").append(r.fitsExpandable() ? "it succeeds" : "OOM")
          .append("; mapped after: ").append(Bytes.readable(r.mappedAfter())).append('\n');
        sb.append("(d) emptyCache() releases ").append(Bytes.readable(r.released()))
          .append(": every segment still holds a live block");
        return sb.toString();
    }
}
