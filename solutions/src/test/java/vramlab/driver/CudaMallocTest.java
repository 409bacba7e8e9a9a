package vramlab.driver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static vramlab.units.Bytes.gib;
import static vramlab.units.Bytes.kib;
import static vramlab.units.Bytes.mib;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import vramlab.gmmu.Aperture;
import vramlab.gmmu.PageFault;
import vramlab.gmmu.PageSize;

@DisplayName("cudaMalloc and cudaFree on the GMMU")
class CudaMallocTest {

    // Large requests: whole 2 MiB pages. Observed, not documented; the rows are the measured
    // ones of JustVugg/colibri PR #1244 (RTX 3090, CUDA 13.1), plus 3 MiB + 1 B and 20 MiB.
    @ParameterizedTest(name = "cudaMalloc({0} B) maps {1} MiB")
    @CsvSource(textBlock = """
            1048577,  2
            1572864,  2
            2097152,  2
            2097153,  4
            3145729,  4
            6291456,  6
            20971520, 20
            """)
    @DisplayName("rounds a request over 1 MiB up to whole 2 MiB pages (the rounding tax)")
    void roundingTax(long size, long mapped) {
        Gpu gpu = new Gpu(mib(40));
        GpuProcess p = gpu.openToyProcess();
        long ptr = p.cudaMalloc(size);
        assertThat(p.allocationSize(ptr)).isEqualTo(mib(mapped));
        assertThat(p.isPacked(ptr)).isFalse();
        assertThat(gpu.free()).isEqualTo(mib(40) - mib(mapped));
        assertThat(p.addressSpace().mappedBytes()).isEqualTo(mib(mapped));
        gpu.checkInvariants();
    }

    @Nested
    @DisplayName("small requests are packed into shared 2 MiB pages (observed, not documented)")
    class Small {
        final Gpu gpu = new Gpu(mib(40));
        final GpuProcess p = gpu.openToyProcess();

        @ParameterizedTest(name = "cudaMalloc({0} B) takes a {1} B slice")
        @CsvSource(textBlock = """
                1,       512
                64,      512
                512,     512
                513,     1024
                6912,    7168
                786432,  786432
                1048576, 1048576
                """)
        @DisplayName("a request up to 1 MiB takes a 512 B-aligned slice; the first maps one page")
        void slice(long size, long slice) {
            long ptr = p.cudaMalloc(size);
            assertThat(p.isPacked(ptr)).isTrue();
            assertThat(p.allocationSize(ptr)).isEqualTo(slice);
            assertThat(ptr % 256).as("CUDA's documented 256 B alignment").isZero();
            assertThat(gpu.free()).isEqualTo(mib(38));
            assertThat(p.sharedPages()).isEqualTo(1);
            gpu.checkInvariants();
        }

        @Test
        @DisplayName("back-to-back small allocations lie 512 B apart in one page (cupy PR #176)")
        void backToBack() {
            long a = p.cudaMalloc(1);
            long b = p.cudaMalloc(1);
            long c = p.cudaMalloc(100);
            assertThat(b - a).isEqualTo(512);
            assertThat(c - b).isEqualTo(512);
            assertThat(p.translate(a).pte()).isEqualTo(p.translate(c).pte());
        }

        @Test
        @DisplayName("a slice cut from the middle of three free runs keeps the rest of that run free")
        void firstFitKeepsTheRemainder() {
            long a = p.cudaMalloc(kib(256));
            p.cudaMalloc(kib(512));
            long c = p.cudaMalloc(kib(768));
            p.cudaMalloc(kib(256));                       // the page's last 256 KiB stay free
            p.cudaFree(a);
            p.cudaFree(c);                                 // free runs: 256 KiB, 768 KiB, 256 KiB
            assertThat(p.cudaMalloc(kib(512))).as("first fit: the middle run").isEqualTo(c);
            assertThat(p.cudaMalloc(kib(256))).as("then the first run").isEqualTo(a);
            assertThat(p.cudaMalloc(kib(256))).as("then what the middle run kept").isEqualTo(c + kib(512));
            assertThat(p.sharedPages()).isEqualTo(1);
            gpu.checkInvariants();
        }

        @Test
        @DisplayName("a hundred cudaMalloc(64) map one 2 MiB page, not a hundred")
        void aHundredTiny() {
            for (int i = 0; i < 100; i++) p.cudaMalloc(64);
            assertThat(p.mappedBytes()).isEqualTo(mib(2));
            assertThat(p.cudaMemGetInfo().free()).isEqualTo(mib(38));
            assertThat(p.driverPages(DriverCall.CUDA_MALLOC)).isEqualTo(1);
            gpu.checkInvariants();
        }

