package vramlab.ch08.exercises;

import java.util.Locale;

import vramlab.judge.Run;
import vramlab.judge.Scoreboard;
import vramlab.kit.Exercise;
import vramlab.units.SeededRandom;

/**
 * Exercise: an entry's figures on two workloads beside PyTorch's; what are its points on each
 * and its performance index? The answer asks {@link Scoreboard#points}.
 */
public final class ScoreTheEntry implements Exercise {
    /** Per workload: {peak requested MiB, peak reserved MiB, entry's driver cost us, PyTorch's cost us}. */
    static long[][] figures(long seed) {
        SeededRandom r = new SeededRandom(seed);
        long[][] f = new long[2][];
        for (int i = 0; i < 2; i++) {
            long req = r.nextLong(1000, 20000);
            f[i] = new long[] {req, req + r.nextLong(0, req / 2), r.nextLong(1000, 200000), r.nextLong(1000, 200000)};
        }
        return f;
    }

    static Run run(long requestedMiB, long reservedMiB, long micros) {
        return new Run("entry", "w", 1, 1, true, -1, "", null, reservedMiB << 20, requestedMiB << 20, 1, micros, 0,
                new long[0], new long[0]);
    }

    @Override public String title() { return "Score the entry"; }

    @Override
    public String prompt(long seed) {
        StringBuilder p = new StringBuilder("An entry fits both workloads and breaks no check. Its figures, and PyTorch's driver cost:\n");
        long[][] f = figures(seed);
        for (int i = 0; i < f.length; i++) {
            p.append(String.format(Locale.ROOT, "  workload %d: peak requested %d MiB, peak reserved %d MiB, driver cost %d us"
                    + " (PyTorch's %d us)%n", i + 1, f[i][0], f[i][1], f[i][2], f[i][3]));
        }
        return p.append("What are its points P_w on each, and its performance index?\n").toString();
    }

    @Override
    public String answer(long seed) {
        long[][] f = figures(seed);
        double sum = 0;
        StringBuilder a = new StringBuilder();
        for (int i = 0; i < f.length; i++) {
            double points = Scoreboard.points(run(f[i][0], f[i][1], f[i][2]), run(1, 1, f[i][3]));
            sum += points;
            a.append(String.format(Locale.ROOT, "workload %d: P = %.4f%n", i + 1, points));
        }
        return a.append(String.format(Locale.ROOT, "index = %.2f%n", 100 * sum / f.length)).toString();
    }
}
