package vramlab.ch02;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static vramlab.units.Bytes.gib;
import static vramlab.units.Bytes.mib;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import vramlab.alloc.Block;
import vramlab.alloc.CachingAllocator;
import vramlab.alloc.ToyPolicy;
import vramlab.driver.CudaException;
import vramlab.driver.DriverCall;
import vramlab.driver.Gpu;
import vramlab.driver.GpuProcess;
import vramlab.gmmu.PageSize;
import vramlab.quiz.Graded;
import vramlab.units.Bytes;

/** Each quiz answer, checked against the simulator (none of these needs a lab step). */
@DisplayName("Chapter 2 quiz answers hold in the simulator")
class CudaMallocQuizTest {
    private static String answer(String id) {
        return CudaMallocQuiz.QUESTIONS.stream().filter(q -> q.id().equals(id)).findFirst().orElseThrow().answer();
    }

    @Graded(step = "q2.1") @Timeout(10) @Test
    @DisplayName("q2.1: 3 MiB + 1 B maps 4 MiB")
    void q1() {
        GpuProcess p = new Gpu(mib(64)).openToyProcess();
        assertThat(Bytes.toyMiB(p.allocationSize(p.cudaMalloc(mib(3) + 1)))).isEqualTo(answer("q2.1"));
    }

    @Graded(step = "q2.2") @Timeout(10) @Test
    @DisplayName("q2.2: a hundred 64 B calls map 200 MiB")
    void q2() {
        GpuProcess p = new Gpu(gib(1)).openToyProcess();
        for (int i = 0; i < 100; i++) p.cudaMalloc(64);
        assertThat(Bytes.toyMiB(p.mappedBytes())).isEqualTo(answer("q2.2"));
    }

    @Graded(step = "q2.3") @Timeout(10) @Test
    @DisplayName("q2.3: per-tensor calls add up to 20000")
    void q3() {
        GpuProcess p = new Gpu(gib(1)).openToyProcess();
        for (int step = 0; step < 1000; step++) {
            List<Long> ptrs = new ArrayList<>();
            for (int t = 0; t < 10; t++) ptrs.add(p.cudaMalloc(mib(1) + t));
            ptrs.forEach(p::cudaFree);
        }
        long calls = p.driverCalls(DriverCall.CUDA_MALLOC) + p.driverCalls(DriverCall.CUDA_FREE);
        assertThat(String.valueOf(calls)).isEqualTo(answer("q2.3"));
    }

    /** Not graded: it runs chapter 3's allocator, whose rounding is a later lab step (3.1). */
    @Timeout(10) @Test
    @DisplayName("q2.4: a caching allocator adds no cudaMalloc after the first step")
    void q4() {
        GpuProcess p = new Gpu(gib(1)).openToyProcess();
        CachingAllocator a = new CachingAllocator(p, new ToyPolicy());
        long afterFirst = -1;
        for (int step = 0; step < 1000; step++) {
            List<Block> blocks = new ArrayList<>();
            for (int t = 0; t < 10; t++) blocks.add(a.alloc(mib(1) + t * 4096L));
            blocks.forEach(a::free);
            if (step == 0) afterFirst = p.cudaMallocCalls();
        }
        assertThat(String.valueOf(p.cudaMallocCalls() - afterFirst)).isEqualTo(answer("q2.4"));
    }

    @Graded(step = "q2.5") @Timeout(10) @Test
    @DisplayName("q2.5: after cuMemMap the PTE is not valid yet")
    void q5() {
        GpuProcess p = new Gpu(mib(32)).openToyProcess();
        long va = p.cuMemAddressReserve(mib(2));
        p.cuMemMap(va, mib(2), p.cuMemCreate(mib(2)));
        assertThat(p.addressSpace().find(va, PageSize.SIZE_2M).valid()).isFalse();
        assertThat(DriverCall.CU_MEM_SET_ACCESS.cudaName()).isEqualTo(answer("q2.5"));
    }

    @Graded(step = "q2.6") @Timeout(10) @Test
    @DisplayName("q2.6: a partial unmap is CUDA_ERROR_INVALID_VALUE")
    void q6() {
        GpuProcess p = new Gpu(mib(32)).openToyProcess();
        long va = p.cuMemAddressReserve(mib(4));
        p.cuMemMap(va, mib(4), p.cuMemCreate(mib(4)));
        assertThatThrownBy(() -> p.cuMemUnmap(va, mib(2))).isInstanceOfSatisfying(CudaException.class,
                e -> assertThat(e.error().name()).isEqualTo(answer("q2.6")));
    }
}
