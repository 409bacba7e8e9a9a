package vramlab.driver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static vramlab.units.Bytes.mib;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class GpuProcessTest {

    @Test
    @DisplayName("cudaMalloc maps whole 2 MiB pages: 3 MiB + 1 B takes 4 MiB, and cudaFree returns them")
    void roundingTax() {
        Gpu gpu = new Gpu(mib(40));
        GpuProcess p = gpu.openToyProcess();
        long ptr = p.cudaMalloc(mib(3) + 1);
        assertThat(p.allocationSize(ptr)).isEqualTo(mib(4));
        assertThat(gpu.free()).isEqualTo(mib(36));
        p.cudaFree(ptr);
        assertThat(gpu.free()).isEqualTo(mib(40));
        gpu.checkInvariants();
    }

    @Test
    @DisplayName("cudaMalloc fails with cudaErrorMemoryAllocation when the pages are not there")
    void outOfMemory() {
        Gpu gpu = new Gpu(mib(40));
        GpuProcess p = gpu.openToyProcess();
        p.cudaMalloc(mib(30));
        assertThatThrownBy(() -> p.cudaMalloc(mib(12)))
                .isInstanceOfSatisfying(CudaException.class, e -> assertThat(e.isOutOfMemory()).isTrue())
                .hasMessageContaining("cudaErrorMemoryAllocation");
        assertThat(gpu.free()).isEqualTo(mib(10));
    }

    @Test
    @DisplayName("the driver reserve and a context are gone before the first allocation")
    void reserveAndContext() {
        Gpu gpu = new Gpu(0, mib(100), mib(10));
        GpuProcess p = gpu.open(42, "train.py", mib(30));
        assertThat(p.cudaMemGetInfo()).isEqualTo(new GpuProcess.MemInfo(mib(60), mib(90)));
        assertThat(p.physicalBytes()).isEqualTo(mib(30));
        gpu.checkInvariants();
    }

    @Test
    @DisplayName("cudaFree of a pointer that is not an allocation: cudaErrorInvalidValue, naming it")
    void badFree() {
        GpuProcess p = new Gpu(mib(40)).openToyProcess();
        assertThatThrownBy(() -> p.cudaFree(0x1234))
                .hasMessageContaining("cudaErrorInvalidValue").hasMessageContaining("0x1234");
    }
}
