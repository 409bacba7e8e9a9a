package vramlab.alloc;

import static org.assertj.core.api.Assertions.assertThat;
import static vramlab.units.Bytes.mib;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import vramlab.driver.Gpu;

/**
 * The PyTorch policy against a naive model of the same rules (one stream; defaults, or
 * {@code max_split_size_mb} with its oversize rules and its release of oversize segments):
 * segments as plain lists of blocks, best fit by scanning every free block, the cold-start
 * sizes, split and merge, and the flush-and-retry on a failed cudaMalloc. After every step
 * both must agree on every live block's segment, offset and size, on the counters and on
 * which requests ran out of memory.
 *
 * <p>The model orders equal-size blocks by segment creation, then offset: the simulated
 * driver hands out increasing addresses, so that is address order.
 */
@DisplayName("the PyTorch policy agrees with a naive model")
class PyTorchModelTest {

    /** The model: only lists and loops, written from CUDACachingAllocator.cpp's rules (see PyTorchPolicy). */
    static final class Model {
        static final class Seg {
            final int id;
            final boolean small;
            final List<long[]> blocks = new ArrayList<>();   // {offset, size, live(0/1)} in address order

            Seg(int id, boolean small) { this.id = id; this.small = small; }

            long size() { return blocks.stream().mapToLong(b -> b[1]).sum(); }
        }

        final long capacity;
        final long maxSplit;
        final List<Seg> segs = new ArrayList<>();
        int nextId;
        long allocated;

        Model(long capacity, long maxSplit) {
            this.capacity = capacity;
            this.maxSplit = maxSplit;
        }

        long reserved() { return segs.stream().mapToLong(Seg::size).sum(); }

        static long round(long n) { return n < 512 ? 512 : (n + 511) / 512 * 512; }

        /** The smallest free block of the pool with size >= min, lowest address first: {seg index, block index}. */
        int[] smallest(boolean small, long min) {
            int[] best = null;
            for (int si = 0; si < segs.size(); si++) {
                Seg s = segs.get(si);
                if (s.small != small) continue;
                for (int bi = 0; bi < s.blocks.size(); bi++) {
                    long[] b = s.blocks.get(bi);
                    if (b[2] == 1 || b[1] < min) continue;
                    if (best == null || b[1] < segs.get(best[0]).blocks.get(best[1])[1]) best = new int[] {si, bi};
                }
            }
            return best;
        }

        /** Returns {segment id, offset, size}, or null on OOM. */
        long[] alloc(long request) {
            long r = round(request);
            boolean small = r <= mib(1);
            int[] at = smallest(small, r);
            if (at != null) {                            // the oversize rules (CCA:2544-2551)
                long size = segs.get(at[0]).blocks.get(at[1])[1];
                if (r < maxSplit && size >= maxSplit) at = null;
                else if (r >= maxSplit && size >= r + mib(20)) at = null;
            }
            Seg seg;
            long[] best;
            if (at == null) {
                long segSize = small ? mib(2) : r < mib(10) ? mib(20) : (r + mib(2) - 1) / mib(2) * mib(2);
                boolean fits = reserved() + segSize <= capacity;
                if (!fits && releaseOversize(small, r)) fits = reserved() + segSize <= capacity;
                if (!fits) {
                    emptyCache();
                    if (reserved() + segSize > capacity) return null;
                }
                seg = new Seg(nextId++, small);
                best = new long[] {0, segSize, 0};
                seg.blocks.add(best);
                segs.add(seg);
            } else {
                seg = segs.get(at[0]);
                best = seg.blocks.get(at[1]);
            }
            long remaining = best[1] - r;
            if (small ? remaining >= 512 : r < maxSplit && remaining > mib(1)) {
                int i = seg.blocks.indexOf(best);
                seg.blocks.add(i + 1, new long[] {best[0] + r, remaining, 0});
                best[1] = r;
            }
            best[2] = 1;
            allocated += best[1];
            return new long[] {seg.id, best[0], best[1]};
        }

