package vramlab.ch07;

import static vramlab.units.Bytes.KiB;
import static vramlab.units.Bytes.MiB;

import java.util.List;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import vramlab.driver.DeviceBuffer;
import vramlab.pinned.CachingHostAllocator.Fate;
import vramlab.pinned.HostBlock;
import vramlab.pinned.PinnedSim;
import vramlab.quiz.Graded;
import vramlab.quiz.feedback.StepOrder;

@DisplayName("Chapter 7 lab steps")
@ExtendWith(StepOrder.class)
class PinnedStepsTest {
    final PinnedSim sim = new PinnedSim();

    /** Step 7.1's cases, in order: request, block. */
    static final long[][] ROUND_CASES = {{1, 1}, {100, 128}, {300_000, 512 * KiB}, {3 * MiB + 1, 4 * MiB},
        {8 * MiB, 8 * MiB}, {100_000_000_000L, 1L << 37}};

    @Test
    @Graded(step = "7.1", points = 2)
    @Timeout(10)
    @DisplayName("7.1 roundSize rounds every request up to the next power of two")
    void round() {
        for (long[] c : ROUND_CASES) {
            Ch07Feedback.ROUND_SIZE.check("roundSize(" + vramlab.units.Bytes.readable(c[0]) + ")", c[0], sim.allocator().roundSize(c[0]), c[1],
                    sim::toString);
        }
        HostBlock b = sim.pin(5 * MiB + 1);
        Ch07Feedback.ROUND_SIZE.check("the size of pin(5 MiB + 1 B)", 5 * MiB + 1, b.size(), 8 * MiB, sim::toString);
        sim.checkInvariants();
        for (String option : new String[] {"pinned_max_round_threshold_mb:48", "pinned_max_cached_size_mb:48"}) {
            PinnedSim limited = new PinnedSim(option);
            Ch07Feedback.ROUND_SIZE.check("roundSize(48 MiB) with " + option + " (not above it, so rounded)", 48 * MiB,
                    limited.allocator().roundSize(48 * MiB), 64 * MiB, limited::toString);
            Ch07Feedback.ROUND_SIZE.check("roundSize(48 MiB + 1 B) with " + option + " (above it, the exact size)",
                    48 * MiB + 1, limited.allocator().roundSize(48 * MiB + 1), 48 * MiB + 1, limited::toString);
            Ch07Feedback.ROUND_SIZE.check("roundSize(3 MiB + 1 B) with " + option + " (far below it)", 3 * MiB + 1,
                    limited.allocator().roundSize(3 * MiB + 1), 4 * MiB, limited::toString);
        }
    }

    @Test
    @Graded(step = "7.2", points = 2)
    @Timeout(10)
    @DisplayName("7.2 a block a graph capture allocated and a copy used is parked, never handed to another"
            + " request; an unused captured block and an ordinary used one are cached")
    void captured() {
        HostBlock[] staging = new HostBlock[1];
        DeviceBuffer loss = sim.cuda(4 * KiB);
        sim.capture(() -> {
            staging[0] = sim.pin(4 * KiB);
            sim.copyToHost(staging[0], loss);
        });
        sim.del(staging[0]);
        Ch07Feedback.FATE.check("fateOf(" + staging[0] + ") after del", "captured and used by a copy",
                sim.allocator().fateOf(staging[0]), Fate.PARK, sim::toString);
        HostBlock next = sim.pin(4 * KiB);
        Ch07Feedback.HANDED_OUT.check("is the next pin(4 KiB) the parked block " + staging[0], "parked",
                next == staging[0], false, sim::toString);
        sim.del(next);
        Ch07Feedback.HANDED_OUT.check("is pin(4 KiB) after del(" + next + ") that ordinary block", "cached",
                sim.pin(4 * KiB) == next, true, sim::toString);
        HostBlock[] unused = new HostBlock[1];
        sim.capture(() -> unused[0] = sim.pin(4 * KiB));
        sim.del(unused[0]);
        Ch07Feedback.FATE.check("fateOf(" + unused[0] + ") after del", "captured, no copy used",
                sim.allocator().fateOf(unused[0]), Fate.CACHE, sim::toString);
        HostBlock plain = sim.pin(4 * KiB);
        sim.copyToDevice(sim.cuda(4 * KiB), plain);
        sim.del(plain);
        Ch07Feedback.FATE.check("fateOf(" + plain + ") after del", "ordinary, used by a copy",
                sim.allocator().fateOf(plain), Fate.CACHE, sim::toString);
        sim.checkInvariants();
    }

