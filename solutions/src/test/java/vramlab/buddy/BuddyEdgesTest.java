package vramlab.buddy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static vramlab.units.Bytes.gib;
import static vramlab.units.Bytes.kib;
import static vramlab.units.Bytes.mib;

import java.util.Collection;
import java.util.List;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import vramlab.driver.Gpu;
import vramlab.driver.GpuProcess;
import vramlab.gmmu.Access;
import vramlab.gmmu.PageSize;

/** The buddy allocator's and its backings' promises at their edges, with a minimum block above one byte. */
@DisplayName("The buddy allocator at its edges")
class BuddyEdgesTest {
    /** Memory from nowhere: for pools too large for any device, to check the constructor's rules. */
    static final class NoBacking extends Backing {
        @Override public long base() { return 0; }
        @Override public long reserved() { return 0; }
        @Override void commit(long offset, long size) { }
        @Override void release(long offset, long size) { }
        @Override void check(Collection<BuddyAllocator.Span> liveBlocks) { }
        @Override public String name() { return "none"; }
    }

    /** 16 KiB of 4 KiB pages: orders 12 to 14. */
    static BuddyAllocator pages() {
        return BuddyAllocator.upfront(new Gpu(gib(1)).openToyProcess(), kib(16), 12, 14);
    }

    @Nested
    @DisplayName("the constructor: 0 <= min <= max <= 62, the pool a positive multiple of the largest block")
    class Construction {
        @ParameterizedTest(name = "pool {0}, orders {1}..{2}")
        @CsvSource({"1, 0, 0", "4611686018427387904, 62, 62", "8, 3, 3"})
        @DisplayName("the extreme legal orders are accepted")
        void accepted(long pool, int min, int max) {
            BuddyAllocator b = new BuddyAllocator(pool, min, max, new NoBacking());
            assertThat(b.minOrder()).isEqualTo(min);
            assertThat(b.maxOrder()).isEqualTo(max);
            assertThat(b.poolBytes()).isEqualTo(pool);
            assertThat(b.freeCounts()[max - min]).isEqualTo(pool >> max);
        }

        @ParameterizedTest(name = "pool {0}, orders {1}..{2}: {3}")
        @CsvSource(delimiter = '|', textBlock = """
                16 | -1 | 4  | orders must satisfy
                16 | 5  | 4  | orders must satisfy
                16 | 0  | 63 | orders must satisfy
                0  | 0  | 4  | pool of 0 bytes is not a positive multiple
                24 | 0  | 4  | pool of 24 bytes is not a positive multiple
                """)
        @DisplayName("anything else is refused, naming the values")
        void refused(long pool, int min, int max, String message) {
            assertThatThrownBy(() -> new BuddyAllocator(pool, min, max, new NoBacking()))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(message);
        }
    }

    @Nested
    @DisplayName("sizes in minimum blocks")
    class MinimumBlocks {
        @Test
        @DisplayName("the map counts minimum blocks, not bytes")
        void map() {
            BuddyAllocator b = pages();
            b.alloc(kib(4));
            assertThat(b.map()).isEqualTo("[A 1][F 1][F 2]");
            assertThat(b.toString()).isEqualTo(b.map());
        }

        @ParameterizedTest(name = "order {0} -> {1}/1000")
        @CsvSource({"12, 0", "13, 333", "14, 1000"})
        @DisplayName("unusable_free_index with 4 KiB pages: 3 free pages, one alone, two in an 8 KiB block")
        void unusableIndex(int order, int thousandths) {
            BuddyAllocator b = pages();
            b.alloc(kib(4));                               // free: one 4 KiB block, one 8 KiB block
            assertThat(b.unusableIndex(order)).isEqualTo(thousandths);
        }

        @Test
        @DisplayName("a full pool's free space is all unusable (1000), and nothing fits")
        void full() {
            BuddyAllocator b = pages();
            b.alloc(kib(16));
            assertThat(b.unusableIndex(12)).isEqualTo(1000);
            assertThat(b.fits(1)).isFalse();
            assertThat(b.largestFreeBlock()).isZero();
        }

        @Test
        @DisplayName("fits: a positive size up to the largest block that a free block can serve")
        void fits() {
            BuddyAllocator b = pages();
            assertThat(b.fits(kib(16))).isTrue();
            assertThat(b.fits(kib(16) + 1)).as("larger than any block: false, not an exception").isFalse();
            assertThat(b.fits(0)).isFalse();
            assertThat(b.fits(-1)).isFalse();
            b.alloc(kib(4));
            assertThat(b.fits(kib(8))).isTrue();
            assertThat(b.fits(kib(8) + 1)).isFalse();
        }

        @Test
        @DisplayName("orderFor names what is wrong: not positive, or larger than 2^max bytes")
        void orderMessages() {
            BuddyAllocator b = pages();
            assertThatThrownBy(() -> b.orderFor(0)).hasMessageContaining("alloc(0): size must be positive");
            assertThatThrownBy(() -> b.orderFor(kib(16) + 1))
                    .hasMessageContaining("larger than the largest block, 2^14 = 16384 bytes");
        }
    }

