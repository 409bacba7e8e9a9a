package vramlab.contest;

import static org.assertj.core.api.Assertions.assertThat;
import static vramlab.units.Bytes.gib;
import static vramlab.units.Bytes.kib;
import static vramlab.units.Bytes.mib;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import vramlab.driver.Gpu;

/** What JShell shows for the contest's entry: slabs by class, large segments, live blocks. */
@DisplayName("SegregatedFits prints its slabs, large segments and live blocks")
class SegregatedFitsTextTest {
    @Test
    @DisplayName("a fresh entry, then slabs of two classes and a large segment, cached once freed")
    void slabsSegmentsLive() {
        SegregatedFits f = new SegregatedFits(new Gpu(gib(1)).openToyProcess());
        assertThat(f).hasToString("segregated-fits: 0 slabs of 2 MiB, 0 large segments: 0 bytes (0 cached),"
                + " 0 live blocks: 0 bytes");
        f.alloc(500, 0);
        f.alloc(kib(40), 0);
        long big = f.alloc(mib(19), 0);
        assertThat(f).hasToString("segregated-fits: 2 slabs of 2 MiB (512 B: 1, 64 KiB: 1),"
                + " 1 large segment: 20.00 MiB (0 cached), 3 live blocks: 20.06 MiB");
        f.free(big);
        assertThat(f.toString()).endsWith(", 1 large segment: 20.00 MiB (1 cached), 2 live blocks: 64.50 KiB");
    }
}
