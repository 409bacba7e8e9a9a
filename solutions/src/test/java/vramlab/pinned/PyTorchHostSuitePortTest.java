package vramlab.pinned;

import static org.assertj.core.api.Assertions.assertThat;
import static vramlab.units.Bytes.KiB;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import vramlab.driver.DeviceBuffer;

/**
 * test/test_cuda.py's pinned-memory tests (pytorch/pytorch @000e43c), on the simulated host
 * allocator: TestCachingHostAllocatorCudaGraph and test_host_memory_stats. A float tensor of
 * {@code n} elements is {@code 4 n} bytes. Not reproduced: test_two_graphs (graphs sharing one
 * pool; each of the kit's captures has its own) and the cudaHostRegister variants (the kit's
 * host allocator always pins with cudaHostAlloc).
 */
@DisplayName("PyTorch's pinned-memory tests, ported")
class PyTorchHostSuitePortTest {
    final PinnedSim sim = new PinnedSim();

    @Nested
    @DisplayName("TestCachingHostAllocatorCudaGraph")
    class CudaGraph {
        @Test
        @DisplayName("test_pin_memory_no_use: two blocks alive in one capture are two blocks")
        void noUse() {
            HostBlock[] b = new HostBlock[2];
            sim.capture(() -> {
                b[0] = sim.pin(8 * 4);
                b[1] = sim.pin(8 * 4);
            });
            assertThat(b[0].address()).isNotEqualTo(b[1].address());
            sim.del(b[1]);
            sim.checkInvariants();
        }

        @Test
        @DisplayName("test_pin_memory_no_use2: a block deleted in the capture and never copied is reused there")
        void noUse2() {
            long[] ptr = new long[2];
            sim.capture(() -> {
                HostBlock data = sim.pin(8 * 4);
                ptr[0] = data.address();
                sim.del(data);
                ptr[1] = sim.pin(8 * 4).address();
            });
            assertThat(ptr[1]).isEqualTo(ptr[0]);
            sim.checkInvariants();
        }

        @Test
        @DisplayName("test_pin_memory_use: a block a copy used in the capture is never reused")
        void use() {
            DeviceBuffer gpu = sim.cuda(8 * 4);
            long[] ptr = new long[2];
            sim.capture(() -> {
                HostBlock data = sim.pin(8 * 4);
                sim.copyToDevice(gpu, data);
                ptr[0] = data.address();
                sim.del(data);
                ptr[1] = sim.pin(8 * 4).address();
            });
            assertThat(ptr[1]).isNotEqualTo(ptr[0]);
            sim.synchronize();
            assertThat(sim.pin(8 * 4).address()).as("nor later, outside it").isNotEqualTo(ptr[0]);
            sim.checkInvariants();
        }
    }

    @Test
    @DisplayName("test_host_memory_stats: 10 K and 20 K floats take 64 KiB and 128 KiB blocks; the counts"
            + " and bytes under the newer keys; empty_host_cache frees nothing still in use")
    void hostMemoryStats() {
        sim.emptyHostCache();
        HostBlock t1 = sim.pin(10 * 1024 * 4);
        HostStats.Generation newer = HostStats.Generation.NEWER;
        assertThat(sim.hostMemoryStats().keys(newer))
                .containsEntry("allocations.current", 1L).containsEntry("active_requests.current", 1L)
                .containsEntry("allocated_bytes.current", 16 * KiB * 4).containsEntry("active_bytes.current", 16 * KiB * 4)
                .containsEntry("num_host_alloc", 1L);
        HostBlock t2 = sim.pin(20 * 1024 * 4);
        long both = (16 + 32) * KiB * 4;
        assertThat(sim.hostMemoryStats().keys(newer))
                .containsEntry("allocations.current", 2L).containsEntry("active_requests.current", 2L)
                .containsEntry("allocated_bytes.current", both).containsEntry("active_bytes.current", both)
                .containsEntry("num_host_alloc", 2L);
        sim.emptyHostCache();
        assertThat(sim.hostMemoryStats().keys(newer)).containsEntry("allocated_bytes.current", both);
        assertThat(sim.hostMemoryStats().keys(HostStats.Generation.OLDER))
                .as("the older generation names the same numbers the other way round")
                .containsEntry("reserved_bytes.current", both).containsEntry("allocated_bytes.current", both)
                .containsEntry("segment.current", 2L).containsEntry("allocation.current", 2L);
        sim.del(t1);
        assertThat(sim.hostMemoryStats().keys(HostStats.Generation.OLDER))
                .containsEntry("reserved_bytes.current", both)
                .containsEntry("allocated_bytes.current", 32 * KiB * 4);
        sim.del(t2);
        sim.checkInvariants();
    }
}
