package vramlab.driver;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * FreeGaps reuses the nodes that removes take out of its tree (issue 38). Against a plain
 * model of the gaps (a sorted map, start to end), after every occupy and free of a seeded
 * random history: the same gaps, the same first fits, and the tree's own checks hold, so a
 * reused node never carries an old gap's bounds or children into its new place.
 */
@DisplayName("FreeGaps: reused nodes against a sorted-map model of the gaps")
class FreeGapsReuseTest {
    static final long U = 1 << 21;

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 38, 1234, 99999})
    void randomHistory(long seed) {
        Random r = new Random(seed);
        int units = 64 + r.nextInt(64);
        FreeGaps gaps = new FreeGaps(U);
        TreeMap<Long, Long> model = new TreeMap<>();
        gaps.free(0, units * U);
        model.put(0L, units * U);
        List<long[]> taken = new ArrayList<>();
        for (int step = 0; step < 3000; step++) {
            if (taken.isEmpty() || r.nextInt(100) < 55) {
                long size = (1 + r.nextInt(6)) * U;
                long from = r.nextInt(units) * U;
                long at = gaps.firstFit(from, size, U);
                assertThat(at).isEqualTo(firstFit(model, from, size));
                if (at < 0) continue;
                gaps.occupy(at, at + size);
                occupy(model, at, at + size);
                taken.add(new long[] {at, at + size});
            } else {
                long[] t = taken.remove(r.nextInt(taken.size()));
                gaps.free(t[0], t[1]);
                free(model, t[0], t[1]);
            }
            gaps.checkInvariants();
            List<FreeGaps.Gap> expected = new ArrayList<>();
            for (Map.Entry<Long, Long> e : model.entrySet()) expected.add(new FreeGaps.Gap(e.getKey(), e.getValue()));
            assertThat(gaps.gaps()).isEqualTo(expected);
            assertThat(gaps.size()).isEqualTo(model.size());
            long from = r.nextInt(units) * U;
            long size = (1 + r.nextInt(8)) * U;
            assertThat(gaps.firstFit(from, size, U)).isEqualTo(firstFit(model, from, size));
        }
    }

    /** The model's first fit at or above {@code from} (all gaps are whole units here). */
    private static long firstFit(TreeMap<Long, Long> model, long from, long size) {
        for (Map.Entry<Long, Long> e : model.entrySet()) {
            long a = Math.max(e.getKey(), from);
            if (a + size <= e.getValue()) return a;
        }
        return -1;
    }

    private static void occupy(TreeMap<Long, Long> model, long start, long end) {
        Map.Entry<Long, Long> g = model.floorEntry(start);
        model.remove(g.getKey());
        if (g.getKey() < start) model.put(g.getKey(), start);
        if (end < g.getValue()) model.put(end, g.getValue());
    }

    private static void free(TreeMap<Long, Long> model, long start, long end) {
        Map.Entry<Long, Long> before = model.floorEntry(start);
        if (before != null && before.getValue() == start) {
            start = before.getKey();
            model.remove(before.getKey());
        }
        Long afterEnd = model.remove(end);
        model.put(start, afterEnd != null ? afterEnd : end);
    }
}
