package vramlab.ch07;

import static org.assertj.core.api.Assertions.assertThat;
import static vramlab.units.Bytes.GiB;
import static vramlab.units.Bytes.MiB;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import vramlab.driver.CopyEngine;
import vramlab.driver.HostCostModel;
import vramlab.pinned.HostStats;

@DisplayName("The chapter 7 lab")
class PinnedLabTest {
    static final PrintStream SINK = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);

    static String runLab() {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        PinnedLab.run(new PrintStream(buf, true, StandardCharsets.UTF_8));
        return buf.toString(StandardCharsets.UTF_8);
    }

    @Test
    @DisplayName("runs every scenario and prints the same output twice (it is deterministic)")
    void smoke() {
        String first = runLab();
        assertThat(first).contains("host_memory_stats", "You don't own the buffer", "CUDA graph",
                "cudaHostRegister", "Training loop", "What to notice");
        assertThat(runLab()).isEqualTo(first);
        assertThat(new PinnedChapter().jshellStartup()).contains("import vramlab.pinned.*", "help()");
        assertThat(new PinnedChapter().id()).isEqualTo("ch07-pinned");
    }

    @Test
    @DisplayName("replays the notes' walkthrough: 256 MiB owned after del, 0 checked out, then one cudaFreeHost")
    void walkthrough() {
        List<HostStats> s = PinnedLab.walkthrough(SINK);
        assertThat(s.get(0).allocatedBytes()).isEqualTo(256 * MiB);
        assertThat(s.get(0).activeBytes()).isEqualTo(256 * MiB);
        assertThat(s.get(1).allocatedBytes()).isEqualTo(256 * MiB);
        assertThat(s.get(1).activeBytes()).isZero();
        assertThat(s.get(1).numHostFree()).isZero();
        assertThat(s.get(2).allocatedBytes()).isZero();
        assertThat(s.get(2).numHostFree()).isEqualTo(1);
    }

    @Test
    @DisplayName("torch.cuda.empty_cache() releases device memory and leaves the 256 MiB pinned")
    void deviceEmptyCache() {
        long[] r = PinnedLab.deviceEmptyCache(SINK);
        assertThat(r[0]).isPositive();
        assertThat(r[1]).isEqualTo(256 * MiB);
    }

    @Test
    @DisplayName("shows corruption with events off and none with events on")
    void useAfterFree() {
        assertThat(PinnedLab.useAfterFree(true)).containsExactly(0L, 1L, 2L, 3L);
        List<Long> off = PinnedLab.useAfterFree(false);
        assertThat(off).isNotEqualTo(List.of(0L, 1L, 2L, 3L));
        assertThat(off.get(0)).as("batch 0's slot got a later batch").isNotZero();
    }

    @Test
    @DisplayName("every replay writes the staging buffer at the same host address")
    void graphs() {
        List<Long> a = PinnedLab.graphs(SINK);
        assertThat(a).hasSize(3).containsOnly(a.get(0));
    }

    @Test
    @DisplayName("100 GB pins 128 GiB through the caching allocator and exactly 100 GB registered")
    void register() {
        long[] r = PinnedLab.register(SINK);
        assertThat(r[0]).isEqualTo(128 * GiB);
        assertThat(r[1]).isEqualTo(100_000_000_000L);
    }

    @Nested
    @DisplayName("The training-loop comparison")
    class Loop {
        final TrainingLoop.Result hold = TrainingLoop.run(TrainingLoop.Strategy.HOLD, 10);
        final TrainingLoop.Result free = TrainingLoop.run(TrainingLoop.Strategy.FREE_EVERY_STEP, 10);
        final HostCostModel cost = HostCostModel.DEFAULT;

        @Test
        @DisplayName("a held step is fill + copy + compute, as the notes explain")
        void holdStep() {
            assertThat(hold.steadyStepNanos()).isEqualTo(TrainingLoop.FILL_NANOS
                    + CopyEngine.PCIE4.durationNanos(TrainingLoop.BATCH) + TrainingLoop.COMPUTE_NANOS);
        }

        @Test
        @DisplayName("freeing every step adds exactly one pin and one unpin of the batch per step")
        void freeStep() {
            assertThat(free.steadyStepNanos() - hold.steadyStepNanos())
                    .isEqualTo(cost.pinNanos(TrainingLoop.BATCH) + cost.unpinNanos(TrainingLoop.BATCH));
            assertThat(free.cudaHostAllocCalls()).isEqualTo(10);
            assertThat(hold.cudaHostAllocCalls()).isEqualTo(1);
        }

        @Test
        @DisplayName("both peak at one batch pinned; only the gaps between steps differ")
        void bytes() {
            assertThat(hold.peakPinned()).isEqualTo(free.peakPinned()).isEqualTo(TrainingLoop.BATCH);
            assertThat(hold.pinnedBetweenSteps()).isEqualTo(TrainingLoop.BATCH);
            assertThat(free.pinnedBetweenSteps()).isZero();
        }
    }

    @Test
    @DisplayName("the timeline figure is an SVG with both strategies and the pin calls in it")
    void figure() {
        String svg = Ch07Figures.figureTimeline();
        assertThat(svg).startsWith("<svg").endsWith("</svg>\n")
                .contains("HOLD", "FREE_EVERY_STEP", "cudaHostAlloc 256.00 MiB", "cudaFreeHost");
        assertThat(PinnedLab.help()).contains("7.1", "7.4");
    }
}
