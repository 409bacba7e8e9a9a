package vramlab.ch07;

import static org.assertj.core.api.Assertions.assertThat;
import static vramlab.units.Bytes.KiB;
import static vramlab.units.Bytes.MiB;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import vramlab.driver.DeviceBuffer;
import vramlab.pinned.CachingHostAllocator.Fate;
import vramlab.pinned.HostBlock;
import vramlab.pinned.PinnedSim;
import vramlab.quiz.Graded;

@DisplayName("Chapter 7 lab steps")
class PinnedStepsTest {
    final PinnedSim sim = new PinnedSim();

    @Test
    @Graded(step = "7.1", points = 2)
    @Timeout(10)
    @DisplayName("7.1 roundSize rounds every request up to the next power of two")
    void round() {
        long[][] cases = {{1, 1}, {100, 128}, {300_000, 512 * KiB}, {3 * MiB + 1, 4 * MiB},
                          {8 * MiB, 8 * MiB}, {100_000_000_000L, 1L << 37}};
        for (long[] c : cases) {
            assertThat(sim.allocator().roundSize(c[0])).as("roundSize(%d); allocator:%n%s", c[0], sim)
                    .isEqualTo(c[1]);
        }
        HostBlock b = sim.pin(5 * MiB + 1);
        assertThat(b.size()).as("pin(5 MiB + 1); allocator:%n%s", sim).isEqualTo(8 * MiB);
        sim.checkInvariants();
    }

    @Test
    @Graded(step = "7.2", points = 2)
    @Timeout(10)
    @DisplayName("7.2 a block a graph capture allocated and a copy used is parked, never handed to another"
            + " request")
    void captured() {
        HostBlock[] staging = new HostBlock[1];
        DeviceBuffer loss = sim.cuda(4 * KiB);
        sim.capture(() -> {
            staging[0] = sim.pin(4 * KiB);
            sim.copyToHost(staging[0], loss);
        });
        sim.del(staging[0]);
        assertThat(sim.allocator().fateOf(staging[0])).as("fate of %s", staging[0]).isEqualTo(Fate.PARK);
        HostBlock next = sim.pin(4 * KiB);
        assertThat(next).as("the next 4 KiB request; allocator:%n%s", sim).isNotSameAs(staging[0]);
        sim.del(next);
        assertThat(sim.pin(4 * KiB)).as("an ordinary block is cached; allocator:%n%s", sim).isSameAs(next);
        sim.checkInvariants();
    }

    @Test
    @Graded(step = "7.2", points = 1)
    @Timeout(10)
    @DisplayName("7.2 a block above pinned_max_cached_size_mb is released, not cached")
    void released() {
        PinnedSim small = new PinnedSim("pinned_max_cached_size_mb:32");
        small.del(small.pin(64 * MiB));
        assertThat(small.hostMemoryStats().allocatedBytes()).as("owned; allocator:%n%s", small).isZero();
        assertThat(small.host().freeHostCalls()).isEqualTo(1);
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
        assertThat(b).as("copy still in flight; allocator:%n%s", sim).isNotSameAs(a);
        sim.synchronize();
        HostBlock c = sim.pin(MiB);
        assertThat(c).as("copy done; allocator:%n%s", sim).isSameAs(a);
        assertThat(sim.allocator().pendingEvents()).isZero();
        assertThat(PinnedLab.useAfterFree(true)).as("the lab's batches").containsExactly(0L, 1L, 2L, 3L);
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
        assertThat(freed).as("bytes freed; allocator:%n%s", sim).isEqualTo(258 * MiB);
        assertThat(sim.hostMemoryStats().allocatedBytes()).isEqualTo(MiB);
        assertThat(sim.host().freeHostCalls()).isEqualTo(2);
        assertThat(sim.allocator().blocks()).containsExactly(held);
        sim.checkInvariants();
    }
}
