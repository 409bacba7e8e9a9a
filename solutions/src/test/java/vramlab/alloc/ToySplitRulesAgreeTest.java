package vramlab.alloc;

import static org.assertj.core.api.Assertions.assertThat;
import static vramlab.units.Bytes.MiB;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Chapter 3's step 3.2 tests split with PyTorch's rule in place of the toy's (step 3.3, not yet
 * written when 3.2 is checked): they may only if the two split the same blocks on every size the
 * toy makes. A toy block is a 2 MiB small segment or a piece of one in 512 B steps, or a large
 * segment (20 MiB or more, in 2 MiB steps) or a piece of one in 2 MiB steps.
 */
@DisplayName("On the toy's sizes, PyTorch's split rule splits exactly the blocks the toy's does")
class ToySplitRulesAgreeTest {
    private final ToyPolicy toy = new ToyPolicy();
    private final PyTorchPolicy pytorch = new PyTorchPolicy();

    @Test
    @DisplayName("small pool: every block up to 2 MiB and every request up to it, in 512 B steps")
    void smallPool() {
        int n = 0;
        for (long block = 512; block <= 2 * MiB; block += 512) {
            for (long rounded = 512; rounded <= Math.min(block, MiB); rounded += 512) {
                assertThat(pytorch.shouldSplit(PoolKind.SMALL, block, rounded))
                        .as("small %d B block serving %d B", block, rounded)
                        .isEqualTo(toy.shouldSplit(PoolKind.SMALL, block, rounded));
                n++;
            }
        }
        assertThat(n).isGreaterThan(100_000);
    }

    @Test
    @DisplayName("large pool: every block up to 200 MiB and every request above 1 MiB up to it, in 2 MiB steps")
    void largePool() {
        for (long block = 2 * MiB; block <= 200 * MiB; block += 2 * MiB) {
            for (long rounded = 2 * MiB; rounded <= block; rounded += 2 * MiB) {
                assertThat(pytorch.shouldSplit(PoolKind.LARGE, block, rounded))
                        .as("large %d MiB block serving %d MiB", block / MiB, rounded / MiB)
                        .isEqualTo(toy.shouldSplit(PoolKind.LARGE, block, rounded));
            }
        }
    }
}
