package vramlab.driver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static vramlab.units.Bytes.gib;
import static vramlab.units.Bytes.mib;

import java.util.List;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import vramlab.gmmu.Access;
import vramlab.gmmu.Aperture;
import vramlab.gmmu.PageFault;
import vramlab.gmmu.PageSize;

/** The driver's rules at their edges: the last GPU id, empty ranges, peer slots, teardown. */
@DisplayName("The driver at its edges")
class DriverEdgesTest {
    static final long PAGE = Gpu.PAGE;

    static CudaError errorOf(Runnable call) {
        try {
            call.run();
        } catch (CudaException e) {
            return e.error();
        }
        throw new AssertionError("no CudaException");
    }

    @Nested
    @DisplayName("the VA windows: one per GPU id 0..15, 7 TiB each, all below x86-64's 128 TiB")
    class Windows {
        @ParameterizedTest(name = "GPU {0} opens")
        @CsvSource({"0", "14", "15"})
        @DisplayName("the ids the layout has a window for, up to 15")
        void laidOut(int id) {
            GpuProcess p = new Gpu(id, gib(1), 0).openToyProcess();
            assertThat(p.vaEnd()).isEqualTo(GpuProcess.UVA_END - id * GpuProcess.WINDOW);
            assertThat(p.vaFloor()).isPositive();
        }

        @ParameterizedTest(name = "GPU {0} is refused")
        @CsvSource({"16", "17", "-1"})
        @DisplayName("one more than 15 (or a negative id) has no window")
        void beyond(int id) {
            Gpu gpu = new Gpu(id, gib(1), 0);
            assertThatThrownBy(gpu::openToyProcess).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("GPU id " + id + ": the kit lays out windows for ids 0..15");
        }
    }

    @Nested
    @DisplayName("ranges must not be empty, and errors name the address in hex")
    class Ranges {
        @Test
        @DisplayName("cuMemSetAccess of 0 bytes at a mapped address is CUDA_ERROR_INVALID_VALUE")
        void setAccessNothing() {
            GpuProcess p = new Gpu(gib(1)).openToyProcess();
            long va = p.cuMemAddressReserve(PAGE);
            p.cuMemMap(va, PAGE, p.cuMemCreate(PAGE));
            assertThat(errorOf(() -> p.cuMemSetAccess(va, 0, Access.READWRITE)))
                    .isEqualTo(CudaError.CUDA_ERROR_INVALID_VALUE);
            assertThat(p.driverCalls(DriverCall.CU_MEM_SET_ACCESS)).as("nothing booked").isZero();
            p.cuMemSetAccess(va, PAGE, Access.READWRITE);
            assertThat(p.driverCalls(DriverCall.CU_MEM_SET_ACCESS)).isEqualTo(1);
        }

        @Test
        @DisplayName("cuMemAddressFree of no reservation names its address")
        void addressInHex() {
            GpuProcess p = new Gpu(gib(1)).openToyProcess();
            long va = p.cuMemAddressReserve(mib(4));
            assertThatThrownBy(() -> p.cuMemAddressFree(va + PAGE, PAGE)).isInstanceOf(CudaException.class)
                    .hasMessage("CUDA_ERROR_INVALID_VALUE: cuMemAddressFree(0x" + Long.toHexString(va + PAGE)
                            + ", " + PAGE + "): not a reservation");
        }
    }

    @Nested
    @DisplayName("peers")
    class Peers {
        final List<Gpu> gpus = Gpu.machine(3, gib(1), 0);
        final GpuProcess on0 = gpus.get(0).open(7, "ddp", 0);
        final GpuProcess on1 = gpus.get(1).open(7, "ddp", 0);
        final GpuProcess on2 = gpus.get(2).open(7, "ddp", 0);

        @Test
        @DisplayName("a peer through BAR1 takes no peer slot: the next PEER-aperture peer gets slot 0")
        void bar1TakesNoSlot() {
            Gpu.link(gpus.get(0), gpus.get(1), PeerLink.PCIE_BAR1);
            on0.cudaDeviceEnablePeerAccess(on1);
            on0.cudaDeviceEnablePeerAccess(on2);
            long ptr = on2.cudaMalloc(PAGE);
            assertThat(on0.addressSpace().find(ptr, PageSize.SIZE_2M).peer()).isZero();
            assertThat(gpus.get(0).peerSlot(gpus.get(2))).isZero();
            gpus.forEach(Gpu::checkInvariants);
        }

        @Test
        @DisplayName("a PEER-aperture peer takes its slot when access is enabled, before it has memory")
        void slotAtEnable() {
            on0.cudaDeviceEnablePeerAccess(on2);
            on0.cudaDeviceEnablePeerAccess(on1);
            long ptr = on1.cudaMalloc(PAGE);
            assertThat(on0.addressSpace().find(ptr, PageSize.SIZE_2M).peer()).as("GPU 2 took slot 0").isEqualTo(1);
        }

