package vramlab.pinned;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.Supplier;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import vramlab.driver.Clock;
import vramlab.driver.HostCostModel;
import vramlab.driver.HostMemory;

/**
 * The per-bucket free lists ({@link FreeLists}, CHA.h {@code free_list_}) against the kit's
 * earlier structure, kept here as the reference: one LIFO list per exact size and a filing
 * counter, taking the most recently filed block whose size lies between the request and the top
 * of its power-of-two bucket. The two must hand out the same block every time, on every
 * sequence of operations over six sizes up to a length and on seeded random ones. The plain
 * build runs short versions; {@code -Pgrading-fixtures} runs longer ones.
 */
@DisplayName("Per-bucket free lists against the filing-counter reference")
class FreeListsModelTest {
    /** Sizes in buckets 1 ({2}), 2 ({3, 4}) and 3 ({5, 6, 8}): two buckets hold several sizes. */
    static final long[] SIZES = {2, 3, 4, 5, 6, 8};

    /** The reference: exact-size LIFO lists, and the last filed list head in the bucket wins. */
    static final class Reference {
        private final TreeMap<Long, Deque<HostBlock>> lists = new TreeMap<>();
        private final Map<HostBlock, Long> filedAt = new IdentityHashMap<>();
        private long filings;

        void add(HostBlock b) {
            filedAt.put(b, ++filings);
            lists.computeIfAbsent(b.size(), k -> new ArrayDeque<>()).addLast(b);
        }

        HostBlock take(long size) {
            long top = Long.highestOneBit(size) == size ? size : Long.highestOneBit(size) * 2;
            Deque<HostBlock> last = null;
            for (Deque<HostBlock> list : lists.subMap(size, true, top, true).values()) {
                if (!list.isEmpty() && (last == null || filedAt.get(list.peekLast()) > filedAt.get(last.peekLast()))) {
                    last = list;
                }
            }
            if (last == null) return null;
            HostBlock b = last.pollLast();
            filedAt.remove(b);
            if (last.isEmpty()) lists.remove(b.size());
            return b;
        }

        /** The free blocks by bucket, each in filing order. */
        Map<Integer, List<HostBlock>> byBucket() {
            List<HostBlock> all = new ArrayList<>(filedAt.keySet());
            all.sort((a, b) -> Long.compare(filedAt.get(a), filedAt.get(b)));
            Map<Integer, List<HostBlock>> m = new TreeMap<>();
            for (HostBlock b : all) m.computeIfAbsent(FreeLists.sizeIndex(b.size()), k -> new ArrayList<>()).add(b);
            return m;
        }
    }

    /** One run: operations coded 0..n-1 as free-a-new-block / take / re-free-the-last-taken. */
    static final class Run {
        final FreeLists real = new FreeLists();
        final Reference ref = new Reference();
        final Deque<HostBlock> out = new ArrayDeque<>();
        long nextAddress = 0x1000;

        void newBlock(long size) {
            HostBlock b = new HostBlock(nextAddress, size, null);
            nextAddress += 0x1000;
            real.add(b);
            ref.add(b);
        }

        void take(long size, Supplier<String> trace) {
            HostBlock want = ref.take(size);
            HostBlock got = real.take(size);
            if (got != want) throw new AssertionError("take(" + size + ") after " + trace.get() + ": " + got + ", want " + want);
            if (got != null) out.push(got);
        }

        void refree() {
            if (out.isEmpty()) return;
            HostBlock b = out.pop();
            real.add(b);
            ref.add(b);
        }

        void step(int op, Supplier<String> trace) {
            int n = SIZES.length;
            if (op < n) newBlock(SIZES[op]);
            else if (op < 2 * n) take(SIZES[op - n], trace);
            else refree();
        }

        void checkLists(Supplier<String> trace) {
            if (!new LinkedHashMap<>(real.byBucket()).equals(ref.byBucket())) {
                throw new AssertionError("the lists after " + trace.get() + ": " + real.byBucket() + ", want " + ref.byBucket());
            }
        }
    }

    @Test
    @DisplayName("every sequence of three operations over six sizes: the same block, the same lists")
    void exhaustive() { exhaustive(3); }

    @Test
    @Tag("grading-fixtures")
    @DisplayName("every sequence of five operations over six sizes: the same block, the same lists")
    void exhaustiveLonger() { exhaustive(5); }

    @Test
    @DisplayName("seeded random runs over sizes of three buckets: the same block, the same lists, the same drain")
    void seededRandom() { seededRandom(20); }

