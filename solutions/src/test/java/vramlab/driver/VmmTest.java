package vramlab.driver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static vramlab.units.Bytes.gib;
import static vramlab.units.Bytes.mib;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import vramlab.gmmu.Access;
import vramlab.gmmu.PageFault;
import vramlab.units.Bytes;

@DisplayName("The VMM calls follow the CUDA driver API's rules")
class VmmTest {
    Gpu gpu;
    GpuProcess p;

    @BeforeEach
    void open() {
        gpu = new Gpu(mib(64));
        p = gpu.openToyProcess();
    }

    private void fails(Runnable call, CudaError code, String words) {
        assertThatThrownBy(call::run).isInstanceOfSatisfying(CudaException.class,
                e -> assertThat(e.error()).isEqualTo(code)).hasMessageContaining(words);
        gpu.checkInvariants();
    }

    @Nested
    @DisplayName("VA: the GMMU decodes 512 TiB, but a process's VA ends at x86-64's 128 TiB")
    class Uva {
        @Test
        @DisplayName("512 GiB of VA on an 80 GiB card: no frames, no tables; 81 GiB of memory: no")
        void vaIsNotScarce() {
            Gpu big = new Gpu(0, gib(80), 0);
            GpuProcess q = big.openToyProcess();
            long va = q.cuMemAddressReserve(gib(512));
            assertThat(q.addressSpace().tableCount()).as("a reservation writes no page tables").isEqualTo(1);
            assertThat(big.free()).isEqualTo(gib(80));
            assertThatThrownBy(() -> q.cuMemCreate(gib(81))).isInstanceOfSatisfying(CudaException.class,
                    e -> assertThat(e.error()).isEqualTo(CudaError.CUDA_ERROR_OUT_OF_MEMORY));
            q.cuMemAddressFree(va, gib(512));
        }

        @Test
        @DisplayName("the window ends at 2^47 - 4 KiB (TASK_SIZE_MAX), far below the GMMU's 2^49")
        void ceiling() {
            Gpu big = new Gpu(0, gib(80), 0);
            GpuProcess q = big.openToyProcess();
            assertThat(big.format().vaLimit()).isEqualTo(512 * Bytes.TiB);
            assertThat(q.vaEnd()).isEqualTo((1L << 47) - 4096).isEqualTo(0x7ffffffff000L);
            assertThat(q.vaBase()).isEqualTo(GpuProcess.VA_BASE);
            assertThatThrownBy(() -> q.cuMemAddressReserve(100 * Bytes.TiB))
                    .isInstanceOfSatisfying(CudaException.class,
                            e -> assertThat(e.error()).isEqualTo(CudaError.CUDA_ERROR_OUT_OF_MEMORY))
                    .hasMessageContaining("128 TiB");
            long top = q.vaEnd() - q.vaBase();                       // 984 GiB - 4 KiB
            long all = q.cuMemAddressReserve(top, 4096, 0);
            assertThat(all).isEqualTo(GpuProcess.VA_BASE);
            long below = q.cuMemAddressReserve(4096);
            assertThat(below).as("once the top is taken, the window's lower part is used")
                    .isGreaterThanOrEqualTo(q.vaFloor()).isLessThan(GpuProcess.VA_BASE);
            assertThat(q.vaEnd() - q.vaFloor()).isEqualTo(7 * Bytes.TiB);
            q.cuMemAddressFree(below, 4096);
            long rest = GpuProcess.VA_BASE - q.vaFloor();
            long low = q.cuMemAddressReserve(rest, 4096, 0);
            assertThatThrownBy(() -> q.cuMemAddressReserve(4096)).isInstanceOf(CudaException.class);
            assertThatThrownBy(() -> q.cudaMalloc(mib(2))).isInstanceOfSatisfying(CudaException.class,
                    e -> assertThat(e.error()).isEqualTo(CudaError.cudaErrorMemoryAllocation));
            q.cuMemAddressFree(low, rest);
            q.cuMemAddressFree(all, top);
            assertThat(q.cuMemAddressReserve(gib(900))).as("freed VA is reused").isEqualTo(GpuProcess.VA_BASE);
            big.checkInvariants();
        }

        @Test
        @DisplayName("a Hopper (57-bit) GMMU does not move the ceiling: it is the host's")
        void hopper() {
            Gpu h = new Gpu(0, gib(80), 0, vramlab.gmmu.MmuFormat.VER3);
            GpuProcess q = h.openToyProcess();
            assertThat(h.format().vaLimit()).isEqualTo(1L << 57);
            assertThat(q.vaEnd()).isEqualTo(GpuProcess.UVA_END);
            assertThatThrownBy(() -> q.cuMemAddressReserve(8 * Bytes.TiB)).isInstanceOf(CudaException.class);
        }