        @Test
        @DisplayName("a small allocation made before access is enabled is mapped too, and goes when its owner closes")
        void sharedPageBeforeEnable() {
            long ptr = on1.cudaMalloc(512);
            on0.cudaDeviceEnablePeerAccess(on1);
            assertThat(on0.translate(ptr).aperture()).isEqualTo(Aperture.PEER_MEMORY);
            assertThat(on0.translate(ptr + 100).physical()).isEqualTo(on1.translate(ptr + 100).physical());
            gpus.forEach(Gpu::checkInvariants);
            gpus.get(1).close(on1);
            assertThatThrownBy(() -> on0.translate(ptr)).isInstanceOf(PageFault.class);
            assertThat(on0.addressSpace().mappedBytes()).isZero();
            gpus.forEach(Gpu::checkInvariants);
        }

        @Test
        @DisplayName("when the owner closes, access ends: a new context on its GPU can be enabled again")
        void ownerCloses() {
            on0.cudaDeviceEnablePeerAccess(on1);
            gpus.get(1).close(on1);
            GpuProcess again = gpus.get(1).open(7, "ddp", 0);
            on0.cudaDeviceEnablePeerAccess(again);
            long ptr = again.cudaMalloc(PAGE);
            assertThat(on0.translate(ptr).device()).isEqualTo(1);
            gpus.forEach(Gpu::checkInvariants);
        }

        @Test
        @DisplayName("when the process that enabled access closes, its tables are empty and stay so")
        void mirrorCloses() {
            long before = on1.cudaMalloc(PAGE);
            on0.cudaDeviceEnablePeerAccess(on1);
            assertThat(on0.isMapped(before)).isTrue();
            gpus.get(0).close(on0);
            assertThat(on0.addressSpace().mappedBytes()).isZero();
            on1.cudaMalloc(PAGE);                               // no longer mirrored anywhere
            assertThat(on0.addressSpace().mappedBytes()).isZero();
            assertThat(on0.addressSpace().tableCount()).as("only the root").isEqualTo(1);
            gpus.forEach(Gpu::checkInvariants);
        }
    }

    @Nested
    @DisplayName("the GPU")
    class Device {
        @ParameterizedTest(name = "capacity {0}")
        @CsvSource({"0", "-1"})
        @DisplayName("a capacity of 0 or less is refused by the GPU itself, naming it")
        void noCapacity(long capacity) {
            assertThatThrownBy(() -> new Gpu(0, capacity, 0)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("Gpu: capacity must be positive, was " + capacity);
        }

        @Test
        @DisplayName("cudaMemGetInfo prints free of total, the total less the driver reserve")
        void memInfoText() {
            GpuProcess p = new Gpu(0, gib(1), mib(64)).openToyProcess();
            assertThat(p.cudaMemGetInfo()).hasToString("free 960.00 MiB of 960.00 MiB");
            p.cudaMalloc(mib(64));
            assertThat(p.cudaMemGetInfo()).hasToString("free 896.00 MiB of 960.00 MiB");
        }

        @Test
        @DisplayName("a context the budget allows but no free run holds is refused, and the budget is kept")
        void contextWithoutARun() {
            Gpu g = new Gpu(0, mib(16), 0);
            GpuProcess p = g.openToyProcess();
            long[] run = new long[8];
            for (int i = 0; i < 8; i++) run[i] = p.cudaMalloc(PAGE);
            for (int i = 0; i < 8; i += 2) p.cudaFree(run[i]);          // 8 MiB free, in 2 MiB runs
            assertThatThrownBy(() -> g.open(2, "ctx", mib(3))).isInstanceOf(CudaException.class)
                    .hasMessage("cudaErrorMemoryAllocation: context of process 2: no run of " + mib(3)
                            + " bytes is free on GPU 0");
            assertThat(g.free()).isEqualTo(mib(8));
            assertThat(g.processes()).containsExactly(p);
            g.checkInvariants();
        }

        @Test
        @DisplayName("peer slots: 0 to 7 in the order peers are first named, the same slot again, no ninth")
        void peerSlots() {
            List<Gpu> gpus = Gpu.machine(10, gib(1), 0);
            Gpu g = gpus.get(0);
            for (int i = 1; i <= 8; i++) assertThat(g.peerSlot(gpus.get(i))).as("GPU %d", i).isEqualTo(i - 1);
            assertThat(g.peerSlot(gpus.get(3))).isEqualTo(2);
            assertThat(errorOf(() -> g.peerSlot(gpus.get(9)))).isEqualTo(CudaError.cudaErrorTooManyPeers);
            assertThat(gpus.get(9).peerSlot(gpus.get(3))).as("each GPU numbers its own peers").isZero();
        }
    }

    @Nested
    @DisplayName("host memory and streams on the clock")
    class HostAndStreams {
        final Clock clock = new Clock();
        final HostMemory host = new HostMemory(clock, HostCostModel.DEFAULT);

