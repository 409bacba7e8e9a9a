package vramlab.driver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static vramlab.units.Bytes.gib;
import static vramlab.units.Bytes.mib;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import vramlab.gmmu.Access;

/**
 * The simulated driver's contract, call by call: what each call counts, what it refuses, and
 * what a closed process, a full GPU or a misused host buffer answers.
 */
@DisplayName("The driver's calls, one by one")
class DriverContractTest {
    static final long PAGE = Gpu.PAGE;

    @Nested
    @DisplayName("a closed process")
    class Closed {
        @Test
        @DisplayName("refuses every driver call, naming the process")
        void everyCallRefused() {
            Gpu gpu = new Gpu(0, gib(1), 0);
            GpuProcess p = gpu.open(77, "gone", 0);
            GpuProcess other = new Gpu(1, gib(1), 0).open(77, "peer", 0);
            long va = p.cuMemAddressReserve(mib(4));
            long h = p.cuMemCreate(mib(2));
            long ptr = p.cudaMalloc(mib(2));
            gpu.close(p);
            Map<String, Consumer<GpuProcess>> calls = new LinkedHashMap<>();
            calls.put("cudaMalloc", q -> q.cudaMalloc(mib(2)));
            calls.put("cudaFree", q -> q.cudaFree(ptr));
            calls.put("cuMemAddressReserve", q -> q.cuMemAddressReserve(mib(2)));
            calls.put("cuMemCreate", q -> q.cuMemCreate(mib(2)));
            calls.put("cuMemMap", q -> q.cuMemMap(va, mib(2), h));
            calls.put("cuMemSetAccess", q -> q.cuMemSetAccess(va, mib(2), Access.READ));
            calls.put("cuMemUnmap", q -> q.cuMemUnmap(va, mib(2)));
            calls.put("cuMemRelease", q -> q.cuMemRelease(h));
            calls.put("cuMemAddressFree", q -> q.cuMemAddressFree(va, mib(4)));
            calls.put("cudaDeviceEnablePeerAccess", q -> q.cudaDeviceEnablePeerAccess(other));
            calls.forEach((name, call) -> assertThatThrownBy(() -> call.accept(p)).as(name)
                    .isInstanceOf(IllegalStateException.class).hasMessage("process 77 is closed"));
            assertThatThrownBy(() -> gpu.close(p)).hasMessageContaining("process 77 is not open");
        }
    }

    @Nested
    @DisplayName("what each call counts")
    class Counting {
        @Test
        @DisplayName("one call each, and the 2 MiB pages each mapped or unmapped")
        void counts() {
            GpuProcess p = new Gpu(gib(1)).openToyProcess();
            long va = p.cuMemAddressReserve(mib(8));
            long h = p.cuMemCreate(mib(4));
            p.cuMemMap(va, mib(4), h);
            p.cuMemSetAccess(va, mib(4), Access.READWRITE);
            p.cuMemUnmap(va, mib(4));
            p.cuMemRelease(h);
            p.cuMemAddressFree(va, mib(8));
            p.cudaFree(p.cudaMalloc(mib(3) + 1));
            Map<DriverCall, long[]> expected = new LinkedHashMap<>();   // {calls, pages}
            expected.put(DriverCall.CU_MEM_ADDRESS_RESERVE, new long[] {1, 0});
            expected.put(DriverCall.CU_MEM_CREATE, new long[] {1, 2});
            expected.put(DriverCall.CU_MEM_MAP, new long[] {1, 2});
            expected.put(DriverCall.CU_MEM_SET_ACCESS, new long[] {1, 2});
            expected.put(DriverCall.CU_MEM_UNMAP, new long[] {1, 2});
            expected.put(DriverCall.CU_MEM_RELEASE, new long[] {1, 0});
            expected.put(DriverCall.CU_MEM_ADDRESS_FREE, new long[] {1, 0});
            expected.put(DriverCall.CUDA_MALLOC, new long[] {1, 2});
            expected.put(DriverCall.CUDA_FREE, new long[] {1, 2});
            expected.forEach((call, c) -> {
                assertThat(p.driverCalls(call)).as("%s calls", call).isEqualTo(c[0]);
                assertThat(p.driverPages(call)).as("%s pages", call).isEqualTo(c[1]);
            });
            assertThat(p.cudaMallocCalls()).isEqualTo(1);
            assertThat(p.mappedBytes()).isZero();
            p.gpu().checkInvariants();
        }

