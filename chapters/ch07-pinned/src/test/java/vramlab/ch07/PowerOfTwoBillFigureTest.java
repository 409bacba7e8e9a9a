package vramlab.ch07;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import vramlab.pinned.PinnedSim;
import vramlab.units.Bytes;

/** The power-of-two bill draws the block the allocator pins for each batch, checked against PowerOf2Ceil. */
@DisplayName("Rule 1's bill, as a figure")
class PowerOfTwoBillFigureTest {
    /** PowerOf2Ceil as a reference: the smallest power of two at least {@code n}. */
    private static long powerOf2Ceil(long n) {
        long p = 1;
        while (p < n) p <<= 1;
        return p;
    }

    @Test
    @DisplayName("each bar is the allocator's block for the batch, the next power of two, and its unused share")
    void blocksAreTheAllocators() {
        String svg = Ch07Figures.figurePowerOfTwoBill();
        for (long asked : Ch07Figures.BILL_SIZES) {
            long block = new PinnedSim().pin(asked).size();
            assertThat(block).as("block for %d B", asked).isEqualTo(powerOf2Ceil(asked));
            assertThat(svg).contains(">block of " + Bytes.readable(block) + " for " + Bytes.readable(asked) + "<")
                    .contains(">" + Ch07Figures.billLabel(asked, block) + "<");
        }
        assertThat(Ch07Figures.billLabel(Bytes.mib(16), Bytes.mib(16))).endsWith(" 0% unused");
        assertThat(Ch07Figures.billLabel(Bytes.mib(8) + 1, Bytes.mib(16))).endsWith(" 50% unused");
    }
}
