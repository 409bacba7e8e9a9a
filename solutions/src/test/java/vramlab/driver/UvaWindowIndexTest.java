package vramlab.driver;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import vramlab.alloc.Block;
import vramlab.alloc.CachingAllocator;
import vramlab.alloc.ToyPolicy;
import vramlab.units.Bytes;

/**
 * The VA window's free-gap index ({@link FreeGaps}) against the walk the window used before it
 * ({@link WalkWindow}, kept here as the reference model of the placement rule): the same
 * address for every take, exhaustively on small windows and on seeded random histories; then
 * the index's cost, counted in nodes, against log n on long histories where the walk's grows
 * with every range ever taken.
 */
@DisplayName("The VA window's gap index")
class UvaWindowIndexTest {
    static final long K4 = GpuProcess.HOST_PAGE;
    static final long M2 = Gpu.PAGE;

    /**
     * The window as it was before the index: first fit walks the taken ranges from {@code from}
     * up. The placement rule, stated as code; {@code steps} counts the ranges it visits.
     */
    static final class WalkWindow {
        final long floor, base, end;
        long next, nextBefore, steps;
        final TreeMap<Long, Long> taken = new TreeMap<>();

        WalkWindow(long floor, long base, long end) {
            this.floor = floor;
            this.base = base;
            this.end = end;
            this.next = base;
        }

        long take(long size, long alignment, long hint) {
            long at = hint != 0 && hint % alignment == 0 && fits(hint, size) ? hint : -1;
            if (at < 0) {
                long bump = Bytes.alignUp(next, alignment);
                at = fits(bump, size) ? bump : firstFit(base, size, alignment);
                if (at < 0) at = firstFit(floor, size, alignment);
            }
            if (at < 0) return -1;
            taken.put(at, at + size);
            nextBefore = next;
            next = Math.max(next, at + size);
            return at;
        }

        void cancel(long start) {
            taken.remove(start);
            next = nextBefore;
        }

        boolean fits(long start, long size) {
            if (size <= 0 || start < floor || start > end - size) return false;
            Map.Entry<Long, Long> before = taken.lowerEntry(start + size);
            return before == null || before.getValue() <= start;
        }

        long firstFit(long from, long size, long alignment) {
            long at = Bytes.alignUp(from, alignment);
            Long first = taken.floorKey(from);
            for (Map.Entry<Long, Long> r : taken.tailMap(first == null ? from : first, true).entrySet()) {
                steps++;
                if (at <= r.getKey() - size) return at;
                at = Math.max(at, Bytes.alignUp(r.getValue(), alignment));
            }
            return fits(at, size) ? at : -1;
        }
    }

    /** One window and its reference, driven alike; every take must land at the same address. */
    static final class Pair {
        final UvaWindow index;
        final WalkWindow walk;
        final List<Long> live = new ArrayList<>();

        Pair(long floor, long base, long end) {
            index = new UvaWindow(floor, base, end);
            walk = new WalkWindow(floor, base, end);
        }

        long take(long size, long alignment, long hint, String where) {
            long expected = walk.take(size, alignment, hint);
            long actual = index.take(size, alignment, hint);
            assertThat(actual).as("%s: take(%d, %d, 0x%x)", where, size, alignment, hint).isEqualTo(expected);
            if (actual >= 0) live.add(actual);
            return actual;
        }

        void release(int k) {
            long start = live.get(k);
            live.set(k, live.get(live.size() - 1));
            live.remove(live.size() - 1);
            index.release(start);
            walk.taken.remove(start);
        }

        void cancelLast(long start) {
            live.remove(start);
            index.cancel(start);
            walk.cancel(start);
        }
    }

    /** The takes the exhaustive search tries: sizes, alignments and hints on a window of a few pages. */
    static final long[][] SMALL_TAKES = {
        {M2, M2, 0}, {2 * M2, M2, 0}, {3 * M2, M2, 0}, {K4, K4, 0}, {M2 + K4, K4, 0},
        {M2, 2 * M2, 0}, {M2, M2, -1}, {K4, K4, -2},            // -1, -2: a hint at the floor, one page above it
    };

