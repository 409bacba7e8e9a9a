package vramlab.ch06;

import static org.assertj.core.api.Assertions.assertThat;
import static vramlab.units.Bytes.mib;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import vramlab.buddy.BuddyAllocator;
import vramlab.kv.KvBlockPool;
import vramlab.kv.KvCacheManager;

/** The checkerboard and the block tables draw the simulator's own state, block by block. */
@DisplayName("The buddy checkerboard and the block tables, as figures")
class BuddyFiguresTest {
    @Test
    @DisplayName("the checkerboard: the freed blocks are the free cells, every free block's buddy is live, 2 MiB is refused")
    void checkerboard() {
        BuddyAllocator b = Ch06Outputs.neighboursNotBuddies();
        String svg = Ch06Figures.figureCheckerboard();
        List<Integer> freed = new ArrayList<>();
        for (int i : Ch06Outputs.FREED_NEIGHBOURS) freed.add(i);
        for (int i = 0; i < 16; i++) {
            boolean free = freed.contains(i);
            assertThat(svg).contains((free ? "free" : "live") + " block " + i + ", order 20 at ");
            long buddy = BuddyAllocator.buddyOf(mib(i), 20) / mib(1);
            if (free) assertThat(freed).as("block %d's buddy %d", i, buddy).doesNotContain((int) buddy);
        }
        assertThat(b.freeBytes()).isEqualTo(mib(8));
        assertThat(b.largestFreeBlock()).isEqualTo(mib(1));
        assertThat(b.fits(mib(2))).isFalse();
        assertThat(svg).contains("alloc(2 MiB) is refused").contains("order 21: " + b.unusableIndex(21) + "/1000");
        assertThat(svg.split(">free pair<", -1)).as("four free neighbour pairs marked").hasSize(5);
        assertThat(svg.split(">buddies<", -1)).as("eight buddy pairs marked").hasSize(9);
    }

    @Test
    @DisplayName("the block tables: each cell is the request's physical block, and the pool row says whose each block is")
    void blockTables() {
        KvCacheManager m = Ch06Figures.blockTableRun();
        String svg = Ch06Figures.figureBlockTable();
        List<Integer> seen = new ArrayList<>();
        for (String r : Ch06Figures.TABLE_REQUESTS) {
            List<Integer> table = m.blocks(r);
            assertThat(table).hasSize(m.blocksNeeded(m.tokens(r)));
            for (int k = 0; k < table.size(); k++) {
                assertThat(svg).contains("request " + r + ", logical block " + k + " is physical block " + table.get(k) + "<");
                assertThat(svg).contains("physical block " + table.get(k) + ": request " + r + "<");
                seen.add(table.get(k));
            }
        }
        assertThat(seen).as("no block in two tables").doesNotHaveDuplicates().doesNotContain(KvBlockPool.NULL_BLOCK);
        assertThat(svg).contains("physical block 0: the null block<");
        long free = svg.split(": free<", -1).length - 1;
        assertThat(free).isEqualTo(m.pool().numFreeBlocks());

        // what the caption says: d took the blocks b freed, and a's last block is not beside its others
        KvCacheManager replay = Ch06Outputs.paged(12);
        replay.allocateSlots("a", 40);
        replay.allocateSlots("b", 30);
        List<Integer> bBlocks = List.copyOf(replay.blocks("b"));
        assertThat(m.blocks("d")).containsAll(bBlocks).hasSizeGreaterThan(bBlocks.size());
        List<Integer> a = m.blocks("a");
        assertThat(a.get(a.size() - 1)).isNotEqualTo(a.get(a.size() - 2) + 1);
    }
}