        @Test
        @DisplayName("cuMemCreate holds its memory until cuMemRelease, mapped or not")
        void handleBytes() {
            GpuProcess p = new Gpu(gib(1)).openToyProcess();
            long h = p.cuMemCreate(mib(4));
            assertThat(p.mappedBytes()).isEqualTo(mib(4));
            assertThat(p.gpu().free()).isEqualTo(gib(1) - mib(4));
            p.cuMemRelease(h);
            assertThat(p.mappedBytes()).isZero();
            assertThatThrownBy(() -> p.cuMemRelease(h)).isInstanceOfSatisfying(CudaException.class,
                    e -> assertThat(e.error()).isEqualTo(CudaError.CUDA_ERROR_INVALID_HANDLE));
        }
    }

    @Nested
    @DisplayName("what the calls refuse")
    class Refusals {
        @ParameterizedTest(name = "{0} B")
        @CsvSource({"0", "-1"})
        @DisplayName("cudaMalloc of nothing is cudaErrorInvalidValue")
        void mallocNothing(long size) {
            GpuProcess p = new Gpu(gib(1)).openToyProcess();
            assertThatThrownBy(() -> p.cudaMalloc(size)).isInstanceOfSatisfying(CudaException.class,
                    e -> assertThat(e.error()).isEqualTo(CudaError.cudaErrorInvalidValue));
        }

        @ParameterizedTest(name = "{0} B")
        @CsvSource({"0", "1048576"})
        @DisplayName("cuMemCreate takes only positive multiples of the 2 MiB granularity")
        void granularity(long size) {
            GpuProcess p = new Gpu(gib(1)).openToyProcess();
            assertThatThrownBy(() -> p.cuMemCreate(size)).isInstanceOfSatisfying(CudaException.class,
                    e -> assertThat(e.error()).isEqualTo(CudaError.CUDA_ERROR_INVALID_VALUE))
                    .hasMessageContaining("positive multiple of the granularity");
            assertThat(p.cuMemCreate(PAGE)).isPositive();
        }

        @ParameterizedTest(name = "size {0}, alignment {1}, address {2}")
        @CsvSource({"0, 0, 0", "-4096, 0, 0", "4095, 0, 0", "4097, 0, 0", "4096, 3, 0", "4096, 0, 1"})
        @DisplayName("cuMemAddressReserve takes sizes and addresses in host pages and a power-of-two alignment")
        void reserveUnits(long size, long alignment, long addr) {
            GpuProcess p = new Gpu(gib(1)).openToyProcess();
            assertThatThrownBy(() -> p.cuMemAddressReserve(size, alignment, addr))
                    .isInstanceOfSatisfying(CudaException.class,
                            e -> assertThat(e.error()).isEqualTo(CudaError.CUDA_ERROR_INVALID_VALUE))
                    .hasMessageContaining("host page size " + GpuProcess.HOST_PAGE);
            assertThat(p.cuMemAddressReserve(GpuProcess.HOST_PAGE)).as("one host page is a reservation")
                    .isEqualTo(p.vaBase());
        }

        @Test
        @DisplayName("the VA window ends where x86-64 user space ends: up to its end fits, below it the rest, "
                + "then nothing")
        void vaLimit() {
            GpuProcess p = new Gpu(gib(1)).openToyProcess();
            assertThat(p.vaEnd()).isEqualTo(GpuProcess.UVA_END);
            assertThat(p.vaEnd() - p.vaFloor()).isEqualTo(GpuProcess.WINDOW);
            long first = p.cuMemAddressReserve(PAGE);
            assertThat(first).isEqualTo(p.vaBase());
            long rest = p.vaEnd() - (first + PAGE);
            assertThat(p.cuMemAddressReserve(rest)).as("a reservation up to the window's end")
                    .isEqualTo(first + PAGE);
            long below = p.vaBase() - p.vaFloor();
            assertThatThrownBy(() -> p.cuMemAddressReserve(below + GpuProcess.HOST_PAGE, GpuProcess.HOST_PAGE, 0))
                    .isInstanceOfSatisfying(CudaException.class,
                            e -> assertThat(e.error()).isEqualTo(CudaError.CUDA_ERROR_OUT_OF_MEMORY))
                    .hasMessageContaining("VA window");
            assertThat(p.cuMemAddressReserve(below, GpuProcess.HOST_PAGE, 0)).as("the addresses below the base")
                    .isEqualTo(p.vaFloor());
            assertThatThrownBy(() -> p.cudaMalloc(PAGE)).as("a full window: the runtime call's error")
                    .isInstanceOfSatisfying(CudaException.class,
                            e -> assertThat(e.error()).isEqualTo(CudaError.cudaErrorMemoryAllocation));
        }

