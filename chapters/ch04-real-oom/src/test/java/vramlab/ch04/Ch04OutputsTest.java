package vramlab.ch04;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The generated outputs still show what the notes' prose says they show. */
class Ch04OutputsTest {
    @Test
    @DisplayName("16 MiB free in 4 MiB holes, 8 MiB refused, emptyCache releases nothing")
    void freeIsNotFit() {
        assertThat(Ch04Outputs.outputFreeIsNotFit()).contains("free in the cache:   16 MiB",
                "largest free block:  4 MiB", "alloc(8 MiB):        OOM", "released 0 B");
    }

    @Test
    @DisplayName("a 3 MiB request under PyTorch's rules reports the 20 MiB segment")
    void triedToAllocate() {
        assertThat(Ch04Outputs.outputTriedToAllocate()).contains("Tried to allocate 20.00 MiB");
    }

    @Test
    @DisplayName("nvidia-smi's number is reserved plus the context, above the tensors")
    void nvidiaSmiGap() {
        assertThat(Ch04Outputs.outputNvidiaSmiGap()).contains("= what nvidia-smi shows", "+ CUDA context");
    }

    @Test
    @DisplayName("the unpadded ratchet runs out of memory; padded to 128 tokens it does not")
    void ratchet() {
        String out = Ch04Outputs.outputRatchetAndPadding();
        assertThat(out.substring(0, out.indexOf("padded"))).contains("OOM:");
        assertThat(out.substring(out.indexOf("padded"))).contains("no OOM");
    }

    @Test
    @DisplayName("the graph's pool stays reserved and emptyCache cannot reach it")
    void graphPool() {
        assertThat(Ch04Outputs.outputGraphPoolStays()).contains("empty_cache() there releases 0 bytes");
    }

    @Test
    @DisplayName("the twin maps whole pages: 3 MiB + 1 B maps 4 MiB")
    void expandableTax() {
        assertThat(Ch04Outputs.outputExpandableKeepsTheTax()).contains("mapped 4 MiB");
    }

    @Test
    @DisplayName("the fix ladder lists all six causes with their fixes")
    void fixLadder() {
        String out = "\n" + Ch04Outputs.outputFixLadder();
        for (int step = 1; step <= 6; step++) assertThat(out).contains("\n" + step + ". ");
        assertThat(out).contains("expandable_segments:True");
    }
}
