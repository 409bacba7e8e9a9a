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

    @Test
    @DisplayName("reserving 100 TiB of VA on an 80 GiB card works; committing 81 GiB does not")
    void vaIsNotScarce() {
        Gpu big = new Gpu(0, gib(80), 0);
        GpuProcess q = big.openToyProcess();
        long va = q.cuMemAddressReserve(100 * Bytes.TiB);
        assertThat(va).isPositive();
        assertThat(q.addressSpace().tableCount()).as("a reservation writes no page tables").isEqualTo(1);
        assertThatThrownBy(() -> q.cuMemCreate(gib(81))).isInstanceOfSatisfying(CudaException.class,
                e -> assertThat(e.error()).isEqualTo(CudaError.CUDA_ERROR_OUT_OF_MEMORY));
        q.cuMemAddressFree(va, 100 * Bytes.TiB);
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
        @DisplayName("an unaligned size: CUDA_ERROR_INVALID_VALUE (cuMemCreate of 6912 B)")
        void unaligned() {
            fails(() -> p.cuMemCreate(6912), CudaError.CUDA_ERROR_INVALID_VALUE, "granularity");
            fails(() -> p.cuMemAddressReserve(mib(3)), CudaError.CUDA_ERROR_INVALID_VALUE, "granularity");
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
        @DisplayName("releasing a handle twice: CUDA_ERROR_INVALID_HANDLE")
        void doubleRelease() {
            long h = p.cuMemCreate(mib(2));
            p.cuMemRelease(h);
            fails(() -> p.cuMemRelease(h), CudaError.CUDA_ERROR_INVALID_HANDLE, "cuMemRelease");
        }
    }
}
