package vramlab.ch08.quiz;

import java.util.List;

import vramlab.judge.Run;
import vramlab.judge.Scoreboard;
import vramlab.quiz.Blanks;
import vramlab.quiz.Part;
import vramlab.quiz.Question;
import vramlab.quiz.Variant;

/**
 * The performance index by its formula: an entry's points on one workload, and the index once
 * it runs out of memory on a second. The numbers make both whole: U a multiple of 1/20, the
 * entry's driver cost a whole multiple of PyTorch's that divides 40.
 */
public final class PointsOfAnEntry implements Question {
    @Override public String id() { return "q8.2"; }
    @Override public String notesSection() { return "How the contest scores"; }

    @Override
    public String title() { return "The performance index: an entry's points, and what running out of memory costs"; }

    static final long[] COST_TIMES = {1, 2, 4, 5, 10, 20};

    /** {unit MiB, k (U = k/20, even), PyTorch's cost us, m (the entry's cost is m times it)}. */
    static long[] numbers(Variant v) {
        if (v.isSeed()) return new long[] {100, 18, 40_000, 2};
        return new long[] {v.between("unit", 50, 500), 2 * v.between("k", 5, 10), 1000 * v.between("cost", 1, 100),
                COST_TIMES[(int) v.between("times", 0, COST_TIMES.length - 1)]};
    }

    static Run run(long requestedMiB, long reservedMiB, double micros, boolean fit) {
        return new Run("entry", "w", 1, 1, fit, fit ? -1 : 1, "", null, reservedMiB << 20, requestedMiB << 20, 1, micros, 0,
                new long[0], new long[0]);
    }

    @Override
    public String prompt(Variant v) {
        long[] n = numbers(v);
        return "An entry breaks no check. On workload 1 it fits, with peak requested " + n[1] * n[0] + " MiB, peak\n"
                + "reserved " + 20 * n[0] + " MiB and a simulated driver cost of " + n[2] * n[3] + " us; PyTorch's\n"
                + "default entry, on the same workload, costs " + n[2] + " us.\n"
                + "(a) 100 x P_1, the entry's points on workload 1 times 100;\n"
                + "(b) the entry's performance index over two workloads, if on workload 2 it runs out of memory.";
    }

    @Override
    public List<Part> parts(Variant v) {
        long[] n = numbers(v);
        Run pytorch = run(1, 1, n[2], true);
        double p1 = Scoreboard.points(run(n[1] * n[0], 20 * n[0], n[2] * n[3], true), pytorch);
        double p2 = Scoreboard.points(run(n[1] * n[0], 20 * n[0], n[2] * n[3], false), pytorch);
        return List.of(
                Part.of("a", 1, Blanks.number("q8.2.a.points", Math.round(100 * p1))),
                Part.of("b", 1, Blanks.number("q8.2.b.index", Math.round(100 * (p1 + p2) / 2))));
    }
}
