package vramlab.ch04;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Step 4.1's worked example, "the lab's fragmentation, then alloc(8 MiB)", read 12 MiB reserved
 * but unallocated: it asked the scenario's Sim after the scenario had also taken a 4 MiB hole,
 * while the lab's OOM line, the notes' listing and the prose after the table all read 16 MiB.
 */
class Ch04ExamplesTest {
    @Test
    @DisplayName("4.1's first row is the message the lab prints at its OOM, 16 MiB reserved but unallocated")
    void fragmentationRowIsTheLabs() {
        assertThat(Ch04Examples.example4_1()).contains(
                "CUDA out of memory. Tried to allocate 20 MiB (device 40 MiB; 40 MiB reserved; "
                        + "16 MiB is reserved but unallocated; largest free block 4 MiB)")
                .doesNotContain("12 MiB is reserved but unallocated");
    }
}
