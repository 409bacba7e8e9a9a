package vramlab.alloc;

import static org.assertj.core.api.Assertions.assertThat;
import static vramlab.units.Bytes.mib;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.LongStream;
import java.util.stream.Stream;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The toy policy on the real stack (sets, links, driver) agrees, event by event, with the plain
 * reference model: same block for every alloc, same OOMs, same counters, same layout.
 */
class ToyPolicyAgainstReferenceTest {

    /** Sizes that straddle every edge of the toy: 512 B, 1 MiB, 2 MiB steps, 20 MiB segments. */
    static long randomSize(SplittableRandom r) {
        return switch (r.nextInt(6)) {
            case 0 -> 1 + r.nextLong(4096);                        // tiny: the 512 B ladder
            case 1 -> 1 + r.nextLong(mib(1));                      // small pool
            case 2 -> mib(1) + r.nextLong(-2, 3);                  // the pool edge
            case 3 -> 1 + r.nextLong(mib(8));                      // inside a 20 MiB segment
            case 4 -> mib(r.nextInt(1, 12)) + r.nextLong(-1, 2);   // 2 MiB-step edges
            default -> 1 + r.nextLong(mib(30));                    // bigger than a segment
        };
    }

    // Under PIT (-Pmutation sets vramlab.pit): a tenth of the cases, so a survivor costs seconds.
    static final long SEEDS = Boolean.getBoolean("vramlab.pit") ? 200 : 2000;

    static Stream<Arguments> seeds() {
        return LongStream.range(0, SEEDS).mapToObj(s -> Arguments.of(s, 40 + (s % 7) * 10));
    }

    @ParameterizedTest(name = "seed {0}, device {1} MiB")
    @MethodSource("seeds")
    @DisplayName("random traces with small and large sizes, OOMs and empty_cache agree event by event")
    void agreesWithReference(long seed, long deviceMiB) {
        SplittableRandom r = new SplittableRandom(seed);
        Sim sim = new Sim(mib(deviceMiB));
        ToyReferenceModel ref = new ToyReferenceModel(mib(deviceMiB));
        List<Block> live = new ArrayList<>();
        List<ToyReferenceModel.Blk> refLive = new ArrayList<>();
        for (int step = 0; step < 120; step++) {
            int op = r.nextInt(10);
            String where = "seed " + seed + " step " + step;
            if (op < 6 || live.isEmpty()) {
                long n = randomSize(r);
                ToyReferenceModel.Blk expected = ref.alloc(n);
                try {
                    Block got = sim.alloc(n);
                    assertThat(expected).as(where + ": reference OOMs but allocator gave " + got).isNotNull();
                    assertThat(describe(got)).as(where + ": alloc(" + n + ")").isEqualTo(expected.describe());
                    live.add(got);
                    refLive.add(expected);
                } catch (CudaOutOfMemoryError e) {
                    assertThat(expected).as(where + ": allocator OOMs but reference gave a block").isNull();
                    assertThat(e.report().reservedButUnallocated()).isEqualTo(ref.reserved - ref.allocated);
                }
            } else if (op < 9) {
                int i = r.nextInt(live.size());
                sim.free(live.remove(i));
                ref.free(refLive.remove(i));
            } else {
                assertThat(sim.emptyCache()).as(where + ": empty_cache").isEqualTo(ref.emptyCache());
            }
            assertThat(sim.requested()).as(where).isEqualTo(ref.requested);
            assertThat(sim.allocated()).as(where).isEqualTo(ref.allocated);
            assertThat(sim.reserved()).as(where).isEqualTo(ref.reserved);
            assertThat(layout(sim)).as(where).isEqualTo(ref.layout());
        }
    }

    /** Sizes for the exhaustive small world: one of each kind of edge. */
    static final long[] WORLD_SIZES = {1, 512, mib(1), mib(1) + 1, mib(3) + 1, mib(6), mib(20) + 1};

    @Test
    @DisplayName("every sequence of up to five operations on a 24 MiB device agrees with the reference")
    void exhaustiveSmallWorld() {
        int[] count = {0};
        explore(new ArrayList<>(), 5, count);
        assertThat(count[0]).isGreaterThan(50_000);
    }

