package vramlab.ch06;

import java.util.List;
import java.util.Locale;
import java.util.Random;

import vramlab.buddy.BuddyAllocator;
import vramlab.driver.Gpu;
import vramlab.kv.KvBlockPool;
import vramlab.kv.KvCacheManager;
import vramlab.units.Bytes;

/**
 * The two known figures, measured on the simulators beside the value the literature gives
 * (the expected values are typed from an exact enumeration, not from a run):
 * <ul>
 *   <li>a binary buddy wastes about a quarter of what it allocates when sizes are uniform on
 *       {@code 1..2^K} (overallocation 4/3, the low end of the 4/3 to 3/2 band of Russell,
 *       "Internal Fragmentation in a Class of Buddy Systems", SIAM J. Comput. 1977, for uniform
 *       sizes; enumerating 1..1024 gives 0.24927);
 *   <li>16-token paged blocks waste under 4%, the figure of vLLM's launch blog post ("vLLM:
 *       Easy, Fast, and Cheap LLM Serving with PagedAttention", 2023-06-20; the SOSP paper
 *       says "near-zero"): enumerating lengths uniform on 1..512 gives 2.84%, on 1..2048
 *       0.73%.
 * </ul>
 * Waste is aggregate: {@code 1 - sum(requested) / sum(allocated)}.
 */
public final class ReferencePoints {
    private ReferencePoints() {}

    /** A measured figure beside the expected one and the tolerance it must sit within. */
    public record Point(String what, double expected, double measured, double tolerance, String source) {
        public boolean within() { return Math.abs(measured - expected) <= tolerance; }

        @Override
        public String toString() {
            return String.format(Locale.ROOT, "%-44s expected %6.2f%%  measured %6.2f%%  (+-%.2f)  %s  [%s]",
                    what, 100 * expected, 100 * measured, 100 * tolerance, within() ? "ok" : "OUT", source);
        }
    }

    // tag::buddy-waste[]
    /** Sizes uniform on 1..2^k bytes through a buddy pool: each allocated, measured, freed. */
    public static double buddyWaste(int k, int samples, long seed) {
        BuddyAllocator b = BuddyAllocator.upfront(new Gpu(Bytes.gib(1)).openToyProcess(), 1L << k, 0, k);
        Random rnd = new Random(seed);
        double requested = 0, allocated = 0;
        for (int i = 0; i < samples; i++) {
            long size = 1 + rnd.nextInt(1 << k);
            long a = b.alloc(size);
            requested += b.requested();
            allocated += b.allocated();
            b.free(a);
        }
        return 1 - requested / allocated;
    }
    // end::buddy-waste[]

    // tag::paged-waste[]
    /** Sequences of lengths uniform on 1..maxLen through 16-token blocks: held, measured, freed. */
    public static double pagedWaste(long maxLen, int samples, long seed) {
        KvCacheManager kv = new KvCacheManager(new KvBlockPool(new Gpu(Bytes.gib(1)).openToyProcess(),
                (int) (maxLen / KvBlockPool.DEFAULT_BLOCK_SIZE) + 2, KvBlockPool.DEFAULT_BLOCK_SIZE, 1));
        Random rnd = new Random(seed);
        double tokens = 0, slots = 0;
        for (int i = 0; i < samples; i++) {
            kv.allocateSlots("r", 1 + (long) (rnd.nextDouble() * maxLen));
            tokens += kv.tokensHeld();
            slots += kv.slotsHeld();
            kv.free("r");
        }
        return 1 - tokens / slots;
    }
    // end::paged-waste[]

    /** Both reference points, 200 000 samples each, for a seed. */
    public static List<Point> measure(long seed) {
        int n = 200_000;
        return List.of(
                new Point("buddy, sizes uniform on 1..2^10", 0.24927, buddyWaste(10, n, seed), 0.005,
                        "enumeration; 4/3 overallocation"),
                new Point("buddy, sizes uniform on 1..2^16", 0.24999, buddyWaste(16, n, seed), 0.005,
                        "enumeration"),
                new Point("paged-16, lengths uniform on 1..512", 0.0284, pagedWaste(512, n, seed), 0.002,
                        "enumeration; vLLM launch blog: < 4%"),
                new Point("paged-16, lengths uniform on 1..2048", 0.0073, pagedWaste(2048, n, seed), 0.001,
                        "enumeration; vLLM launch blog: < 4%"));
    }
}