        @Test
        @DisplayName("4096 slices of 512 B fill a page; the next request maps a second one")
        void fillAPage() {
            for (int i = 0; i < 4096; i++) p.cudaMalloc(512);
            assertThat(p.sharedPages()).isEqualTo(1);
            p.cudaMalloc(1);
            assertThat(p.sharedPages()).isEqualTo(2);
            assertThat(gpu.free()).isEqualTo(mib(36));
            gpu.checkInvariants();
        }

        @Test
        @DisplayName("two 1 MiB requests share a page (1 MiB costs 1 MiB); a third maps another")
        void twoMegabyteHalves() {
            long a = p.cudaMalloc(mib(1));
            long b = p.cudaMalloc(mib(1));
            assertThat(b - a).isEqualTo(mib(1));
            assertThat(p.sharedPages()).isEqualTo(1);
            p.cudaMalloc(mib(1));
            assertThat(p.sharedPages()).isEqualTo(2);
        }

        @Test
        @DisplayName("a freed slice is reused; the page goes back to the driver with its last slice")
        void freeAndReuse() {
            long a = p.cudaMalloc(1000);
            long b = p.cudaMalloc(1000);
            p.cudaFree(a);
            assertThat(p.sharedPages()).as("b still lives there").isEqualTo(1);
            assertThat(p.cudaMalloc(600)).as("first fit: a's slice again").isEqualTo(a);
            p.cudaFree(a);
            p.cudaFree(b);
            assertThat(p.sharedPages()).isZero();
            assertThat(gpu.free()).isEqualTo(mib(40));
            assertThat(p.addressSpace().tableCount()).isEqualTo(1);
            assertThat(p.driverPages(DriverCall.CUDA_FREE)).isEqualTo(1);
            assertThatThrownBy(() -> p.translate(b)).isInstanceOf(PageFault.class);
            gpu.checkInvariants();
        }

        @ParameterizedTest(name = "seed {0}")
        @ValueSource(longs = {1, 2, 3})
        @DisplayName("without frees, the pages used are what first-fit bin packing of the slices needs")
        void againstFirstFitBins(long seed) {
            Random rnd = new Random(seed);
            Gpu big = new Gpu(gib(1));
            GpuProcess q = big.openToyProcess();
            List<Long> bins = new ArrayList<>();                 // room left in each page, in order
            for (int i = 0; i < 1000; i++) {
                long size = 1 + rnd.nextInt(rnd.nextBoolean() ? 8192 : (int) mib(1));
                long slice = (size + 511) / 512 * 512;
                int bin = 0;
                while (bin < bins.size() && bins.get(bin) < slice) bin++;
                if (bin == bins.size()) bins.add(mib(2));
                bins.set(bin, bins.get(bin) - slice);
                q.cudaMalloc(size);
            }
            assertThat(q.sharedPages()).isEqualTo(bins.size());
            assertThat(big.free()).isEqualTo(gib(1) - bins.size() * mib(2));
            big.checkInvariants();
        }
    }

    @Test
    @DisplayName("3 MiB + 1 B is two 2M PTEs to two frames of this GPU, readable and writable")
    void twoPtes() {
        Gpu gpu = new Gpu(mib(40));
        GpuProcess p = gpu.openToyProcess();
        long ptr = p.cudaMalloc(mib(3) + 1);
        var first = p.translate(ptr);
        var second = p.translate(ptr + mib(3));
        assertThat(first.pte().size()).isEqualTo(PageSize.SIZE_2M);
        assertThat(first.aperture()).isEqualTo(Aperture.VIDEO_MEMORY);
        assertThat(second.physical() % mib(2)).isEqualTo(mib(1));
        assertThat(second.pte().address()).isNotEqualTo(first.pte().address());
        assertThatThrownBy(() -> p.translate(ptr + mib(4))).isInstanceOf(PageFault.class);
    }

    @Test
    @DisplayName("cudaFree unmaps: the pointer faults, and its frames and page tables are back")
    void freeGivesBack() {
        Gpu gpu = new Gpu(mib(40));
        GpuProcess p = gpu.openToyProcess();
        long ptr = p.cudaMalloc(mib(10));
        p.cudaFree(ptr);
        gpu.checkInvariants();
        assertThat(gpu.free()).isEqualTo(mib(40));
        assertThat(gpu.pool().usedBytes()).isZero();
        assertThat(p.addressSpace().tableCount()).isEqualTo(1);
        assertThatThrownBy(() -> p.translate(ptr)).isInstanceOf(PageFault.class);
    }