        @Test
        @DisplayName("each pin and unpin blocks the host for its cost and leaves a span on the host lane")
        void hostSpans() {
            HostBuffer b = host.cudaHostAlloc(mib(2));
            long pin = HostCostModel.DEFAULT.pinNanos(mib(2)), unpin = HostCostModel.DEFAULT.unpinNanos(mib(2));
            host.cudaFreeHost(b);
            assertThat(clock.now()).isEqualTo(pin + unpin);
            assertThat(clock.spans()).containsExactly(new Clock.Span("host", "cudaHostAlloc 2.00 MiB", 0, pin),
                    new Clock.Span("host", "cudaFreeHost 2.00 MiB", pin, pin + unpin));
            assertThat(host.unpinNanos()).isEqualTo(unpin);
        }

        @Test
        @DisplayName("the live buffers are listed by address until they are freed")
        void liveBuffers() {
            HostBuffer a = host.cudaHostAlloc(mib(1)), b = host.malloc(100);
            assertThat(host.liveBuffers()).containsExactly(java.util.Map.entry(a.address(), a),
                    java.util.Map.entry(b.address(), b));
            host.cudaFreeHost(a);
            assertThat(host.liveBuffers()).containsOnlyKeys(b.address());
        }

        @Test
        @DisplayName("a kernel returns when it ends; captured, it runs nothing and returns the stream's tail")
        void kernelEnds() {
            Stream s = new Stream(1, "s1", clock, CopyEngine.PCIE4);
            assertThat(s.kernel("a", 500)).isEqualTo(500);
            s.beginCapture();
            assertThat(s.kernel("b", 700)).isEqualTo(500);
            assertThat(s.endCapture().nodes()).hasSize(1);
            assertThat(s.tail()).isEqualTo(500);
        }

        @Test
        @DisplayName("a captured copy runs nothing either and returns the stream's tail")
        void capturedCopy() {
            Stream s = new Stream(1, "s1", clock, new CopyEngine(1_000_000_000L, 0));   // 1 B/ns
            DeviceBuffer a = new DeviceBuffer("a", 0x1000, 64), b = new DeviceBuffer("b", 0x2000, 64);
            assertThat(s.memcpyAsync(a, b)).isEqualTo(64);
            s.beginCapture();
            assertThat(s.memcpyAsync(b, a)).isEqualTo(64);
            assertThat(s.endCapture().nodes()).extracting(CudaGraph.Node::bytes).containsExactly(64L);
        }

        @Test
        @DisplayName("a kernel of no time is a span that ends where it starts, which the clock's checker accepts")
        void zeroLengthSpan() {
            Stream s = new Stream(1, "s1", clock, CopyEngine.PCIE4);
            s.kernel("empty", 0);
            assertThat(clock.spans()).containsExactly(new Clock.Span("s1", "empty", 0, 0));
            clock.checkInvariants();
        }
    }

    @Nested
    @DisplayName("peer links and captured graphs")
    class LinksAndGraphs {
        @ParameterizedTest(name = "{0} to GPU {1}: +{2}")
        @CsvSource({
            "PCIE,              0, 0",
            "PCIE,              3, 0",
            "NVLINK,            0, 274877906944",         // 256 GiB
            "NVLINK,            1, 549755813888",         // the GPA windows 256 GiB apart
            "NVSWITCH,          0, 1099511627776",        // 1 TiB
            "NVSWITCH,          2, 3298534883328",        // the fabric windows 1 TiB apart
            "PCIE_BAR1,         0, 1125899906842624",     // 1 PiB
            "PCIE_BAR1,         1, 1125968626319360",     // + 64 GiB
            "PCIE_BAR1_ATOMICS, 3, 1126106065272832"})    // + 3 x 64 GiB
        @DisplayName("the window a link moves an owner's address into: GPA 256 GiB, fabric 1 TiB, BAR1 1 PiB + 64 GiB apart")
        void offsets(PeerLink link, int owner, long offset) {
            assertThat(link.offset(new Gpu(owner, gib(1), 0))).isEqualTo(offset);
        }

        @Test
        @DisplayName("a graph prints its nodes, its copies and its replays, in the singular for one")
        void graphText() {
            Clock clock = new Clock();
            Stream s = new Stream(1, "s1", clock, CopyEngine.PCIE4);
            DeviceBuffer a = new DeviceBuffer("a", 0x1000, 64), b = new DeviceBuffer("b", 0x2000, 64);
            s.beginCapture();
            s.memcpyAsync(a, b);
            s.kernel("k", 10);
            CudaGraph one = s.endCapture();
            assertThat(one).hasToString("CUDA graph: 2 nodes (1 copy), replayed 0 times");
            one.replay(s);
            assertThat(one).hasToString("CUDA graph: 2 nodes (1 copy), replayed 1 time");
            s.beginCapture();
            s.memcpyAsync(a, b);
            s.memcpyAsync(b, a);
            CudaGraph two = s.endCapture();
            two.replay(s);
            two.replay(s);
            assertThat(two).hasToString("CUDA graph: 2 nodes (2 copies), replayed 2 times");
        }
    }
}
