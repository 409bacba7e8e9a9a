package vramlab.ch05;

import static org.assertj.core.api.Assertions.assertThat;
import static vramlab.units.Bytes.mib;

import java.util.List;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import vramlab.alloc.Block;
import vramlab.alloc.CachingAllocator;
import vramlab.alloc.Segment;

/** The growing-segment figure draws both allocators' own segments after each request. */
@DisplayName("One segment growing in its address range, against classic segments")
class GrowingFigureTest {
    @Test
    @DisplayName("classic: a new segment when the request does not fit a free block; expandable: one segment, pages mapped as needed")
    void segmentsAreTheAllocators() {
        String svg = Ch05Figures.figureGrowing();
        long asked = 0;
        for (int k = 1; k <= Ch05Figures.GROWING.length; k++) {
            asked += Ch05Figures.GROWING[k - 1];
            List<CachingAllocator> both = Ch05Figures.growingAfter(k);
            CachingAllocator classic = both.get(0), expandable = both.get(1);
            assertThat(expandable.segments()).hasSize(1);
            Segment one = expandable.segments().iterator().next();
            assertThat(one.isExpandable()).isTrue();
            long page = one.pages().pageSize();
            assertThat(expandable.reserved()).as("whole pages, just enough for %d B", asked)
                    .isEqualTo((asked + page - 1) / page * page);
            for (Segment s : classic.segments()) assertThat(s.isExpandable()).isFalse();
            assertThat(svg).contains(">" + Ch05Figures.growingLabel(k, "classic segments", classic) + "<")
                    .contains(">" + Ch05Figures.growingLabel(k, "expandable segment", expandable) + "<");
            for (CachingAllocator a : both) {
                for (Segment s : a.segments()) {
                    for (Block b : s.blocks()) assertThat(svg).contains("segment " + s.id() + ": ");
                }
            }
        }
        List<CachingAllocator> last = Ch05Figures.growingAfter(Ch05Figures.GROWING.length);
        assertThat(last.get(0).segments()).as("8 MiB in a 20 MiB segment, each 14 MiB in one of its own").hasSize(3);
        assertThat(last.get(0).reserved()).isEqualTo(mib(20) + mib(14) + mib(14));
        assertThat(last.get(1).reserved()).isEqualTo(mib(40));
        Segment one = last.get(1).segments().iterator().next();
        boolean straddles = one.blocks().stream().anyMatch(b -> b.isAllocated()
                && b.offset() / one.pages().pageSize() != (b.offset() + b.size() - 1) / one.pages().pageSize());
        assertThat(straddles).as("a live block crosses a page boundary").isTrue();
    }
}
