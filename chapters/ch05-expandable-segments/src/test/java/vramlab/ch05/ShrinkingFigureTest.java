package vramlab.ch05;

import static org.assertj.core.api.Assertions.assertThat;
import static vramlab.units.Bytes.mib;

import java.util.List;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import vramlab.alloc.Block;
import vramlab.alloc.Segment;

/** The shrinking figure: what empty_cache unmapped is exactly the pages wholly inside free blocks. */
@DisplayName("empty_cache() on an expandable segment, as a figure")
class ShrinkingFigureTest {
    @Test
    @DisplayName("each row's mapped pages are those touching a live block, checked page by page; the labels are the run's")
    void pagesAreTheAllocators() {
        List<Ch05Figures.ShrinkStep> steps = Ch05Figures.shrinkingRun();
        String svg = Ch05Figures.figureShrinking();
        for (Ch05Figures.ShrinkStep st : steps) {
            assertThat(svg).contains(">" + Ch05Figures.shrinkLabel(st) + "<");
            Segment seg = st.allocator().segments().iterator().next();
            long page = seg.pages().pageSize();
            for (int p = 0; p < seg.pages().pageCount(); p++) {
                long from = p * page, to = from + page;
                boolean touchesLive = false;
                for (Block b : seg.blocks()) {
                    if (b.isAllocated() && b.offset() < to && b.offset() + b.size() > from) touchesLive = true;
                }
                assertThat(seg.pages().isMapped(p)).as("%s: page %d", st.caption(), p).isEqualTo(touchesLive);
            }
        }
        assertThat(steps.get(1).released()).as("the freed block straddles both pages: nothing to unmap").isZero();
        assertThat(steps.get(2).released()).isEqualTo(mib(20));
        assertThat(steps.get(2).allocator().reserved()).isEqualTo(mib(20));
    }
}
