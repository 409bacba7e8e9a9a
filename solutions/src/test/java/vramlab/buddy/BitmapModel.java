package vramlab.buddy;

import java.util.HashMap;
import java.util.Map;

/**
 * The naive reference: a pool of units as a bitmap, with no free lists at all. Its free
 * blocks are derived from the bitmap every time: the maximal aligned power-of-two runs of
 * free units (an aligned run whose parent is not entirely free). Allocation takes the
 * smallest such block that fits, lowest address first, and uses its lowest units.
 */
final class BitmapModel {
    final int maxOrder;                 // in units: a top block is 2^maxOrder units
    final boolean[] used;
    final Map<Integer, Integer> live = new HashMap<>();   // start unit -> order

    BitmapModel(int units, int maxOrder) {
        this.used = new boolean[units];
        this.maxOrder = maxOrder;
    }

    static int orderFor(long units) {
        int o = 0;
        while ((1L << o) < units) o++;
        return o;
    }

    /** The unit the block starts at, or -1 when nothing fits. */
    int alloc(long units) {
        int order = orderFor(units);
        int bestOrder = Integer.MAX_VALUE, bestStart = -1;
        for (int o = order; o <= maxOrder; o++) {
            for (int a = 0; a < used.length; a += 1 << o) {
                if (isFreeBlock(a, o) && o < bestOrder) { bestOrder = o; bestStart = a; }
            }
            if (bestStart >= 0) break;
        }
        if (bestStart < 0) return -1;
        for (int u = bestStart; u < bestStart + (1 << order); u++) used[u] = true;
        live.put(bestStart, order);
        return bestStart;
    }

    void free(int start) {
        int order = live.remove(start);
        for (int u = start; u < start + (1 << order); u++) used[u] = false;
    }

    boolean allFree(int a, int o) {
        for (int u = a; u < a + (1 << o); u++) if (used[u]) return false;
        return true;
    }

    /** A free block of the buddy system: all free, and its parent is not (or it is a top block). */
    boolean isFreeBlock(int a, int o) {
        if (!allFree(a, o)) return false;
        if (o == maxOrder) return true;
        int parent = a & ~(1 << o);
        return !allFree(parent, o + 1);
    }

    long[] freeCounts() {
        long[] counts = new long[maxOrder + 1];
        for (int o = 0; o <= maxOrder; o++) {
            for (int a = 0; a < used.length; a += 1 << o) if (isFreeBlock(a, o)) counts[o]++;
        }
        return counts;
    }
}