        @Test
        @DisplayName("the devices of one machine get disjoint windows, all below 128 TiB")
        void devices() {
            var gpus = Gpu.machine(16, gib(1), 0);
            long end = GpuProcess.UVA_END;
            for (Gpu g : gpus) {
                GpuProcess q = g.open(7, "ddp", 0);
                assertThat(q.vaEnd()).isLessThanOrEqualTo(end);
                assertThat(q.vaBase()).isEqualTo(GpuProcess.VA_BASE - g.id() * 7 * Bytes.TiB);
                assertThat(q.vaFloor()).isPositive().isLessThan(q.vaBase());
                end = q.vaFloor();
            }
        }
    }

    @Nested
    @DisplayName("cuMemAddressReserve(size, alignment, addr), as the driver API documents it")
    class Reserve {
        @Test
        @DisplayName("size and address are host-page (4 KiB) multiples, not 2 MiB ones")
        void hostPages() {
            long a = p.cuMemAddressReserve(mib(3));
            long b = p.cuMemAddressReserve(12 * 1024);
            assertThat(a % mib(2)).as("the kit's default alignment: the granularity").isZero();
            assertThat(b).isGreaterThanOrEqualTo(a + mib(3));
            fails(() -> p.cuMemAddressReserve(6912), CudaError.CUDA_ERROR_INVALID_VALUE, "host page size");
            fails(() -> p.cuMemAddressReserve(0), CudaError.CUDA_ERROR_INVALID_VALUE, "host page size");
            fails(() -> p.cuMemAddressReserve(mib(2), 0, 0x7f0a00000100L), CudaError.CUDA_ERROR_INVALID_VALUE,
                    "host page size");
        }

        @Test
        @DisplayName("the alignment is a power of two or 0, and it is honoured")
        void alignment() {
            fails(() -> p.cuMemAddressReserve(mib(2), 3 * mib(2), 0), CudaError.CUDA_ERROR_INVALID_VALUE,
                    "power of two");
            p.cuMemAddressReserve(mib(2));
            long a = p.cuMemAddressReserve(mib(2), gib(1), 0);
            assertThat(a % gib(1)).isZero();
            gpu.checkInvariants();
        }

        @Test
        @DisplayName("addr is a hint: taken when that range is free, else the driver picks another")
        void hint() {
            long want = GpuProcess.VA_BASE + gib(4);
            assertThat(p.cuMemAddressReserve(mib(4), 0, want)).isEqualTo(want);
            long other = p.cuMemAddressReserve(mib(4), 0, want);
            assertThat(other).isNotEqualTo(want);
            assertThat(other + mib(4) <= want || other >= want + mib(4)).as("no overlap").isTrue();
            gpu.checkInvariants();
        }

        @Test
        @DisplayName("cuMemMap still needs granularity (2 MiB) alignment inside the reservation")
        void mapNeedsGranularity() {
            long r = p.cuMemAddressReserve(mib(6), 4096, GpuProcess.VA_BASE + 4096);
            long h = p.cuMemCreate(mib(2));
            fails(() -> p.cuMemMap(r, mib(2), h), CudaError.CUDA_ERROR_INVALID_VALUE, "granularity-aligned");
            long aligned = Bytes.alignUp(r, mib(2));
            p.cuMemMap(aligned, mib(2), h);
            gpu.checkInvariants();
        }
    }

    @Nested
    @DisplayName("the canonical sequence reserve, create, map, set access, unmap, release, free")
    class Sequence {
        @Test
        @DisplayName("maps without access; cuMemSetAccess makes the range readable")
        void mapThenAccess() {
            long va = p.cuMemAddressReserve(mib(8));
            long h = p.cuMemCreate(mib(4));
            p.cuMemMap(va, mib(4), h);
            assertThatThrownBy(() -> p.translate(va)).isInstanceOf(PageFault.class).hasMessageContaining("no access");
            p.cuMemSetAccess(va, mib(4), Access.READWRITE);
            assertThat(p.translate(va + mib(3)).pte().access()).isEqualTo(Access.READWRITE);
            gpu.checkInvariants();
        }

        @Test
        @DisplayName("release before unmap keeps the memory until the unmap")
        void releaseFirst() {
            long va = p.cuMemAddressReserve(mib(4));
            long h = p.cuMemCreate(mib(4));
            p.cuMemMap(va, mib(4), h);
            p.cuMemRelease(h);
            assertThat(p.mappedBytes()).isEqualTo(mib(4));
            assertThat(gpu.free()).isEqualTo(mib(60));
            p.cuMemUnmap(va, mib(4));
            assertThat(p.mappedBytes()).isZero();
            assertThat(gpu.free()).isEqualTo(mib(64));
            p.cuMemAddressFree(va, mib(4));
            gpu.checkInvariants();
        }

        @Test
        @DisplayName("after an unmap a remap starts again with no access")
        void remapHasNoAccess() {
            long va = p.cuMemAddressReserve(mib(2));
            long h = p.cuMemCreate(mib(2));
            p.cuMemMap(va, mib(2), h);
            p.cuMemSetAccess(va, mib(2), Access.READWRITE);
            p.cuMemUnmap(va, mib(2));
            p.cuMemMap(va, mib(2), h);
            assertThatThrownBy(() -> p.translate(va)).isInstanceOf(PageFault.class);
        }