    @Test
    @Tag("grading-fixtures")
    @DisplayName("seeded random runs, 1000 seeds")
    void seededRandomLonger() { seededRandom(1000); }

    @Test
    @DisplayName("allocate and free with unrounded blocks: the newest fitting block of the bucket, else a new one")
    void allocatorAgainstAListScan() { allocatorAgainstAListScan(4); }

    @Test
    @Tag("grading-fixtures")
    @DisplayName("allocate and free against the list scan, 200 seeds")
    void allocatorAgainstAListScanLonger() { allocatorAgainstAListScan(200); }

    /** Every sequence of {@code length} operations (each sequence's prefixes are sequences too). */
    static void exhaustive(int length) {
        int ops = 2 * SIZES.length + 1;
        int sequences = (int) Math.pow(ops, length);
        for (int code = 0; code < sequences; code++) {
            Run run = new Run();
            int sequence = code;
            Supplier<String> trace = () -> "operations " + Integer.toString(sequence, ops) + " (base " + ops + ", last first)";
            for (int i = 0, c = code; i < length; i++, c /= ops) {
                run.step(c % ops, trace);
                run.checkLists(trace);
            }
        }
    }

    static void seededRandom(int seeds) {
        for (int seed = 0; seed < seeds; seed++) {
            Random rnd = new Random(seed);
            Run run = new Run();
            for (int i = 0; i < 200; i++) {
                int op = rnd.nextInt(2 * SIZES.length + 1);
                int s = seed, step = i;
                Supplier<String> trace = () -> "seed " + s + ", step " + step + " (op " + op + ")";
                run.step(op, trace);
                if (i % 10 == 9) run.checkLists(trace);
            }
            List<HostBlock> expected = new ArrayList<>();
            run.ref.byBucket().values().forEach(expected::addAll);
            List<HostBlock> drained = run.real.drain();
            if (!drained.equals(expected) || !run.real.byBucket().isEmpty()) {
                throw new AssertionError("drain, seed " + seed + ": " + drained + ", want " + expected);
            }
        }
    }

    /**
     * The whole allocator with every request unrounded (a round threshold of 0 bytes: blocks of
     * any size cached side by side), against the same rule written over one list of free blocks
     * in the order they were freed: the newest block of the request's bucket that fits, else a
     * new block. Uses only the public API, so it holds of any structure behind it. Odd seeds
     * use the default options, where every block is a power of two.
     */
    static void allocatorAgainstAListScan(int seeds) {
        for (int seed = 0; seed < seeds; seed++) {
            Random rnd = new Random(seed);
            PinnedConfig config = seed % 2 == 0 ? new PinnedConfig(Long.MAX_VALUE, 0, 0, false) : PinnedConfig.DEFAULT;
            CachingHostAllocator a = new CachingHostAllocator(new HostMemory(new Clock(), HostCostModel.DEFAULT), config);
            List<HostBlock> freed = new ArrayList<>();          // oldest first
            List<HostBlock> held = new ArrayList<>();
            for (int i = 0; i < 120; i++) {
                String at = "seed " + seed + ", step " + i;
                if (held.isEmpty() || rnd.nextInt(3) > 0) {
                    long size = 1 + rnd.nextInt(40_000);
                    long block = a.roundSize(size);
                    HostBlock want = null;
                    for (int j = freed.size() - 1; j >= 0 && want == null; j--) {
                        HostBlock f = freed.get(j);
                        if (FreeLists.sizeIndex(f.size()) == FreeLists.sizeIndex(block) && f.size() >= block) want = f;
                    }
                    HostBlock got = a.allocate(size);
                    if (want != null) {
                        if (got != want) throw new AssertionError(at + ": allocate(" + size + ") " + got + ", want " + want);
                        freed.remove(want);
                    } else if (freed.contains(got) || got.size() != block) {
                        throw new AssertionError(at + ": allocate(" + size + ") " + got + ", want a new block of " + block);
                    }
                    held.add(got);
                } else if (rnd.nextInt(20) == 0) {
                    long bytes = freed.stream().mapToLong(HostBlock::size).sum();
                    long got = a.emptyCache();
                    if (got != bytes) throw new AssertionError(at + ": emptyCache() " + got + ", want " + bytes);
                    freed.clear();
                } else {
                    HostBlock b = held.remove(rnd.nextInt(held.size()));
                    a.free(b);
                    freed.add(b);
                }
                if (i % 10 == 9) a.checkInvariants();
            }
        }
    }
}
