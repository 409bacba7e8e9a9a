package vramlab.ch02;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static vramlab.units.Bytes.mib;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import vramlab.driver.CostModel;
import vramlab.driver.CudaError;
import vramlab.driver.CudaException;
import vramlab.driver.DriverCall;
import vramlab.driver.Gpu;
import vramlab.driver.GpuProcess;
import vramlab.driver.NvidiaSmi;
import vramlab.gmmu.Access;
import vramlab.gmmu.PageSize;
import vramlab.quiz.Graded;

/** The graded tests of chapter 2's steps. Failure messages show the driver's books. */
@DisplayName("Chapter 2 steps")
class GradedStepsTest {

    static String state(GpuProcess p) {
        StringBuilder b = new StringBuilder(p + ": mapped " + p.mappedBytes() + " B, PTEs:\n");
        p.addressSpace().forEachPte((va, pte) -> b.append(String.format("  0x%x -> %s%n", va, pte)));
        return b.toString();
    }

    @Nested
    @DisplayName("2.1 pricing a call")
    class Step1 {
        final CostModel m = new CostModel(10, 2, 500);

        @Graded(step = "2.1", points = 2)
        @Timeout(10)
        @Test
        @DisplayName("a call pays its fixed cost plus its pages; only cudaFree pays the sync")
        void prices() {
            assertThat(m.micros(DriverCall.CUDA_MALLOC, 3)).as(m.toString()).isEqualTo(16.0);
            assertThat(m.micros(DriverCall.CUDA_FREE, 3)).as(m.toString()).isEqualTo(516.0);
            assertThat(m.micros(DriverCall.CU_MEM_MAP, 1)).as(m.toString()).isEqualTo(12.0);
            assertThat(m.micros(DriverCall.CU_MEM_ADDRESS_RESERVE, 0)).as(m.toString()).isEqualTo(10.0);
            assertThat(m.micros(DriverCall.CU_MEM_RELEASE, 5)).as("release maps nothing").isEqualTo(10.0);
        }
    }

    @Nested
    @DisplayName("2.2 cuMemSetAccess")
    class Step2 {
        final GpuProcess p = new Gpu(mib(32)).openToyProcess();

        @Graded(step = "2.2", points = 3)
        @Timeout(10)
        @Test
        @DisplayName("grants the access to every PTE of a fully mapped range")
        void grants() {
            long va = p.cuMemAddressReserve(mib(8));
            long h = p.cuMemCreate(mib(4));
            p.cuMemMap(va, mib(4), h);
            p.cuMemSetAccess(va, mib(4), Access.READWRITE);
            assertThat(p.addressSpace().find(va, PageSize.SIZE_2M).access()).as(state(p)).isEqualTo(Access.READWRITE);
            assertThat(p.addressSpace().find(va + mib(2), PageSize.SIZE_2M).valid()).as(state(p)).isTrue();
            p.cuMemSetAccess(va, mib(2), Access.READ);
            assertThat(p.addressSpace().find(va, PageSize.SIZE_2M).access()).as(state(p)).isEqualTo(Access.READ);
            assertThat(p.addressSpace().find(va + mib(2), PageSize.SIZE_2M).access()).as(state(p))
                    .isEqualTo(Access.READWRITE);
        }

        @Graded(step = "2.2", points = 2)
        @Timeout(10)
        @Test
        @DisplayName("refuses a range that is not fully mapped, changing nothing in it")
        void refuses() {
            long va = p.cuMemAddressReserve(mib(8));
            long h = p.cuMemCreate(mib(2));
            p.cuMemMap(va, mib(2), h);
            p.cuMemSetAccess(va, mib(2), Access.READ);       // the mapped part alone is fine
            assertThatThrownBy(() -> p.cuMemSetAccess(va, mib(4), Access.READWRITE)).as(state(p))
                    .isInstanceOfSatisfying(CudaException.class,
                            e -> assertThat(e.error()).isEqualTo(CudaError.CUDA_ERROR_INVALID_VALUE));
            assertThat(p.addressSpace().find(va, PageSize.SIZE_2M).access()).as(state(p)).isEqualTo(Access.READ);
            long va4 = p.cuMemAddressReserve(mib(4));
            p.cuMemMap(va4, mib(4), p.cuMemCreate(mib(4)));          // two whole pages, mapped
            p.cuMemSetAccess(va4, mib(4), Access.READ);
            for (long[] bad : new long[][] {{va4, 0}, {va4 + mib(1), mib(2)}, {va4, mib(1)}}) {
                assertThatThrownBy(() -> p.cuMemSetAccess(bad[0], bad[1], Access.READWRITE))
                        .as("cuMemSetAccess(va + %d, %d): size 0, or not 2 MiB-aligned; %s", bad[0] - va4, bad[1],
                                state(p))
                        .isInstanceOfSatisfying(CudaException.class,
                                e -> assertThat(e.error()).isEqualTo(CudaError.CUDA_ERROR_INVALID_VALUE));
            }
            assertThat(p.addressSpace().find(va4, PageSize.SIZE_2M).access()).as("refused calls change nothing; "
                    + state(p)).isEqualTo(Access.READ);
            assertThat(p.addressSpace().find(va4 + mib(2), PageSize.SIZE_2M).access()).as(state(p))
                    .isEqualTo(Access.READ);
        }
    }

    @Nested
    @DisplayName("2.3 an nvidia-smi row")
    class Step3 {
        @Graded(step = "2.3", points = 2)
        @Timeout(10)
        @Test
        @DisplayName("charges the process its mappings plus its context, in whole MiB")
        void row() {
            Gpu gpu = new Gpu(0, mib(4096), mib(256));
            GpuProcess p = gpu.open(31337, "infer", mib(300));
            p.cudaMalloc(mib(3) + 1);                        // 4 MiB mapped
            p.cudaMalloc(64);                                // 2 MiB mapped
            assertThat(NvidiaSmi.row(p)).as(state(p)).isEqualTo("31337, infer, 306 MiB");
        }
    }
}