    @Nested
    @DisplayName("the rules' own results")
    class Results {
        @Test
        @DisplayName("splitDown keeps the lower half and says where it is; mergeUp says the order it reached")
        void splitAndMerge() {
            BuddyAllocator b = BuddyAllocator.upfront(new Gpu(gib(1)).openToyProcess(), mib(32), 20, 24);
            b.freeArea(24).remove(mib(16));               // take the second top block
            assertThat(b.splitDown(mib(16), 24, 20)).isEqualTo(mib(16));
            assertThat(b.freeArea(20)).containsExactly(mib(17));
            assertThat(b.mergeUp(mib(16), 20)).as("it merges all the way back up").isEqualTo(24);
            assertThat(b.freeArea(24)).containsExactly(0L, mib(16));
        }

        @Test
        @DisplayName("the counters: calls, failed calls, requested and allocated bytes, and what an OOM says")
        void counters() {
            BuddyAllocator b = pages();
            b.alloc(5000);
            assertThat(b.requested()).isEqualTo(5000);
            assertThat(b.allocated()).isEqualTo(kib(8));
            assertThatThrownBy(() -> b.alloc(kib(16))).isInstanceOfSatisfying(BuddyOutOfMemoryError.class, e -> {
                assertThat(e.requested()).isEqualTo(kib(16));
                assertThat(e.order()).isEqualTo(14);
                assertThat(e.getMessage()).contains("largest free block 8192 of 8192 free bytes");
            });
            assertThat(b.allocCalls()).isEqualTo(2);
            assertThat(b.failedCalls()).isEqualTo(1);
            assertThat(b.liveByOffset()).containsOnlyKeys(0L);
        }

        @Test
        @DisplayName("compaction places the largest blocks first, at the lowest addresses, and counts what moved")
        void compaction() {
            BuddyAllocator b = BuddyAllocator.onDemand(new Gpu(gib(1)).openToyProcess(), mib(32), 21, 25);
            long small = b.alloc(mib(2)), gap = b.alloc(mib(2)), big = b.alloc(mib(8));
            b.free(gap);                                  // [A 1][F 1][F 2][A 4][F 8]
            BuddyAllocator.Compaction c = b.compact();
            b.checkInvariants();
            assertThat(b.map()).as("8 MiB first at 0, then the 2 MiB block").isEqualTo("[A 4][A 1][F 1][F 2][F 8]");
            assertThat(c.moved()).containsExactly(java.util.Map.entry(big, b.base()),
                    java.util.Map.entry(small, b.base() + mib(8)));
            assertThat(c.bytesMoved()).isEqualTo(mib(10));
            assertThat(b.reserved()).as("pages only under the live blocks").isEqualTo(mib(10));
            assertThat(b.allocCalls()).as("re-placements are not calls").isEqualTo(3);
        }
    }

    @Nested
    @DisplayName("the backings")
    class Backings {
        @Test
        @DisplayName("an upfront pool starts at its cudaMalloc, and its checker notices when that is gone")
        void upfront() {
            GpuProcess p = new Gpu(gib(1)).openToyProcess();
            BuddyAllocator b = BuddyAllocator.upfront(p, mib(4), 12, 22);
            assertThat(b.backing().name()).isEqualTo("upfront");
            assertThat(b.base()).isPositive().isEqualTo(b.backing().base());
            assertThat(b.alloc(kib(4))).isEqualTo(b.base());
            p.cudaFree(b.base());
            assertThatThrownBy(b::checkInvariants).hasMessageContaining("pool's cudaMalloc is gone");
        }

        @Test
        @DisplayName("an on-demand pool maps its pages with read-write access, at its reservation")
        void onDemandAccess() {
            GpuProcess p = new Gpu(gib(1)).openToyProcess();
            BuddyAllocator b = BuddyAllocator.onDemand(p, mib(32), 21, 25);
            assertThat(b.backing().name()).isEqualTo("on-demand");
            long x = b.alloc(mib(2));
            assertThat(x).isEqualTo(b.base()).isPositive();
            assertThat(p.addressSpace().find(x, PageSize.SIZE_2M).access()).isEqualTo(Access.READWRITE);
        }

        @Test
        @DisplayName("a block over two pages, of which the driver has one, commits neither")
        void allOrNothing() {
            GpuProcess p = new Gpu(mib(4)).openToyProcess();
            BuddyAllocator b = BuddyAllocator.onDemand(p, mib(32), 21, 25);
            b.alloc(mib(2));
            assertThatThrownBy(() -> b.alloc(mib(4))).isInstanceOf(BuddyOutOfMemoryError.class);
            assertThat(p.mappedBytes()).as("the page it did get went back").isEqualTo(mib(2));
            b.checkInvariants();
            assertThat(b.fits(mib(4))).as("the pool itself still has the room").isTrue();
            List<BuddyAllocator.Span> spans = b.spans();
            assertThat(spans).hasSize(5);
        }
    }
}
