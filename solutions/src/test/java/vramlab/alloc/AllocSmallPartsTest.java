package vramlab.alloc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static vramlab.units.Bytes.gib;
import static vramlab.units.Bytes.kib;
import static vramlab.units.Bytes.mib;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import vramlab.driver.Gpu;

/** Small parts of the allocator's lab: the segment bar's cells, the stats line, SimExp's arena. */
@DisplayName("The allocator lab's small parts")
class AllocSmallPartsTest {
    @Test
    @DisplayName("a bar cell with any live byte is live; a block ending exactly at a cell's start is not in it")
    void barCellMiddle() {
        CachingAllocator a = new CachingAllocator(new Gpu(gib(1)).openToyProcess(), new PyTorchPolicy());
        a.alloc(mib(1) + kib(512));                      // [0, 1.5M) live in a 20 MiB segment
        Segment s = a.segments().iterator().next();
        assertThat(SegmentMap.bar(s)).as("cell 1 [1M, 2M) holds live bytes [1M, 1.5M)")
                .isEqualTo("|##" + ".".repeat(18) + "|");
        Segment whole = new Segment(7, 1L << 40, mib(4), PoolKind.LARGE, 0);
        whole.first = new Block(whole, 0, 0, mib(2));
        whole.first.allocated = true;
        whole.first.next = new Block(whole, 0, mib(2), mib(2));
        whole.first.next.prev = whole.first;
        assertThat(SegmentMap.bar(whole)).as("the live block ends at byte 2M, cell 2's first").isEqualTo("|##..|");
        a.alloc(mib(1) + 1);                             // [1.5M, 2.5M + 512): over 1 MiB, so large
        assertThat(SegmentMap.bar(s)).isEqualTo("|###" + ".".repeat(17) + "|");
    }

    @Test
    @DisplayName("memory_stats prints the four byte counters with their peaks, the segments, retries and OOMs")
    void statsLine() {
        CachingAllocator a = new CachingAllocator(new Gpu(gib(1)).openToyProcess(), new PyTorchPolicy());
        a.free(a.alloc(mib(6)));
        a.alloc(mib(3));
        assertThat(a.memoryStats()).hasToString("memory_stats: requested 3.00 MiB (peak 6.00 MiB),"
                + " allocated 3.00 MiB (peak 6.00 MiB), reserved 20.00 MiB (peak 20.00 MiB),"
                + " active 3.00 MiB (peak 6.00 MiB), segments 1, num_alloc_retries 0, num_ooms 0");
    }

    @Test
    @DisplayName("SimExp's arena (twice the card) fills to its last byte, then refuses")
    void arenaFull() {
        SimExp exp = new SimExp(mib(40));                // an 80 MiB arena
        for (int i = 0; i < 4; i++) exp.free(exp.alloc(mib(20)));
        assertThat(exp.toString()).contains("next VA at +80M of a 80 MiB arena");
        assertThatThrownBy(() -> exp.alloc(1)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("arena of " + mib(80) + " B is full");
        assertThat(exp.mapped()).isZero();
    }
}