        @Test
        @DisplayName("cuMemAddressFree takes only a whole reservation with nothing mapped in it")
        void addressFree() {
            GpuProcess p = new Gpu(gib(1)).openToyProcess();
            long va = p.cuMemAddressReserve(mib(4));
            long h = p.cuMemCreate(PAGE);
            p.cuMemMap(va + PAGE, PAGE, h);
            assertThatThrownBy(() -> p.cuMemAddressFree(va, mib(2))).hasMessageContaining("not a reservation");
            assertThatThrownBy(() -> p.cuMemAddressFree(va, mib(4))).hasMessageContaining("is still live");
            p.cuMemUnmap(va + PAGE, PAGE);
            p.cuMemAddressFree(va, mib(4));
            assertThat(p.isMapped(va + PAGE)).isFalse();
        }

        @Test
        @DisplayName("a mapping at the very start of a reservation is live for cuMemAddressFree")
        void liveAtStart() {
            GpuProcess p = new Gpu(gib(1)).openToyProcess();
            long va = p.cuMemAddressReserve(mib(4));
            p.cuMemMap(va, PAGE, p.cuMemCreate(PAGE));
            assertThat(p.isMapped(va)).isTrue();
            assertThatThrownBy(() -> p.cuMemAddressFree(va, mib(4))).hasMessageContaining("is still live");
        }
    }

    @Nested
    @DisplayName("the GPU")
    class Device {
        @ParameterizedTest(name = "capacity {0}, reserve {1}")
        @CsvSource({"0, 0", "1048576, -1", "1048576, 1048577"})
        @DisplayName("needs a positive capacity and a reserve between 0 and it")
        void refused(long capacity, long reserve) {
            assertThatThrownBy(() -> new Gpu(0, capacity, reserve)).isInstanceOf(IllegalArgumentException.class);
        }

        @Test
        @DisplayName("a reserve of the whole card is legal and leaves nothing free")
        void wholeReserve() {
            Gpu g = new Gpu(0, mib(64), mib(64));
            assertThat(g.driverReserve()).isEqualTo(mib(64));
            assertThat(g.free()).isZero();
            assertThatThrownBy(() -> g.openToyProcess().cudaMalloc(1)).isInstanceOf(CudaException.class);
        }

        @Test
        @DisplayName("machine makes that many GPUs, numbered from 0; none for 0")
        void machine() {
            assertThat(Gpu.machine(3, gib(1), 0)).extracting(Gpu::id).containsExactly(0, 1, 2);
            assertThat(Gpu.machine(0, gib(1), 0)).isEmpty();
        }

        @Test
        @DisplayName("a context is taken at open; one that does not fit is refused and nothing is kept")
        void contexts() {
            Gpu g = new Gpu(0, mib(512), 0);
            GpuProcess a = g.open(1, "a", mib(300));
            assertThat(a.contextBytes()).isEqualTo(mib(300));
            assertThat(a.gpu()).isSameAs(g);
            assertThatThrownBy(() -> g.open(2, "b", mib(300))).isInstanceOf(CudaException.class);
            assertThat(g.free()).isEqualTo(mib(212));
            assertThat(g.processes()).containsExactly(a);
            assertThat(g.open(3, "c", mib(212)).contextBytes()).as("exactly what is left").isEqualTo(mib(212));
            g.checkInvariants();
            assertThat(g.toString()).isEqualTo("GPU 0 (512.00 MiB, 2 processes, 0 bytes free)");
            assertThat(a.toString()).isEqualTo("process 1 (a) on GPU 0");
        }

