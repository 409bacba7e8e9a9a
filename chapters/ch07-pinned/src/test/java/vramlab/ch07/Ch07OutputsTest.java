package vramlab.ch07;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The outputs the notes show refute what they say they refute (the notes include them). */
@DisplayName("Chapter 7's generated outputs")
class Ch07OutputsTest {
    @Test
    @DisplayName("del keeps the pages pinned; only empty_host_cache() unpins")
    void delKeepsPages() {
        String[] lines = Ch07Outputs.outputDelKeepsPages().split("\n");
        assertThat(lines[2]).startsWith("synchronize()").contains("pinned by the OS 64 MiB");
        assertThat(lines[4]).startsWith("empty_host_cache()").contains("pinned by the OS 1 MiB");
    }

    @Test
    @DisplayName("torch.cuda.empty_cache() leaves the pinned 256 MiB; empty_host_cache() returns it")
    void deviceEmptyCache() {
        String out = Ch07Outputs.outputDeviceEmptyCache();
        assertThat(out).contains("device allocator released 512 MiB", "pinned allocator released 256 MiB");
        assertThat(out.split("\n")[1]).contains("pinned by the OS 256 MiB");
    }

    @Test
    @DisplayName("a free 8 MiB block serves 5 MiB (same power of two) but not 4 MiB")
    void exactSize() {
        String out = Ch07Outputs.outputExactSizeOnly();
        assertThat(out).containsPattern("pin\\(4 MiB.*new cudaHostAlloc").containsPattern("pin\\(5 MiB.*reuses");
    }

    @Test
    @DisplayName("a shrinking batch reuses none of the larger free blocks: one block per size class")
    void wandering() {
        String[] lines = Ch07Outputs.outputWanderingSizes().split("\n");
        assertThat(lines).hasSize(5);
        assertThat(lines[4]).contains("block 4 MiB", "owned 124 MiB", "checked out 4 MiB", "cudaHostAlloc x5");
    }

    @Test
    @DisplayName("synchronize() alone does not move active_bytes; the next allocation does")
    void statsLag() {
        String[] lines = Ch07Outputs.outputStatsLag().split("\n");
        assertThat(lines[1]).contains("active_bytes 32 MiB");
        assertThat(lines[3]).contains("active_bytes 1 KiB", "pending events 0");
    }

    @Test
    @DisplayName("one slow copy at the head of the queue keeps a finished block from reuse")
    void headOfLine() {
        String out = Ch07Outputs.outputHeadOfLine();
        assertThat(out).contains("2 MiB copy done=true, 16 MiB copy done=false", "a new block, not the freed",
                "after both streams finish: pending events 0");
    }

    @Test
    @DisplayName("the other outputs print")
    void others() {
        assertThat(Ch07Outputs.outputPinCosts()).contains("1 GiB");
        assertThat(Ch07Outputs.outputStepArithmetic()).contains("measured by the clock");
        assertThat(Ch07Outputs.outputRoundingBill()).contains("128 GiB");
        assertThat(Ch07Outputs.outputGraphKeepsStaging()).contains("parked forever: [pinned@");
    }
}
