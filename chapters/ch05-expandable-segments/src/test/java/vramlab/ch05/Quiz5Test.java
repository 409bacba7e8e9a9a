package vramlab.ch05;

import static org.assertj.core.api.Assertions.assertThat;
import static vramlab.units.Bytes.mib;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import vramlab.alloc.Block;
import vramlab.alloc.CachingAllocator;
import vramlab.alloc.CudaOutOfMemoryError;
import vramlab.alloc.PyTorchPolicy;
import vramlab.driver.Gpu;
import vramlab.quiz.Graded;

/**
 * The chapter's quiz (notes, section "Quiz"): each answer key is checked against the simulator,
 * so a wrong key, or a simulator that disagrees with it, fails here.
 */
@DisplayName("chapter 5 quiz")
class Quiz5Test {

    static CachingAllocator allocator(long device, String conf) {
        return new CachingAllocator(new Gpu(device).openToyProcess(), new PyTorchPolicy(conf));
    }

    @Test
    @Graded(step = "q5.1")
    @Timeout(10)
    @DisplayName("Q1: with expandable segments, 100 B then 1.5 MiB map 2 MiB + 20 MiB: 22 MiB reserved")
    void q1() {
        CachingAllocator a = allocator(mib(1024), "expandable_segments:True");
        a.alloc(100);
        a.alloc(mib(3) / 2);
        assertThat(a.reserved()).as("%s", a).isEqualTo(mib(22));
    }

    @Test
    @Graded(step = "q5.2")
    @Timeout(10)
    @DisplayName("Q2: a 25 MiB request without expandable segments keeps a 26 MiB block; with them, 25 MiB")
    void q2() {
        assertThat(allocator(mib(1024), "").alloc(mib(25)).size()).isEqualTo(mib(26));
        assertThat(allocator(mib(1024), "expandable_segments:True").alloc(mib(25)).size()).isEqualTo(mib(25));
    }

    @Test
    @Graded(step = "q5.3")
    @Timeout(10)
    @DisplayName("Q3: expandable mappings do not count as segments: segment.all.current stays 0")
    void q3() {
        CachingAllocator a = allocator(mib(1024), "expandable_segments:True");
        a.alloc(mib(100));
        assertThat(a.memoryStats().asMap()).containsEntry("segment.all.current", 0L)
                .containsEntry("reserved_bytes.all.current", mib(100));
    }

    @Test
    @Graded(step = "q5.4")
    @Timeout(10)
    @DisplayName("Q4: freeing a block does not unmap its pages; only empty_cache or an OOM retry does")
    void q4() {
        CachingAllocator a = allocator(mib(1024), "expandable_segments:True");
        Block b = a.alloc(mib(60));
        a.free(b);
        assertThat(a.reserved()).isEqualTo(mib(60));
        a.emptyCache();
        assertThat(a.reserved()).isZero();
    }

    @Test
    @Graded(step = "q5.5")
    @Timeout(10)
    @DisplayName("Q5: expandable segments do not cure holes inside a page: 9 MiB holes in 20 MiB pages stay")
    void q5() {
        CachingAllocator a = allocator(mib(80), "expandable_segments:True");
        Block[] x = new Block[4];
        for (int i = 0; i < 4; i++) {
            x[i] = a.alloc(mib(9));
            a.alloc(mib(9));
        }
        for (Block b : x) a.free(b);
        boolean oom = false;
        try {
            a.alloc(mib(16));
        } catch (CudaOutOfMemoryError e) {
            oom = true;
        }
        assertThat(oom).as("%s", a).isTrue();
    }
}
