package vramlab.alloc;

import static org.assertj.core.api.Assertions.assertThat;
import static vramlab.units.Bytes.gib;
import static vramlab.units.Bytes.mib;

import java.util.List;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import vramlab.driver.Gpu;
import vramlab.driver.GpuProcess;

/**
 * Expandable segments where a page boundary falls inside a free block, and a mapping the card
 * cannot back (CCA ExpandableSegment::map and unmap_block @001074d).
 */
@DisplayName("Expandable segments at their page edges")
class ExpandableEdgesTest {
    @Test
    @DisplayName("empty_cache keeps the partial page at a free block's front mapped and moves the unmapped rest")
    void partialFrontPage() {
        CachingAllocator a = new CachingAllocator(new Gpu(gib(1)).openToyProcess(),
                new PyTorchPolicy("expandable_segments:True"));
        Block x = a.alloc(mib(30));                      // pages 0-1: [x 30M][free 10M]
        Block y = a.alloc(mib(40));                      // maps pages 2-3: y = [30M, 70M)
        a.free(y);                                       // free [30M, 80M)
        a.emptyCache();                                  // pages 2-3 go; [30M, 40M) stays mapped
        a.checkInvariants();
        Segment s = x.segment();
        List<Block> blocks = s.blocks();
        assertThat(blocks).extracting(Block::offset).startsWith(0L, mib(30), mib(40));
        assertThat(blocks).extracting(Block::isMapped).startsWith(true, true, false);
        for (Block b : blocks) assertThat(b.address()).as("%s", b).isEqualTo(s.address() + b.offset());
        assertThat(a.reserved()).isEqualTo(mib(40));
        Block z = a.alloc(mib(50));                      // the moved block is found and mapped again
        a.checkInvariants();
        assertThat(z.address()).isEqualTo(s.address() + mib(30));
    }

    @Test
    @DisplayName("a page the card cannot back: the range returned starts at the page asked for, with size 0")
    void outOfPages() {
        GpuProcess p = new Gpu(mib(100)).openToyProcess();
        ExpandableSegment pages = new ExpandableSegment(p, p.gpu().totalMemory(), mib(20));
        int page = 0;
        ExpandableSegment.Range r;
        while ((r = pages.map(page * mib(20), mib(20))).size() > 0) page++;
        assertThat(page).as("some pages fit").isPositive();
        assertThat(r.offset()).isEqualTo(page * mib(20));
        assertThat(pages.mappedBytes()).isEqualTo(page * mib(20));
        assertThat(pages.isMapped(page)).isFalse();
    }
}