    @ParameterizedTest(name = "window [{0} pages from the floor, base at page 2]")
    @ValueSource(ints = {5, 6})
    @DisplayName("lands every sequence of five takes and releases where the walk does, on small windows")
    void exhaustive(int pages) {
        long floor = 8 * M2 + K4;                               // neither floor nor end on a 2 MiB boundary
        long base = floor + 2 * M2 - K4;
        long end = floor + pages * M2 - 3 * K4;
        int[] runs = new int[1];
        explore(new ArrayList<>(), 5, floor, base, end, runs);
        assertThat(runs[0]).as("sequences tried").isGreaterThan(10_000);
    }

    /** Every sequence of {@code depth} more steps after {@code prefix}: a take of each kind, or a release of each live range. */
    private void explore(List<long[]> prefix, int depth, long floor, long base, long end, int[] runs) {
        Pair p = replay(prefix, floor, base, end);
        runs[0]++;
        if (depth == 0) return;
        for (long[] t : SMALL_TAKES) {
            prefix.add(new long[] {0, t[0], t[1], t[2]});
            explore(prefix, depth - 1, floor, base, end, runs);
            prefix.remove(prefix.size() - 1);
        }
        for (int k = 0; k < p.live.size(); k++) {
            prefix.add(new long[] {1, k});
            explore(prefix, depth - 1, floor, base, end, runs);
            prefix.remove(prefix.size() - 1);
        }
    }

    private static Pair replay(List<long[]> steps, long floor, long base, long end) {
        Pair p = new Pair(floor, base, end);
        for (long[] s : steps) {
            if (s[0] == 1) {
                p.release((int) s[1]);
            } else {
                long hint = s[3] == -1 ? Bytes.alignUp(floor, M2) : s[3] == -2 ? floor + K4 : s[3];
                p.take(s[1], s[2], hint, describe(steps));
            }
            p.index.checkInvariants();
        }
        return p;
    }