        @Test
        @DisplayName("one cuMemUnmap may cover several whole mappings")
        void unmapTwoWhole() {
            long va = p.cuMemAddressReserve(mib(4));
            long h1 = p.cuMemCreate(mib(2));
            long h2 = p.cuMemCreate(mib(2));
            p.cuMemMap(va, mib(2), h1);
            p.cuMemMap(va + mib(2), mib(2), h2);
            p.cuMemUnmap(va, mib(4));
            assertThat(p.addressSpace().mappedBytes()).isZero();
            gpu.checkInvariants();
        }
    }

    @Nested
    @DisplayName("misuse fails the way CUDA fails")
    class Misuse {
        @Test
        @DisplayName("a size off the granularity: CUDA_ERROR_INVALID_VALUE (cuMemCreate of 6912 B, 3 MiB)")
        void unaligned() {
            fails(() -> p.cuMemCreate(6912), CudaError.CUDA_ERROR_INVALID_VALUE, "granularity");
            fails(() -> p.cuMemCreate(mib(3)), CudaError.CUDA_ERROR_INVALID_VALUE, "granularity");
        }

        @Test
        @DisplayName("a partial unmap: CUDA_ERROR_INVALID_VALUE, and the mapping stays")
        void partialUnmap() {
            long va = p.cuMemAddressReserve(mib(4));
            long h = p.cuMemCreate(mib(4));
            p.cuMemMap(va, mib(4), h);
            fails(() -> p.cuMemUnmap(va, mib(2)), CudaError.CUDA_ERROR_INVALID_VALUE, "sub-range");
            fails(() -> p.cuMemUnmap(va + mib(2), mib(2)), CudaError.CUDA_ERROR_INVALID_VALUE, "sub-range");
            assertThat(p.addressSpace().mappedBytes()).isEqualTo(mib(4));
        }

        @Test
        @DisplayName("mapping over a mapping is refused")
        void mapOverMap() {
            long va = p.cuMemAddressReserve(mib(8));
            long h1 = p.cuMemCreate(mib(4));
            long h2 = p.cuMemCreate(mib(4));
            p.cuMemMap(va, mib(4), h1);
            fails(() -> p.cuMemMap(va + mib(2), mib(4), h2), CudaError.CUDA_ERROR_ALREADY_MAPPED, "overlaps");
            fails(() -> p.cuMemMap(va, mib(4), h2), CudaError.CUDA_ERROR_ALREADY_MAPPED, "overlaps");
        }

        @Test
        @DisplayName("mapping outside a reservation, or a wrong size: CUDA_ERROR_INVALID_VALUE")
        void outside() {
            long va = p.cuMemAddressReserve(mib(2));
            long h = p.cuMemCreate(mib(4));
            fails(() -> p.cuMemMap(va, mib(4), h), CudaError.CUDA_ERROR_INVALID_VALUE, "inside a reservation");
            fails(() -> p.cuMemMap(va, mib(2), h), CudaError.CUDA_ERROR_INVALID_VALUE, "handle's size");
            fails(() -> p.cuMemMap(va, mib(2), 999), CudaError.CUDA_ERROR_INVALID_HANDLE, "handle 999");
        }

        @Test
        @DisplayName("freeing a reservation with live mappings is refused until they are unmapped")
        void freeWithMappings() {
            long va = p.cuMemAddressReserve(mib(4));
            long h = p.cuMemCreate(mib(2));
            p.cuMemMap(va + mib(2), mib(2), h);
            fails(() -> p.cuMemAddressFree(va, mib(4)), CudaError.CUDA_ERROR_INVALID_VALUE, "still live");
            fails(() -> p.cuMemAddressFree(va, mib(2)), CudaError.CUDA_ERROR_INVALID_VALUE, "not a reservation");
            p.cuMemUnmap(va + mib(2), mib(2));
            p.cuMemAddressFree(va, mib(4));
        }

        @Test
        @DisplayName("cuMemSetAccess on a range that is not fully mapped: CUDA_ERROR_INVALID_VALUE")
        void accessUnmapped() {
            long va = p.cuMemAddressReserve(mib(4));
            long h = p.cuMemCreate(mib(2));
            p.cuMemMap(va, mib(2), h);
            fails(() -> p.cuMemSetAccess(va, mib(4), Access.READWRITE), CudaError.CUDA_ERROR_INVALID_VALUE,
                    "is not mapped");
            assertThatThrownBy(() -> p.translate(va)).as("nothing was granted").isInstanceOf(PageFault.class);
        }

        @Test
        @DisplayName("releasing a handle twice: CUDA_ERROR_INVALID_HANDLE (the kit's code for CUDA's undefined behaviour)")
        void doubleRelease() {
            long h = p.cuMemCreate(mib(2));
            p.cuMemRelease(h);
            fails(() -> p.cuMemRelease(h), CudaError.CUDA_ERROR_INVALID_HANDLE, "cuMemRelease");
        }
    }
}
