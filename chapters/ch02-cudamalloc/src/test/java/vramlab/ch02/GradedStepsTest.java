package vramlab.ch02;

import static org.assertj.core.api.Assertions.assertThat;
import static vramlab.units.Bytes.mib;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

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
import vramlab.quiz.feedback.StepOrder;

/** The graded tests of chapter 2's steps. Failure messages show the driver's books. */
@DisplayName("Chapter 2 steps")
@ExtendWith(StepOrder.class)
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
            for (Object[] c : PRICE_CASES) {
                var call = new Ch02Feedback.Call(m, (DriverCall) c[0], (long) c[1]);
                Ch02Feedback.PRICE.check(call.toString(), call, m.micros(call.call(), call.pages()), (Double) c[2]);
            }
        }
    }

    /** Step 2.1's cases on CostModel(10, 2, 500), in order: call, pages, microseconds. */
    static final Object[][] PRICE_CASES = {
        {DriverCall.CUDA_MALLOC, 3L, 16.0}, {DriverCall.CUDA_FREE, 3L, 516.0}, {DriverCall.CU_MEM_MAP, 1L, 12.0},
        {DriverCall.CU_MEM_ADDRESS_RESERVE, 0L, 10.0}, {DriverCall.CU_MEM_RELEASE, 5L, 10.0}};

    /** How a call ended: its CUDA error, another exception, or {@code returned normally}. */
    static String outcome(Throwable t) {
        if (t == null) return "returned normally";
        return t instanceof CudaException e ? e.error().toString() : t.toString();
    }

    @Nested
    @DisplayName("2.2 cuMemSetAccess")
    class Step2 {
        final GpuProcess p = new Gpu(mib(32)).openToyProcess();

        Access access(long va) {
            var pte = p.addressSpace().find(va, PageSize.SIZE_2M);
            return pte == null ? null : pte.access();
        }

        @Graded(step = "2.2", points = 3)
        @Timeout(10)
        @Test
        @DisplayName("grants the access to every PTE of a fully mapped range")
        void grants() {
            long va = p.cuMemAddressReserve(mib(8));
            long h = p.cuMemCreate(mib(4));
            p.cuMemMap(va, mib(4), h);
            p.cuMemSetAccess(va, mib(4), Access.READWRITE);
            Ch02Feedback.ACCESS.check("the first page after cuMemSetAccess(va, 4 MiB, READWRITE)", "first",
                    access(va), Access.READWRITE, () -> state(p));
            Ch02Feedback.ACCESS.check("the second page after cuMemSetAccess(va, 4 MiB, READWRITE)", "second",
                    access(va + mib(2)), Access.READWRITE, () -> state(p));
            p.cuMemSetAccess(va, mib(2), Access.READ);
            Ch02Feedback.ACCESS.check("the first page after cuMemSetAccess(va, 2 MiB, READ)", "first", access(va),
                    Access.READ, () -> state(p));
            Ch02Feedback.ACCESS.check("the second page, outside cuMemSetAccess(va, 2 MiB, READ)", "outside",
                    access(va + mib(2)), Access.READWRITE, () -> state(p));
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
            Throwable t = StepOrder.thrownBy(() -> p.cuMemSetAccess(va, mib(4), Access.READWRITE));
            Ch02Feedback.REFUSAL.check("cuMemSetAccess(va, 4 MiB, READWRITE) with only 2 MiB mapped", "", outcome(t),
                    CudaError.CUDA_ERROR_INVALID_VALUE.toString(), () -> state(p));
            Ch02Feedback.ACCESS.check("the mapped page after the refused call", "refused", access(va), Access.READ,
                    () -> state(p));
            long va4 = p.cuMemAddressReserve(mib(4));
            p.cuMemMap(va4, mib(4), p.cuMemCreate(mib(4)));          // two whole pages, mapped
            p.cuMemSetAccess(va4, mib(4), Access.READ);
            for (long[] bad : new long[][] {{0, 0}, {mib(1), mib(2)}, {0, mib(1)}}) {
                String call = "cuMemSetAccess(va + " + bad[0] + ", " + bad[1] + ", READWRITE) on a mapped range";
                Throwable u = StepOrder.thrownBy(() -> p.cuMemSetAccess(va4 + bad[0], bad[1], Access.READWRITE));
                Ch02Feedback.REFUSAL.check(call, "unaligned", outcome(u), CudaError.CUDA_ERROR_INVALID_VALUE.toString(),
                        () -> state(p));
            }
            Ch02Feedback.ACCESS.check("the first page after the refused unaligned calls", "refused", access(va4),
                    Access.READ, () -> state(p));
            Ch02Feedback.ACCESS.check("the second page after the refused unaligned calls", "refused",
                    access(va4 + mib(2)), Access.READ, () -> state(p));
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
            Ch02Feedback.ROW.check("NvidiaSmi.row(p) with 6 MiB mapped and a 300 MiB context",
                    new Ch02Feedback.Process(6, 300, mib(3) + 1 + 64), NvidiaSmi.row(p), "31337, infer, 306 MiB",
                    () -> state(p));
        }
    }
}