    @Nested
    @DisplayName("cudaFree as the CUDA Runtime API documents it")
    class Free {
        final Gpu gpu = new Gpu(mib(40));
        final GpuProcess p = gpu.openToyProcess();

        @Test
        @DisplayName("a pointer that is not an allocation, or one freed twice: cudaErrorInvalidValue")
        void notAnAllocation() {
            long ptr = p.cudaMalloc(mib(4));
            assertThatThrownBy(() -> p.cudaFree(ptr + 512)).isInstanceOfSatisfying(CudaException.class,
                    e -> assertThat(e.error()).isEqualTo(CudaError.cudaErrorInvalidValue));
            p.cudaFree(ptr);
            assertThatThrownBy(() -> p.cudaFree(ptr)).isInstanceOfSatisfying(CudaException.class,
                    e -> assertThat(e.error()).isEqualTo(CudaError.cudaErrorInvalidValue));
            gpu.checkInvariants();
        }

        @Test
        @DisplayName("cudaFree(0) is no operation: no error, nothing freed, no call booked")
        void nullIsNoOp() {
            p.cudaMalloc(mib(4));
            p.cudaFree(0);
            assertThat(p.mappedBytes()).isEqualTo(mib(4));
            assertThat(p.driverCalls(DriverCall.CUDA_FREE)).isZero();
            gpu.checkInvariants();
        }
    }

    @Test
    @DisplayName("on a Hopper-format GPU the same cudaMalloc is found one level further down")
    void hopper() {
        Gpu gpu = new Gpu(0, mib(64), 0, vramlab.gmmu.MmuFormat.VER3);
        GpuProcess p = gpu.openToyProcess();
        long ptr = p.cudaMalloc(mib(2));
        assertThat(p.walk(ptr).steps()).extracting(s -> s.level())
                .containsExactly("PDE4", "PDE3", "PDE2", "PDE1", "PDE0");
        gpu.checkInvariants();
    }

    @Test
    @DisplayName("more than is free fails with cudaErrorMemoryAllocation and changes nothing")
    void oom() {
        Gpu gpu = new Gpu(mib(40));
        GpuProcess p = gpu.openToyProcess();
        p.cudaMalloc(mib(30));
        assertThatThrownBy(() -> p.cudaMalloc(mib(12)))
                .isInstanceOfSatisfying(CudaException.class, e -> assertThat(e.isOutOfMemory()).isTrue());
        assertThat(gpu.free()).isEqualTo(mib(10));
        gpu.checkInvariants();
    }

    @Nested
    @DisplayName("processes, contexts and the driver reserve")
    class Processes {
        @Test
        @DisplayName("the reserve is gone at boot; each context is gone at open; all share one pool")
        void budget() {
            Gpu gpu = new Gpu(0, gib(80), mib(512));
            assertThat(gpu.free()).isEqualTo(gib(80) - mib(512));
            GpuProcess a = gpu.open(100, "train", mib(300));
            GpuProcess b = gpu.open(200, "notebook", mib(300));
            a.cudaMalloc(gib(10));
            b.cudaMalloc(gib(1));
            assertThat(a.cudaMemGetInfo().free()).isEqualTo(b.cudaMemGetInfo().free())
                    .isEqualTo(gib(80) - mib(512) - mib(600) - gib(11));
            assertThat(gpu.pool().usedBytes()).isEqualTo(mib(512) + mib(600) + gib(11));
            gpu.checkInvariants();
        }

        @Test
        @DisplayName("cudaMemGetInfo's total is the capacity less the driver reserve (cuDeviceTotalMem)")
        void totalLeavesOutTheReserve() {
            Gpu gpu = new Gpu(0, mib(100), mib(10));
            GpuProcess p = gpu.open(42, "train.py", mib(30));
            assertThat(gpu.totalMemory()).isEqualTo(mib(90));
            assertThat(p.cudaMemGetInfo()).isEqualTo(new GpuProcess.MemInfo(mib(60), mib(90)));
            assertThat(gpu.capacity()).as("NVML's total: the board").isEqualTo(mib(100));
            assertThat(p.cudaMemGetInfo().total() - p.cudaMemGetInfo().free())
                    .as("total - free is what processes hold, the reserve not among it")
                    .isEqualTo(p.physicalBytes());
        }

