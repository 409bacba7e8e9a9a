package vramlab.alloc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static vramlab.units.Bytes.mib;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import vramlab.driver.Gpu;
import vramlab.driver.GpuProcess;

/**
 * The OOM message's "total capacity" is {@code cudaMemGetInfo}'s total, with a memory fraction
 * or without: {@code DeviceCachingAllocator::malloc} prints {@code format_size(device_total)}
 * and adds the fraction only as its "X allowed; " clause (c10/cuda/CUDACachingAllocator.cpp
 * @001074d, {@code if (set_fraction)}; 2.10: {@code if (allowed_memory_maximum.has_value())}).
 * So on a 1000 MiB board with a 24 MiB driver reserve and another process holding 100 MiB, the
 * total is 976 MiB: not the board (NVML's total), not what is left for this process, not the
 * allowed bytes.
 */
@DisplayName("the OOM message's total capacity: CUDA's total, fraction or none")
class OomTotalCapacityTest {
    private static GpuProcess shared() {
        Gpu gpu = new Gpu(0, mib(1000), mib(24));
        gpu.open(7, "other", mib(100));
        return gpu.open(8, "me", 0);
    }

    @ParameterizedTest
    @EnumSource(PyTorchRelease.class)
    @DisplayName("under a fraction of 0.5: 976 MiB total and 488 MiB allowed")
    void fraction(PyTorchRelease release) {
        CachingAllocator a = new CachingAllocator(shared(), PyTorchPolicy.of("", release).withMemoryFraction(0.5));
        a.alloc(mib(400));
        assertThatThrownBy(() -> a.alloc(mib(100)))
                .hasMessageContaining("GPU 0 has a total capacity of 976.00 MiB of which 476.00 MiB is free. ")
                .hasMessageContaining("488.00 MiB allowed; Of the allocated memory 400.00 MiB");
    }

    @ParameterizedTest
    @EnumSource(PyTorchRelease.class)
    @DisplayName("without one: the same total, and no allowed clause")
    void none(PyTorchRelease release) {
        CachingAllocator a = new CachingAllocator(shared(), PyTorchPolicy.of("", release));
        a.alloc(mib(800));
        assertThatThrownBy(() -> a.alloc(mib(100)))
                .hasMessageContaining("GPU 0 has a total capacity of 976.00 MiB of which 76.00 MiB is free. ")
                .hasMessageNotContaining("allowed;");
    }

    @ParameterizedTest
    @EnumSource(PyTorchRelease.class)
    @DisplayName("a fraction of 1.0: the same total; 2.9 says 976 MiB allowed, 2.10 sets no limit and says none")
    void wholeCard(PyTorchRelease release) {
        CachingAllocator a = new CachingAllocator(shared(), PyTorchPolicy.of("", release).withMemoryFraction(1.0));
        a.alloc(mib(800));
        String message = catchMessage(a);
        assertThat(message).contains("GPU 0 has a total capacity of 976.00 MiB of which 76.00 MiB is free. ");
        if (release == PyTorchRelease.V2_9) {
            assertThat(message).contains("976.00 MiB allowed; ");
        } else {
            assertThat(message).doesNotContain("allowed;");
        }
    }

    private static String catchMessage(CachingAllocator a) {
        try {
            a.alloc(mib(100));
        } catch (CudaOutOfMemoryError e) {
            return e.getMessage();
        }
        throw new AssertionError("no OOM");
    }
}
