package vramlab.driver;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import vramlab.gmmu.Access;
import vramlab.gmmu.PageSize;
import vramlab.gmmu.Pte;
import vramlab.units.Bytes;

/**
 * cuMemCreate refuses an over-budget size itself rather than catching {@code takePages}'
 * refusal and making a second exception of it (issue 38). The refusal must read exactly as the
 * caught-and-wrapped one did, and leave the same state; cuMemMap's kept PTEs must equal the
 * {@code Pte.local(SIZE_2M, frame, NONE, gpu)} it wrote before.
 */
@DisplayName("Vmm: cuMemCreate's refusal and cuMemMap's PTEs are what they were")
class VmmRefusalTest {

    /** The message the old path made: takePages' refusal, wrapped as CUDA_ERROR_OUT_OF_MEMORY. */
    private static String oldRefusal(Gpu gpu, long size) {
        try {
            long[] got = gpu.takePages(size, "probe", "cuMemCreate", size);
            gpu.givePages(got);
            return null;
        } catch (CudaException e) {
            return new CudaException(CudaError.CUDA_ERROR_OUT_OF_MEMORY, e.getMessage()).getMessage();
        }
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 38, 500, 9001})
    @DisplayName("random creates and releases: each refusal's code and message equal the old path's, and nothing changes")
    void sameRefusal(long seed) {
        Random r = new Random(seed);
        Gpu gpu = new Gpu(0, (20 + r.nextInt(20)) * Gpu.PAGE, r.nextInt(3) * Gpu.PAGE);
        GpuProcess p = gpu.open(1, "t", r.nextInt(2) * Bytes.MiB);
        p.expectOoms(seed % 2 == 0);                     // half the seeds: refusals made cheap
        List<Long> live = new ArrayList<>();
        int refused = 0;
        for (int step = 0; step < 400; step++) {
            if (live.isEmpty() || r.nextInt(3) > 0) {
                long size = (1 + r.nextInt(8)) * Gpu.PAGE;
                String expected = oldRefusal(gpu, size);
                long free = gpu.free();
                try {
                    live.add(p.cuMemCreate(size));
                    assertThat(expected).as("the old path refused " + size).isNull();
                } catch (CudaException e) {
                    refused++;
                    assertThat(e.error()).isEqualTo(CudaError.CUDA_ERROR_OUT_OF_MEMORY);
                    assertThat(e.isOutOfMemory()).isTrue();
                    assertThat(e.getMessage()).isEqualTo(expected);
                    assertThat(gpu.free()).isEqualTo(free);
                }
            } else {
                p.cuMemRelease(live.remove(r.nextInt(live.size())));
            }
            gpu.checkInvariants();
        }
        assertThat(refused).isPositive();
    }

    @Test
    @DisplayName("for a process that expects OOMs, a refusal has no stack trace and reads, whenever read, as it would have at the refusal")
    void expectedRefusal() {
        Gpu gpu = new Gpu(0, 8 * Gpu.PAGE, 0);
        GpuProcess p = gpu.open(1, "t", 0);
        long h = p.cuMemCreate(2 * Gpu.PAGE);
        String expected = oldRefusal(gpu, 16 * Gpu.PAGE);
        p.expectOoms(true);
        CudaException cheap = org.assertj.core.api.Assertions.catchThrowableOfType(
                () -> p.cuMemCreate(16 * Gpu.PAGE), CudaException.class);
        assertThat(cheap.getStackTrace()).isEmpty();
        p.cuMemRelease(h);                                // the free bytes change before the text is read
        assertThat(cheap.getMessage()).isEqualTo(expected).isEqualTo(cheap.getMessage());
        assertThat(cheap.error()).isEqualTo(CudaError.CUDA_ERROR_OUT_OF_MEMORY);

        p.expectOoms(false);
        String now = oldRefusal(gpu, 16 * Gpu.PAGE);
        CudaException full = org.assertj.core.api.Assertions.catchThrowableOfType(
                () -> p.cuMemCreate(16 * Gpu.PAGE), CudaException.class);
        assertThat(full.getStackTrace()).isNotEmpty();
        assertThat(full.getMessage()).isEqualTo(now).isNotEqualTo(expected);
    }

    @Test
    @DisplayName("a refused cuMemCreate takes no handle id: the next one is what it would have been")
    void noIdTaken() {
        Gpu gpu = new Gpu(0, 8 * Gpu.PAGE, 0);
        GpuProcess p = gpu.open(1, "t", 0);
        long first = p.cuMemCreate(Gpu.PAGE);
        try {
            p.cuMemCreate(16 * Gpu.PAGE);
        } catch (CudaException e) {
            assertThat(e.getMessage()).isEqualTo("CUDA_ERROR_OUT_OF_MEMORY: cudaErrorMemoryAllocation: cuMemCreate("
                    + 16 * Gpu.PAGE + ") needs " + 16 * Gpu.PAGE + " bytes but GPU 0 has " + 7 * Gpu.PAGE + " free");
        }
        assertThat(p.cuMemCreate(Gpu.PAGE)).isEqualTo(first + 1);
    }

    @Test
    @DisplayName("cuMemMap writes PTEs equal to Pte.local(SIZE_2M, frame, NONE, gpu); cuMemSetAccess equal to withAccess")
    void mapPtes() {
        Gpu gpu = new Gpu(2, 32 * Gpu.PAGE, 0);
        GpuProcess p = gpu.open(1, "t", 0);
        for (int round = 0; round < 3; round++) {
            long size = 4 * Gpu.PAGE;
            long h = p.cuMemCreate(size);
            long va = p.cuMemAddressReserve(size);
            p.cuMemMap(va, size, h);
            Vmm.Handle handle = null;
            for (Vmm.Handle x : p.vmm().handles()) if (x.id == h) handle = x;
            for (int k = 0; k < 4; k++) {
                Pte pte = p.addressSpace().find(va + k * Gpu.PAGE, PageSize.SIZE_2M);
                assertThat(pte).isEqualTo(Pte.local(PageSize.SIZE_2M, handle.chunks[k], Access.NONE, 2));
            }
            p.cuMemSetAccess(va, size, Access.READWRITE);
            for (int k = 0; k < 4; k++) {
                Pte pte = p.addressSpace().find(va + k * Gpu.PAGE, PageSize.SIZE_2M);
                assertThat(pte).isEqualTo(Pte.local(PageSize.SIZE_2M, handle.chunks[k], Access.READWRITE, 2));
            }
            if (round < 2) {
                p.cuMemUnmap(va, size);
                p.cuMemRelease(h);
                p.cuMemAddressFree(va, size);
            }
            gpu.checkInvariants();
        }
    }
}
