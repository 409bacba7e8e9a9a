package vramlab.pinned;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static vramlab.units.Bytes.KiB;
import static vramlab.units.Bytes.MiB;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import vramlab.driver.DeviceBuffer;
import vramlab.driver.HostMemory;

/**
 * What the pinned allocator's checker and small parts promise, each on its own: the books
 * broken from inside the package the way a bug would break them (HACKING.adoc, "Mutation
 * testing"), the reserve segment's bump pointer, the option parser's saturation, the stats' text.
 */
@DisplayName("The pinned allocator's checker and small parts")
class PinnedChecksTest {
    PinnedSim sim = new PinnedSim();

    /** A captured block that a copy used: parked for the graph once freed. */
    HostBlock parkedBlock() {
        DeviceBuffer dev = sim.cuda(4 * KiB);
        HostBlock[] staging = new HostBlock[1];
        sim.capture(() -> {
            staging[0] = sim.pin(4 * KiB);
            sim.copyToHost(staging[0], dev);
        });
        sim.del(staging[0]);
        sim.checkInvariants();
        assertThat(sim.allocator().parked()).containsExactly(staging[0]);
        return staging[0];
    }

    @Nested
    @DisplayName("checkInvariants notices books broken the way a bug would break them")
    class BrokenBooks {
        @Test
        @DisplayName("a free-listed block marked with a capture's pool it is not filed under")
        void wrongPool() {
            HostBlock a = sim.pin(MiB);
            sim.del(a);
            a.pool = 1;                                   // a bug re-marks a default-pool block
            assertThatThrownBy(sim.allocator()::checkInvariants)
                    .hasMessageContaining("on the free lists of pool 0");
        }

        @Test
        @DisplayName("a free-listed block handed out without leaving its list, then freed again: twice on it")
        void twiceOnAFreeList() {
            HostBlock a = sim.pin(MiB);
            sim.del(a);
            a.allocated = true;                           // a bug hands it out but leaves it listed
            sim.del(a);
            assertThatThrownBy(sim.allocator()::checkInvariants).hasMessageContaining("twice in free lists");
        }

        @Test
        @DisplayName("a parked block handed out and freed again: cached, yet still counted as parked")
        void parkedAndCached() {
            HostBlock b = parkedBlock();
            b.allocated = true;                           // a bug hands out a block the graph owns
            sim.del(b);
            assertThat(sim.allocator().freeLists(b.pool())).containsKey(4 * KiB);
            assertThatThrownBy(sim.allocator()::checkInvariants).hasMessageContaining("active requests");
        }
    }

    @Nested
    @DisplayName("a freed block forgets the streams that used it (CHA.h free: streams_ moved out)")
    class Streams {
        /**
         * CachingHostAllocatorImpl::free (the CHA.h with private pools, PR #161583) moves
         * {@code streams_} out and clears it for every block with streams, captured or not,
         * before it decides whether to record events.
         */
        @Test
        @DisplayName("a captured block a copy used is parked with no stream left")
        void parkedForgets() {
            HostBlock b = parkedBlock();
            assertThat(b.used()).isTrue();
            assertThat(b.streams()).isEmpty();
        }
    }

    @Nested
    @DisplayName("the reserve segment's bump pointer (PinnedReserveSegment, CachingHostAllocator.cpp @03258ab)")
    class Reserve {
        ReserveSegment slab = new ReserveSegment(new HostMemory(sim.clock(),
                vramlab.driver.HostCostModel.DEFAULT).cudaHostAlloc(MiB));

        @ParameterizedTest(name = "{0} B takes {1} B of the slab")
        @CsvSource({"1, 4096", "4095, 4096", "4096, 4096", "4097, 8192"})
        @DisplayName("moves in whole 4 KiB pages")
        void pages(long size, long used) {
            assertThat(slab.carve(size)).isEqualTo(slab.slab().address());
            assertThat(slab.used()).isEqualTo(used);
            assertThat(slab.carve(1)).isEqualTo(slab.slab().address() + used);
        }

        @ParameterizedTest(name = "after {0} B carved, {1} B more -> fits: {2}")
        @CsvSource({"1044480, 4096, true", "1044480, 4097, false", "1048576, 1, false"})
        @DisplayName("fits exactly up to the slab's last byte, and never moves back")
        void end(long first, long second, boolean fits) {
            slab.carve(first);
            long address = slab.carve(second);
            assertThat(address >= 0).isEqualTo(fits);
            assertThat(slab.used()).isEqualTo(fits ? MiB : first);
        }
    }

    @Nested
    @DisplayName("pinned_*_mb values in bytes")
    class Megabytes {
        @ParameterizedTest(name = "{0} MiB -> {1} B")
        @CsvSource({
            "8796093022206, 9223372036852678656",          // (2^43 - 2) MiB: fits in a long
            "8796093022207, 9223372036853727232",          // Long.MAX_VALUE / MiB: the largest that fits
            "8796093022208, 9223372036854775807",          // one more overflows: no limit
        })
        @DisplayName("a number of MiB that fits in a long is exact; one more saturates to no limit")
        void saturation(long mb, long bytes) {
            assertThat(PinnedConfig.parse("pinned_max_cached_size_mb:" + mb).maxCachedSize()).isEqualTo(bytes);
        }
    }

    @Nested
    @DisplayName("the lab's text")
    class Text {
        @ParameterizedTest(name = "{0} block(s), {1} request(s)")
        @CsvSource({"1, 1, 'in 1 block (', 'for 1 request,'", "2, 0, 'in 2 blocks (', 'for 0 requests,'",
            "0, 2, 'in 0 blocks (', 'for 2 requests,'"})
        @DisplayName("host_memory_stats says block and request in the singular for one, the plural otherwise")
        void plurals(long blocks, long requests, String blockText, String requestText) {
            HostStats s = new HostStats(blocks, 2 * MiB, 3 * MiB, requests, 4 * MiB, 4, 1, 0, 0);
            assertThat(s.toString()).startsWith("host_memory_stats: allocated (owned) 2.00 MiB " + blockText)
                    .contains("peak 3.00 MiB").contains("active (checked out) 4.00 MiB " + requestText)
                    .endsWith("cudaHostAlloc x4, cudaFreeHost x1");
        }

        @Test
        @DisplayName("device tensors are named cuda0, cuda1, ... in the order they are made")
        void deviceNames() {
            assertThat(sim.cuda(KiB).name()).isEqualTo("cuda0");
            assertThat(sim.cuda(KiB).name()).isEqualTo("cuda1");
        }
    }
}
