package vramlab.kv;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static vramlab.units.Bytes.gib;
import static vramlab.units.Bytes.mib;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import vramlab.driver.CudaException;
import vramlab.driver.Gpu;
import vramlab.driver.GpuProcess;

/** The KV pool's checker, its books broken from outside the pool the way a bug would. */
@DisplayName("The KV pool's checker")
class KvChecksTest {
    static boolean reserved(GpuProcess p, long size) {
        try {
            p.cuMemAddressReserve(size);
            return true;
        } catch (CudaException e) {
            return false;
        }
    }

    @Test
    @DisplayName("notices when the pool's one cudaMalloc was freed and, the VA window full, its address reused by a smaller one")
    void cudaMallocShrunk() {
        GpuProcess p = new Gpu(gib(1)).openToyProcess();
        KvBlockPool pool = new KvBlockPool(p, 4, KvBlockPool.DEFAULT_BLOCK_SIZE, mib(2));
        pool.checkInvariants();
        for (long size = 1L << 50; size >= mib(2); size >>= 1) {
            while (reserved(p, size)) { }                 // the rest of the VA window is used up
        }
        p.cudaFree(pool.base());                          // someone frees the KV cache tensors
        assertThat(p.cudaMalloc(mib(2))).as("the driver hands the address out again").isEqualTo(pool.base());
        assertThat(pool.reserved()).isEqualTo(mib(2));
        assertThatThrownBy(pool::checkInvariants).hasMessageContaining("gone or too small");
    }
}