        @Test
        @DisplayName("a malloc that gets some 2 MiB frames but not all gives back what it took")
        void partialFrames() {
            Gpu g = new Gpu(0, mib(16), 0);                // eight 2 MiB frame runs
            GpuProcess p = g.openToyProcess();
            long[] run = new long[8];
            for (int i = 0; i < 8; i++) run[i] = p.cudaMalloc(mib(2));
            for (int i = 0; i < 8; i += 2) p.cudaFree(run[i]);          // runs 0, 2, 4, 6 free
            long ctx = mib(1) + mib(1) / 16;                              // 1 MiB + 64 KiB
            g.open(2, "c1", ctx);                          // in run 0; its 960 KiB rest fits no context
            g.open(3, "c2", ctx);                          // in run 2
            g.open(4, "c3", mib(1));                       // in run 4: only run 6 is whole
            long free = g.free();
            assertThat(free).as("the budget allows 4 MiB").isGreaterThanOrEqualTo(mib(4));
            assertThatThrownBy(() -> p.cudaMalloc(mib(4))).isInstanceOf(CudaException.class)
                    .hasMessageContaining("no free 2 MiB frame run");
            assertThat(g.free()).as("the run it got went back").isEqualTo(free);
            assertThat(p.cudaMalloc(mib(2))).as("and is there for the next request").isPositive();
            g.checkInvariants();
        }

        @Test
        @DisplayName("page tables are summed over the GPU's processes")
        void pageTables() {
            Gpu g = new Gpu(gib(1));
            GpuProcess a = g.openToyProcess(), b = g.open(2, "b", 0);
            a.cudaMalloc(PAGE);
            b.cudaMalloc(PAGE);
            assertThat(g.pageTableBytes())
                    .isEqualTo(a.addressSpace().pageTableBytes() + b.addressSpace().pageTableBytes())
                    .isGreaterThan(a.addressSpace().pageTableBytes());
        }
    }

    @Nested
    @DisplayName("host memory")
    class Host {
        final HostMemory host = new HostMemory(new Clock(), HostCostModel.DEFAULT);

        @Test
        @DisplayName("each call counts itself; pinned and pageable bytes follow the buffers")
        void counters() {
            HostBuffer a = host.cudaHostAlloc(mib(4));
            HostBuffer b = host.malloc(mib(2));
            host.cudaHostRegister(b);
            assertThat(host.pinnedBytes()).isEqualTo(mib(6));
            assertThat(host.pageableBytes()).isZero();
            host.cudaHostUnregister(b);
            assertThat(host.pageableBytes()).isEqualTo(mib(2));
            host.free(b);
            host.cudaFreeHost(a);
            assertThat(host.pinnedBytes()).isZero();
            assertThat(host.pageableBytes()).isZero();
            assertThat(new long[] {host.hostAllocCalls(), host.freeHostCalls(), host.registerCalls(),
                host.unregisterCalls()}).containsExactly(1, 1, 1, 1);
            assertThat(host.clock()).isNotNull();
            assertThat(host.cost()).isNotNull();
            host.checkInvariants();
        }

        @Test
        @DisplayName("sizes must be positive; a buffer must be live and of the call's kind")
        void misuse() {
            assertThatThrownBy(() -> host.cudaHostAlloc(0))
                    .hasMessageContaining("cudaHostAlloc: size must be positive");
            assertThatThrownBy(() -> host.malloc(0)).hasMessageContaining("malloc: size must be positive");
            HostBuffer pinned = host.cudaHostAlloc(mib(1));
            assertThatThrownBy(() -> host.cudaHostRegister(pinned)).hasMessageContaining("expected a PAGEABLE buffer");
            assertThatThrownBy(() -> host.cudaHostUnregister(pinned))
                    .hasMessageContaining("expected a REGISTERED buffer");
            assertThatThrownBy(() -> host.free(pinned)).hasMessageContaining("expected a PAGEABLE buffer");
            host.cudaFreeHost(pinned);
            assertThatThrownBy(() -> host.cudaFreeHost(pinned)).hasMessageContaining("not a live host buffer");
            assertThat(host.cudaHostAlloc(1).size()).isEqualTo(1);
        }
    }
}
