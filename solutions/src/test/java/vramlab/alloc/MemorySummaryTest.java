package vramlab.alloc;

import static org.assertj.core.api.Assertions.assertThat;
import static vramlab.units.Bytes.gib;
import static vramlab.units.Bytes.mib;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import vramlab.driver.Gpu;

/**
 * memory_stats() keys and memory_summary() layout. The expected rows were rendered by running
 * torch/cuda/memory.py's own
 * {@code memory_summary} on stats worked out by hand: an oracle independent of this code.
 */
@DisplayName("memory_stats() and memory_summary()")
class MemorySummaryTest {

    private static CachingAllocator afterHundredBytesAndTwentyFiveMiB() {
        CachingAllocator a = new CachingAllocator(new Gpu(gib(80)).openToyProcess(), new PyTorchPolicy());
        a.alloc(100);
        a.alloc(mib(25));
        a.checkInvariants();
        return a;
    }

    @Test
    @DisplayName("memory_stats() uses PyTorch's keys with the values of the state")
    void keys() {
        var s = afterHundredBytesAndTwentyFiveMiB().memoryStats().asMap();
        assertThat(s).containsEntry("allocated_bytes.all.current", mib(26) + 512)
                .containsEntry("allocated_bytes.large_pool.peak", mib(26))
                .containsEntry("reserved_bytes.all.current", mib(28))
                .containsEntry("reserved_bytes.small_pool.current", mib(2))
                .containsEntry("requested_bytes.all.current", mib(25) + 100)
                .containsEntry("inactive_split.small_pool.current", 1L)
                .containsEntry("inactive_split_bytes.all.current", mib(2) - 512)
                .containsEntry("allocation.all.current", 2L)
                .containsEntry("segment.all.current", 2L)
                .containsEntry("num_alloc_retries", 0L)
                .containsEntry("num_ooms", 0L)
                .containsEntry("max_split_size", -1L)
                .containsEntry("oversize_allocations.current", 0L)
                .doesNotContainKey("allocated.all.current");   // the docstring's name is wrong
        assertThat(s).hasSize(9 * 3 * 4 + 2 * 4 + 6);
    }

    @Test
    @DisplayName("memory_summary() lays out the table as torch/cuda/memory.py does")
    void layout() {
        String out = MemorySummary.format(afterHundredBytesAndTwentyFiveMiB().memoryStats(), 0);
        assertThat(out.lines()).allSatisfy(l -> assertThat(l).hasSize(77));
        assertThat(out).startsWith("|" + "=".repeat(75) + "|\n"
                + "|                  PyTorch CUDA memory summary, device ID 0                 |\n"
                + "|" + "-".repeat(75) + "|\n"
                + "|            CUDA OOMs: 0            |        cudaMalloc retries: 0         |\n"
                + "|" + "=".repeat(75) + "|\n"
                + "|        Metric         | Cur Usage  | Peak Usage | Tot Alloc  | Tot Freed  |\n");
        assertThat(out).contains(
                "| Allocated memory      |  26624 KiB |  26624 KiB |  26624 KiB |      0 B   |\n"
                + "|       from large pool |  26624 KiB |  26624 KiB |  26624 KiB |      0 B   |\n"
                + "|       from small pool |      0 KiB |      0 KiB |      0 KiB |      0 B   |\n");
        assertThat(out).contains("| GPU reserved memory   |  28672 KiB |  28672 KiB |  28672 KiB |      0 B   |");
        assertThat(out).contains("| Non-releasable memory |   2047 KiB |   2047 KiB |   2047 KiB |      0 B   |");
        assertThat(out).contains("| GPU reserved segments |       2    |       2    |       2    |       0    |");
        assertThat(out).endsWith("| Oversize GPU segments |       0    |       0    |       0    |       0    |\n"
                + "|" + "=".repeat(75) + "|\n");
    }

    @Test
    @DisplayName("reset_peak_memory_stats lowers peaks to current; reset_accumulated clears totals")
    void resets() {
        CachingAllocator a = afterHundredBytesAndTwentyFiveMiB();
        a.free(a.segments().stream().filter(s -> s.pool() == PoolKind.LARGE).findFirst().orElseThrow().first());
        MemoryStats s = a.memoryStats();
        assertThat(s.stat("allocated_bytes", "all").peak()).isEqualTo(mib(26) + 512);
        s.resetPeak();
        assertThat(s.stat("allocated_bytes", "all").peak()).isEqualTo(512);
        s.resetAccumulated();
        assertThat(s.stat("allocated_bytes", "all").allocated()).isZero();
        assertThat(s.stat("allocated_bytes", "all").current()).isEqualTo(512);
        a.checkInvariants();
    }

    @Test
    @DisplayName("sizes move to MiB only from 768 MiB, counts to K from 750,000")
    void units() {
        assertThat(MemorySummary.formatSize(mib(767), mib(767))).isEqualTo("785408 KiB");
        assertThat(MemorySummary.formatSize(mib(768), mib(768))).isEqualTo("   768 MiB");
        assertThat(MemorySummary.formatCount(749_999, 749_999)).isEqualTo(" 749999   ");
        assertThat(MemorySummary.formatCount(750_000, 750_000)).isEqualTo("    750 K ");
    }
}