    /** ops: a value v >= 0 allocates WORLD_SIZES[v]; -1-k frees live block k; -100 is empty_cache. */
    private void explore(List<Integer> ops, int depth, int[] count) {
        count[0]++;
        replay(ops);
        if (depth == 0) return;
        int live = liveAfter(ops);
        for (int v = 0; v < WORLD_SIZES.length; v++) extend(ops, v, depth, count);
        for (int k = 0; k < live; k++) extend(ops, -1 - k, depth, count);
        extend(ops, -100, depth, count);
    }

    private void extend(List<Integer> ops, int op, int depth, int[] count) {
        ops.add(op);
        explore(ops, depth - 1, count);
        ops.remove(ops.size() - 1);
    }

    private static int liveAfter(List<Integer> ops) {
        ToyReferenceModel ref = new ToyReferenceModel(mib(24));
        List<ToyReferenceModel.Blk> live = new ArrayList<>();
        for (int op : ops) {
            if (op >= 0) {
                ToyReferenceModel.Blk b = ref.alloc(WORLD_SIZES[op]);
                if (b != null) live.add(b);
            } else if (op == -100) {
                ref.emptyCache();
            } else {
                ref.free(live.remove(-1 - op));
            }
        }
        return live.size();
    }

    private static void replay(List<Integer> ops) {
        Sim sim = new Sim(mib(24));
        ToyReferenceModel ref = new ToyReferenceModel(mib(24));
        List<Block> live = new ArrayList<>();
        List<ToyReferenceModel.Blk> refLive = new ArrayList<>();
        for (int op : ops) {
            if (op >= 0) {
                ToyReferenceModel.Blk expected = ref.alloc(WORLD_SIZES[op]);
                Block got = null;
                try {
                    got = sim.alloc(WORLD_SIZES[op]);
                } catch (CudaOutOfMemoryError e) {
                    assertThat(expected).as("ops " + ops + ": allocator OOMs, reference does not").isNull();
                }
                if (got != null) {
                    assertThat(expected).as("ops " + ops + ": reference OOMs").isNotNull();
                    assertThat(describe(got)).as("ops " + ops).isEqualTo(expected.describe());
                    live.add(got);
                    refLive.add(expected);
                }
            } else if (op == -100) {
                assertThat(sim.emptyCache()).as("ops " + ops).isEqualTo(ref.emptyCache());
            } else {
                sim.free(live.remove(-1 - op));
                ref.free(refLive.remove(-1 - op));
            }
        }
        assertThat(layout(sim)).as("ops " + ops).isEqualTo(ref.layout());
    }

    @Test
    @DisplayName("the random traces do reach OOM, empty_cache releases and both pools")
    void tracesCoverTheInterestingCases() {
        int ooms = 0, releases = 0, small = 0, large = 0;
        for (long seed = 0; seed < 200; seed++) {
            SplittableRandom r = new SplittableRandom(seed);
            ToyReferenceModel ref = new ToyReferenceModel(mib(40 + (seed % 7) * 10));
            List<ToyReferenceModel.Blk> live = new ArrayList<>();
            for (int step = 0; step < 120; step++) {
                int op = r.nextInt(10);
                if (op < 6 || live.isEmpty()) {
                    long n = randomSize(r);
                    ToyReferenceModel.Blk b = ref.alloc(n);
                    if (b == null) ooms++;
                    else {
                        live.add(b);
                        if (b.size <= mib(1)) small++;
                        else large++;
                    }
                } else if (op < 9) {
                    ref.free(live.remove(r.nextInt(live.size())));
                } else if (ref.emptyCache() > 0) {
                    releases++;
                }
            }
        }
        assertThat(ooms).isGreaterThan(100);
        assertThat(releases).isGreaterThan(50);
        assertThat(small).isGreaterThan(1000);
        assertThat(large).isGreaterThan(1000);
    }

    static String describe(Block b) {
        return "seg" + b.segment().id() + "@" + b.offset() + "+" + b.size() + (b.isAllocated() ? " LIVE" : " FREE");
    }

    static String layout(Sim sim) {
        StringBuilder sb = new StringBuilder();
        for (Segment s : sim.allocator().segments()) {
            sb.append(s.id()).append(':');
            for (Block b : s.blocks()) sb.append(' ').append(describe(b));
            sb.append('\n');
        }
        return sb.toString();
    }
}