    @Test
    @Graded(step = "7.2", points = 1)
    @Timeout(10)
    @DisplayName("7.2 a block above pinned_max_cached_size_mb is released, not cached")
    void released() {
        PinnedSim small = new PinnedSim("pinned_max_cached_size_mb:32");
        small.del(small.pin(64 * MiB));
        Ch07Feedback.OWNED.check("bytes owned after pin(64 MiB) and del with pinned_max_cached_size_mb:32", "oversize",
                small.hostMemoryStats().allocatedBytes(), 0L, small::toString);
        Ch07Feedback.RELEASES.check("cudaFreeHost calls after it", "oversize", (long) small.host().freeHostCalls(), 1L,
                small::toString);
        small.checkInvariants();
        small.del(small.pin(32 * MiB));
        Ch07Feedback.OWNED.check("bytes owned after pin(32 MiB) and del, exactly the limit", "at the limit",
                small.hostMemoryStats().allocatedBytes(), 32 * MiB, small::toString);
        small.checkInvariants();
    }

    @Test
    @Graded(step = "7.3", points = 3)
    @Timeout(10)
    @DisplayName("7.3 a freed block is reused only after the events of its copies retire")
    void events() {
        DeviceBuffer d = sim.cuda(MiB);
        sim.kernel("busy", 20_000_000);
        HostBlock a = sim.pin(MiB);
        sim.copyToDevice(d, a);
        sim.del(a);
        HostBlock b = sim.pin(MiB);
        Ch07Feedback.REUSE.check("is pin(1 MiB), while a's copy is in flight, the freed block a", "in flight", b == a,
                false, sim::toString);
        sim.synchronize();
        HostBlock c = sim.pin(MiB);
        Ch07Feedback.REUSE.check("is pin(1 MiB), after synchronize(), the freed block a", "retired", c == a, true,
                sim::toString);
        Ch07Feedback.RETIRED.check("pendingEvents() after it", "pending", sim.allocator().pendingEvents(), 0,
                sim::toString);
        Ch07Feedback.RETIRED.check("the batches the lab's loop reads, PinnedLab.useAfterFree(true)", "batches",
                PinnedLab.useAfterFree(true), List.of(0L, 1L, 2L, 3L));
        sim.checkInvariants();
    }

    @Test
    @Graded(step = "7.4", points = 2)
    @Timeout(10)
    @DisplayName("7.4 empty_host_cache frees free-list blocks only, one cudaFreeHost each")
    void emptyCache() {
        HostBlock held = sim.pin(MiB);
        sim.del(sim.pin(256 * MiB));
        sim.del(sim.pin(2 * MiB));
        long freed = sim.emptyHostCache();
        Ch07Feedback.EMPTIED.check("bytes emptyHostCache() frees with 1 MiB held, 256 MiB and 2 MiB cached", "freed",
                freed, 258 * MiB, sim::toString);
        Ch07Feedback.EMPTIED.check("bytes owned after it", "owned", sim.hostMemoryStats().allocatedBytes(), MiB,
                sim::toString);
        sim.emptyHostCache();
        Ch07Feedback.EMPTIED.check("cudaFreeHost calls after it and a second emptyHostCache()", "calls",
                (long) sim.host().freeHostCalls(), 2L, sim::toString);
        Ch07Feedback.KEPT.check("the blocks the allocator owns after it", "blocks", sim.allocator().blocks().toString(),
                List.of(held).toString(), sim::toString);
        sim.checkInvariants();
    }
}