        @Test
        @DisplayName("nvidia-smi charges a process its mappings plus its context, not its tensors")
        void smi() {
            Gpu gpu = new Gpu(0, gib(80), mib(512));
            GpuProcess a = gpu.open(4242, "python", mib(500));
            a.cudaMalloc(mib(3) + 1);                        // a 3 MiB tensor
            assertThat(NvidiaSmi.row(a)).isEqualTo("4242, python, 504 MiB");
            assertThat(NvidiaSmi.queryComputeApps(List.of(gpu)))
                    .startsWith(NvidiaSmi.HEADER + "\n").contains("4242, python, 504 MiB");
        }

        @Test
        @DisplayName("closing a process returns its allocations, handles and context")
        void close() {
            Gpu gpu = new Gpu(0, gib(4), mib(256));
            GpuProcess a = gpu.open(1, "a", mib(300));
            a.cudaMalloc(mib(100));
            long h = a.cuMemCreate(mib(4));
            long va = a.cuMemAddressReserve(mib(4));
            a.cuMemMap(va, mib(4), h);
            gpu.close(a);
            gpu.checkInvariants();
            assertThat(gpu.free()).isEqualTo(gib(4) - mib(256));
            assertThat(gpu.pool().usedBytes()).isEqualTo(mib(256));
            assertThat(gpu.processes()).isEmpty();
        }
    }

    @Nested
    @DisplayName("the cost model (order of magnitude only)")
    class Cost {
        final CostModel m = new CostModel(10, 1, 100);

        @Test
        @DisplayName("a call costs its fixed part plus its pages; cudaFree adds the device sync")
        void perCall() {
            assertThat(m.micros(DriverCall.CUDA_MALLOC, 2)).isEqualTo(12.0);
            assertThat(m.micros(DriverCall.CUDA_FREE, 2)).isEqualTo(112.0);
            assertThat(m.micros(DriverCall.CU_MEM_ADDRESS_RESERVE, 0)).isEqualTo(10.0);
        }

        @Test
        @DisplayName("cuMemUnmap is synchronous too (the driver API's note), the other VMM calls not")
        void unmapSyncs() {
            assertThat(m.micros(DriverCall.CU_MEM_UNMAP, 1)).isEqualTo(111.0);
            assertThat(m.micros(DriverCall.CU_MEM_MAP, 1)).isEqualTo(11.0);
            assertThat(m.micros(DriverCall.CU_MEM_RELEASE, 0)).isEqualTo(10.0);
        }

        @Test
        @DisplayName("a thousand 2 MiB tensors through the driver cost a thousand calls each way")
        void perTensor() {
            Gpu gpu = new Gpu(gib(4));
            GpuProcess p = gpu.openToyProcess();
            List<Long> ptrs = new ArrayList<>();
            for (int i = 0; i < 1000; i++) ptrs.add(p.cudaMalloc(mib(2)));
            ptrs.forEach(p::cudaFree);
            assertThat(p.driverCalls(DriverCall.CUDA_MALLOC)).isEqualTo(1000);
            assertThat(p.driverPages(DriverCall.CUDA_FREE)).isEqualTo(1000);
            // 1000 x (10 + 1) for the mallocs, 1000 x (10 + 1 + 100) for the frees
            assertThat(m.totalMicros(p)).isEqualTo(1000 * 11.0 + 1000 * 111.0);
        }

