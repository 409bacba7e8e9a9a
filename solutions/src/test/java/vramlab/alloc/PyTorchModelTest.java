package vramlab.alloc;

import static org.assertj.core.api.Assertions.assertThat;
import static vramlab.units.Bytes.mib;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import vramlab.driver.Gpu;

/**
 * The PyTorch policy against a naive model of the same rules (default settings, one stream):
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

    /** The model: only lists and loops, written from the fact sheet's rules. */
    static final class Model {
        static final class Seg {
            final int id;
            final boolean small;
            final List<long[]> blocks = new ArrayList<>();   // {offset, size, live(0/1)} in address order

            Seg(int id, boolean small) { this.id = id; this.small = small; }

            long size() { return blocks.stream().mapToLong(b -> b[1]).sum(); }
        }

        final long capacity;
        final List<Seg> segs = new ArrayList<>();
        int nextId;
        long allocated;

        Model(long capacity) { this.capacity = capacity; }

        long reserved() { return segs.stream().mapToLong(Seg::size).sum(); }

        static long round(long n) { return n < 512 ? 512 : (n + 511) / 512 * 512; }

        /** Returns {segment id, offset, size}, or null on OOM. */
        long[] alloc(long request) {
            long r = round(request);
            boolean small = r <= mib(1);
            long[] best = null;
            Seg bestSeg = null;
            for (Seg s : segs) {
                if (s.small != small) continue;
                for (long[] b : s.blocks) {
                    if (b[2] == 1 || b[1] < r) continue;
                    if (best == null || b[1] < best[1]) { best = b; bestSeg = s; }   // first wins ties
                }
            }
            if (best == null) {
                long segSize = small ? mib(2) : r < mib(10) ? mib(20) : (r + mib(2) - 1) / mib(2) * mib(2);
                if (reserved() + segSize > capacity) {
                    segs.removeIf(s -> s.blocks.size() == 1 && s.blocks.get(0)[2] == 0);
                    if (reserved() + segSize > capacity) return null;
                }
                bestSeg = new Seg(nextId++, small);
                best = new long[] {0, segSize, 0};
                bestSeg.blocks.add(best);
                segs.add(bestSeg);
            }
            long remaining = best[1] - r;
            if (small ? remaining >= 512 : remaining > mib(1)) {
                int i = bestSeg.blocks.indexOf(best);
                bestSeg.blocks.add(i + 1, new long[] {best[0] + r, remaining, 0});
                best[1] = r;
            }
            best[2] = 1;
            allocated += best[1];
            return new long[] {bestSeg.id, best[0], best[1]};
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

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {11, 12, 13, 14, 15, 16})
    @DisplayName("random traces on a 128 MiB card: the same blocks, counters and OOMs at every step")
    void agrees(long seed) {
        long device = mib(128);
        CachingAllocator a = new CachingAllocator(new Gpu(device).openToyProcess(), new PyTorchPolicy());
        Model m = new Model(device);
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