        /** release_available_cached_blocks (CCA:2728-2770), whole segments only. */
        boolean releaseOversize(boolean small, long r) {
            if (maxSplit == Long.MAX_VALUE) return false;
            long key = Math.max(r, maxSplit);
            int[] at = smallest(small, key);
            if (at != null) {
                if (segs.get(at[0]).blocks.size() != 1) return false;
                segs.remove(at[0]);
                return true;
            }
            long released = 0;
            while (released < key) {
                Seg largest = null;                      // the largest free block, highest address on ties
                for (Seg s : segs) {
                    for (long[] b : s.blocks) {
                        if (s.small == small && b[2] == 0 && (largest == null || b[1] >= largestSize(largest))) {
                            largest = s;
                        }
                    }
                }
                if (largest == null) break;
                long[] b = freeBlockOf(largest);
                if (b[1] < maxSplit || largest.blocks.size() != 1) break;
                released += b[1];
                segs.remove(largest);
            }
            return released >= key;
        }

        private static long largestSize(Seg s) { return freeBlockOf(s)[1]; }

        /** The largest free block of a segment. */
        private static long[] freeBlockOf(Seg s) {
            long[] out = null;
            for (long[] b : s.blocks) if (b[2] == 0 && (out == null || b[1] >= out[1])) out = b;
            return out;
        }

        void free(long segId, long offset) {
            Seg s = segs.stream().filter(x -> x.id == segId).findFirst().orElseThrow();
            int i = 0;
            while (s.blocks.get(i)[0] != offset) i++;
            long[] b = s.blocks.get(i);
            b[2] = 0;
            allocated -= b[1];
            if (i + 1 < s.blocks.size() && s.blocks.get(i + 1)[2] == 0) b[1] += s.blocks.remove(i + 1)[1];
            if (i > 0 && s.blocks.get(i - 1)[2] == 0) s.blocks.get(i - 1)[1] += s.blocks.remove(i)[1];
        }

        void emptyCache() { segs.removeIf(s -> s.blocks.size() == 1 && s.blocks.get(0)[2] == 0); }
    }

    @ParameterizedTest(name = "max_split_size_mb {0}, seed {1}")
    @CsvSource({"0, 11", "0, 12", "0, 13", "0, 14", "0, 15", "0, 16", "24, 21", "24, 22", "32, 23", "32, 24"})
    @DisplayName("random traces on a 128 MiB card: the same blocks, counters and OOMs at every step")
    void agrees(int maxSplitMb, long seed) {
        long device = mib(128);
        String conf = maxSplitMb == 0 ? "" : "max_split_size_mb:" + maxSplitMb;
        CachingAllocator a = new CachingAllocator(new Gpu(device).openToyProcess(), new PyTorchPolicy(conf));
        Model m = new Model(device, maxSplitMb == 0 ? Long.MAX_VALUE : mib(maxSplitMb));
        Random r = new Random(seed);
        List<Block> live = new ArrayList<>();
        List<long[]> modelLive = new ArrayList<>();
        int ooms = 0;
        for (int step = 0; step < 1500; step++) {
            int op = r.nextInt(100);
            if (op < 55 || live.isEmpty()) {
                long size = RandomTracesTest.randomSize(r);
                long[] expected = m.alloc(size);
                Block got = null;
                try {
                    got = a.alloc(size);
                } catch (CudaOutOfMemoryError e) {
                    ooms++;
                }
                assertThat(got == null).as("step %d: OOM for %d B", step, size).isEqualTo(expected == null);
                if (got != null) {
                    assertThat(new long[] {got.segment().id(), got.offset(), got.size()})
                            .as("step %d: alloc %d B\n%s", step, size, a).containsExactly(expected);
                    live.add(got);
                    modelLive.add(expected);
                }
            } else if (op < 97) {
                int i = r.nextInt(live.size());
                a.free(live.remove(i));
                long[] mb = modelLive.remove(i);
                m.free(mb[0], mb[1]);
            } else {
                a.emptyCache();
                m.emptyCache();
            }
            a.checkInvariants();
            assertThat(new long[] {a.allocated(), a.reserved()}).as("step %d", step)
                    .containsExactly(m.allocated, m.reserved());
        }
        assertThat(ooms).as("the trace reached the card's limit").isPositive();
    }
}