        @Test
        @DisplayName("a thousand 1 MiB tensors: a thousand calls each way, but two per page")
        void perSmallTensor() {
            Gpu gpu = new Gpu(gib(4));
            GpuProcess p = gpu.openToyProcess();
            List<Long> ptrs = new ArrayList<>();
            for (int i = 0; i < 1000; i++) ptrs.add(p.cudaMalloc(mib(1)));
            ptrs.forEach(p::cudaFree);
            assertThat(p.driverCalls(DriverCall.CUDA_FREE)).isEqualTo(1000);
            assertThat(p.driverPages(DriverCall.CUDA_MALLOC)).isEqualTo(500);
            assertThat(p.driverPages(DriverCall.CUDA_FREE)).isEqualTo(500);
            assertThat(m.totalMicros(p)).isEqualTo(1000 * 10.0 + 500 + 1000 * 110.0 + 500);
        }
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {5, 17, 123})
    @DisplayName("random cudaMalloc/cudaFree by three processes keep every invariant")
    void randomProcesses(long seed) {
        Random rnd = new Random(seed);
        Gpu gpu = new Gpu(0, mib(256), mib(16));
        List<GpuProcess> ps = List.of(gpu.open(1, "a", mib(8)), gpu.open(2, "b", 0), gpu.open(3, "c", mib(2)));
        List<long[]> live = new ArrayList<>();                    // {process index, ptr}
        for (int i = 0; i < 500; i++) {
            if (!live.isEmpty() && rnd.nextInt(3) == 0) {
                long[] x = live.remove(rnd.nextInt(live.size()));
                ps.get((int) x[0]).cudaFree(x[1]);
            } else {
                int who = rnd.nextInt(3);
                try {
                    live.add(new long[] {who, ps.get(who).cudaMalloc(1 + rnd.nextInt((int) mib(9)))});
                } catch (CudaException e) {
                    assertThat(e.isOutOfMemory()).isTrue();
                }
            }
            gpu.checkInvariants();
        }
        for (GpuProcess p : ps) gpu.close(p);
        gpu.checkInvariants();
        assertThat(gpu.pool().usedBytes()).as("only the reserve").isEqualTo(mib(16));
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
    @DisplayName("tryCudaMalloc answers 0 exactly where cudaMalloc runs out, and leaves the same state as it")
    void tryCudaMallocIsCudaMallocWithoutTheError(long seed) {
        Random rnd = new Random(seed);
        // twin GPUs driven alike; contexts of odd sizes leave granules part-used, so that the
        // frames can run out while the budget still has room, besides the budget itself
        Gpu thrown = new Gpu(0, mib(97), mib(3));
        Gpu answered = new Gpu(0, mib(97), mib(3));
        List<GpuProcess> ps = List.of(thrown.open(1, "a", mib(5)), thrown.open(2, "b", kib(192)));
        List<GpuProcess> qs = List.of(answered.open(1, "a", mib(5)), answered.open(2, "b", kib(192)));
        List<long[]> live = new ArrayList<>();                    // {process index, ptr}
        int ooms = 0;
        for (int i = 0; i < 2000; i++) {
            if (!live.isEmpty() && rnd.nextInt(3) == 0) {
                long[] x = live.remove(rnd.nextInt(live.size()));
                ps.get((int) x[0]).cudaFree(x[1]);
                qs.get((int) x[0]).cudaFree(x[1]);
            } else {
                int who = rnd.nextInt(2);
                long size = rnd.nextInt(4) == 0 ? 1 + rnd.nextInt((int) mib(1)) : 1 + rnd.nextInt((int) mib(24));
                long expected;
                try {
                    expected = ps.get(who).cudaMalloc(size);
                } catch (CudaException e) {
                    assertThat(e.isOutOfMemory()).isTrue();
                    expected = 0;
                }
                long got = qs.get(who).tryCudaMalloc(size);
                assertThat(got).as("step %d: tryCudaMalloc(%d)", i, size).isEqualTo(expected);
                if (got == 0) ooms++;
                else live.add(new long[] {who, got});
            }
            assertThat(answered.free()).isEqualTo(thrown.free());
            for (int k = 0; k < 2; k++) {
                assertThat(qs.get(k).cudaMallocCalls()).isEqualTo(ps.get(k).cudaMallocCalls());
                assertThat(qs.get(k).window().gaps().gaps()).isEqualTo(ps.get(k).window().gaps().gaps());
            }
            if (i % 50 == 0) {
                thrown.checkInvariants();
                answered.checkInvariants();
            }
        }
        answered.checkInvariants();
        assertThat(ooms).as("the run must reach the out-of-memory answers it compares").isGreaterThan(50);
    }

    @Test
    @DisplayName("tryCudaMalloc still throws what is not running out, and 0 is never a pointer")
    void tryCudaMallocErrors() {
        Gpu gpu = new Gpu(mib(40));
        GpuProcess p = gpu.openToyProcess();
        assertThatThrownBy(() -> p.tryCudaMalloc(0)).isInstanceOf(CudaException.class)
                .satisfies(e -> assertThat(((CudaException) e).error()).isEqualTo(CudaError.cudaErrorInvalidValue));
        assertThat(p.tryCudaMalloc(mib(41))).isZero();
        assertThat(gpu.free()).isEqualTo(mib(40));
        long ptr = p.tryCudaMalloc(mib(40));
        assertThat(ptr).isNotZero();
        assertThat(p.tryCudaMalloc(1)).as("a small request with no page left").isZero();
        gpu.close(p);
        assertThatThrownBy(() -> p.tryCudaMalloc(mib(2))).isInstanceOf(IllegalStateException.class);
    }
}