    private static String describe(List<long[]> steps) {
        StringBuilder b = new StringBuilder();
        for (long[] s : steps) b.append(s[0] == 1 ? " release#" + s[1] : " take(" + s[1] + "," + s[2] + "," + s[3] + ")");
        return b.toString().trim();
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
    @DisplayName("lands every take where the walk does on seeded random histories, hints and cancels included")
    void random(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        long floor = 64 * M2 + (seed % 2 == 0 ? 0 : K4);
        long base = floor + 40 * M2;
        long end = floor + 160 * M2 - (seed % 3) * K4;
        Pair p = new Pair(floor, base, end);
        for (int i = 0; i < 20_000; i++) {
            int kind = r.nextInt(100);
            if (kind < 45 && !p.live.isEmpty()) {
                p.release(r.nextInt(p.live.size()));
            } else {
                boolean pages = r.nextInt(4) != 0;               // mostly what cudaMalloc asks for
                long size = pages ? (1 + r.nextInt(8)) * M2 : (1 + r.nextInt(1200)) * K4;
                long alignment = pages ? M2 : K4 << r.nextInt(11);   // 4 KiB .. 4 MiB
                long hint = r.nextInt(8) == 0 ? floor + r.nextLong(end - floor) / K4 * K4 : 0;
                long at = p.take(size, alignment, hint, "seed " + seed + " step " + i);
                if (at >= 0 && r.nextInt(20) == 0) p.cancelLast(at);
            }
            if (i % 97 == 0) p.index.checkInvariants();
        }
        p.index.checkInvariants();
    }

    /**
     * The most nodes a take may cost, over log2 n: a search, a floor lookup and a split and join
     * each cost at most the treap's height, which stays within about 3 log2 n.
     */
    static final double LOG_FACTOR = 20;

    /**
     * The cost per take, in nodes of the index (searches, splits and joins), on a history of
     * {@code takes} segment-sized ranges whose bump pointer passes the window's end early: the
     * most any take costs stays within a constant factor of log2 of the gaps, while the walk's
     * grows with the ranges above the base.
     */
    @Test
    @DisplayName("costs O(log n) nodes per take on a long churn past the window's end, where the walk costs O(n)")
    void logarithmicPerTake() {
        long floor = 1L << 36;
        Pair p = new Pair(floor, floor + (32L << 30), floor + (64L << 30));   // 64 GiB, base halfway
        SplittableRandom r = new SplittableRandom(38);
        long worstIndex = 0, worstWalk = 0;
        double worstRatio = 0, worstWalkRatio = 0;
        for (int i = 0; i < 60_000; i++) {
            if (p.live.size() > 1000 && r.nextInt(2) == 0 || p.live.size() > 1400) {
                p.release(r.nextInt(p.live.size()));
                continue;
            }
            long visits = p.index.gaps().visits, steps = p.walk.steps;
            long size = (10 + r.nextInt(3)) * M2;                  // 20-24 MiB: the toy's segments
            if (p.take(size, M2, 0, "step " + i) < 0) continue;
            long cost = p.index.gaps().visits - visits;
            double log = Math.log(p.index.gaps().size() + p.live.size() + 2) / Math.log(2);
            worstIndex = Math.max(worstIndex, cost);
            worstWalk = Math.max(worstWalk, p.walk.steps - steps);
            worstRatio = Math.max(worstRatio, cost / log);
            worstWalkRatio = Math.max(worstWalkRatio, (p.walk.steps - steps) / log);
        }
        p.index.checkInvariants();
        assertThat(worstRatio).as("the most nodes one take visited, over log2 n (at most %d nodes)", worstIndex)
                .isLessThan(LOG_FACTOR);
        assertThat(worstWalkRatio).as("the walk's ranges in one take over log2 n (at most %d ranges): the bound "
                + "tells a walk from the index", worstWalk).isGreaterThan(2 * LOG_FACTOR);
    }

    /**
     * The same, end to end: a seeded replay through the caching allocator (toy policy, requests of
     * 1-24 MiB, 2% empty_cache) on a 1 TiB GPU. The process first reserves and frees all but the
     * top 4 GiB of its window above the base (so the bump pointer is near the end, as after a long
     * run), and its cudaMallocs then pass the end many times over. Each cudaMalloc's VA costs at
     * most a constant times log2 of the process's gaps, counted in the index's nodes.
     */
    @Test
    @DisplayName("costs O(log n) nodes per cudaMalloc through a long replay of the toy allocator with empty_cache")
    void logarithmicThroughTheAllocator() {
        Gpu gpu = new Gpu(0, Bytes.TiB, 0);
        GpuProcess process = gpu.open(1, "replay", 0);
        CachingAllocator a = new CachingAllocator(process, new ToyPolicy());
        FreeGaps gaps = process.window().gaps();
        long early = (GpuProcess.UVA_END - GpuProcess.VA_BASE) / M2 * M2 - 4 * Bytes.GiB;
        process.cuMemAddressFree(process.cuMemAddressReserve(early), early);
        SplittableRandom r = new SplittableRandom(38);
        List<Block> live = new ArrayList<>();
        double worstRatio = 0;
        long worst = 0;
        long mallocs = 0;
        for (int i = 0; i < 60_000; i++) {
            int kind = r.nextInt(1000);
            if (kind < 20) {
                a.emptyCache();
            } else if (live.size() < 2000 ? kind < 900 : kind < 510) {
                long before = gaps.visits, calls = process.cudaMallocCalls();
                live.add(a.alloc(Bytes.MiB + r.nextLong(23 * Bytes.MiB + 1)));
                if (process.cudaMallocCalls() > calls) {
                    mallocs++;
                    long cost = gaps.visits - before;
                    worst = Math.max(worst, cost);
                    worstRatio = Math.max(worstRatio, cost / (Math.log(gaps.size() + 2) / Math.log(2)));
                }
            } else if (!live.isEmpty()) {
                int k = r.nextInt(live.size());
                a.free(live.get(k));
                live.set(k, live.get(live.size() - 1));
                live.remove(live.size() - 1);
            }
        }
        process.window().checkInvariants();
        assertThat(process.cudaMallocCalls() * 20 * Bytes.MiB).as("VA handed out over the run: past the window's top")
                .isGreaterThan(10 * 4 * Bytes.GiB);
        assertThat(worstRatio).as("the most nodes one cudaMalloc's VA cost, over log2 of the gaps (%d nodes, %d mallocs)",
                worst, mallocs).isLessThan(LOG_FACTOR);
    }
}
