package vramlab.alloc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static vramlab.units.Bytes.gib;
import static vramlab.units.Bytes.mib;

import java.util.List;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import vramlab.alloc.SegmentRestore.Live;
import vramlab.driver.Gpu;

/**
 * Restoring segments that a recorded history began with, as PyTorch's
 * {@code setSegmentStateToCheckpoint} (c10/cuda/CUDACachingAllocator.cpp @001074d) does it:
 * hand every block out front to back, then free the ones that are not live, so that the books
 * come out as if the allocator had made the blocks itself.
 */
@DisplayName("Restoring a segment's recorded state")
class SegmentRestoreTest {
    static final long AT = 0x7f00_0000_0000L;

    static CachingAllocator allocator(String conf) {
        return new CachingAllocator(new Gpu(gib(1)).openToyProcess(), new PyTorchPolicy(conf));
    }

    /** Every statistic's current value: what both ways of reaching one state must agree on. */
    static java.util.Map<String, Long> currents(CachingAllocator a) {
        java.util.Map<String, Long> m = new java.util.TreeMap<>();
        a.memoryStats().asMap().forEach((k, v) -> { if (k.endsWith(".current")) m.put(k, v); });
        return m;
    }

    @Nested
    @DisplayName("a cudaMalloc segment")
    class CudaMalloc {
        @Test
        @DisplayName("comes back at its address with its live blocks, and the books match an allocator that made them")
        void sameBooks() {
            CachingAllocator made = allocator("");
            Block x = made.alloc(mib(5));
            Block y = made.alloc(mib(3));
            made.free(x);                                 // [x free 5M][y 3M][free 12M]
            made.checkInvariants();

            CachingAllocator restored = allocator("");
            List<Block> lives = SegmentRestore.cudaMalloc(restored, AT, mib(20), PoolKind.LARGE, 0,
                    List.of(new Live(AT + mib(5), mib(3), mib(3))));
            restored.checkInvariants();
            assertThat(lives).extracting(Block::address).containsExactly(AT + mib(5));
            assertThat(lives.get(0).isAllocated()).isTrue();
            assertThat(restored.segments()).extracting(Segment::address).containsExactly(AT);
            assertThat(restored.freeBlocks(PoolKind.LARGE)).extracting(Block::size).containsExactly(mib(5), mib(12));
            assertThat(restored.allocated()).isEqualTo(made.allocated());
            assertThat(restored.requested()).isEqualTo(made.requested());
            assertThat(restored.reserved()).isEqualTo(made.reserved());
            assertThat(currents(restored)).isEqualTo(currents(made));
            assertThat(restored.memoryStats().stat("inactive_split", "large_pool").current()).isEqualTo(2);
        }

        @ParameterizedTest(name = "live blocks at +{0} MiB ({1} MiB) and +{2} MiB ({3} MiB) -> free {4}")
        @CsvSource(delimiter = '|', textBlock = """
                # first | size | second | size | free blocks (MiB)
                0       | 4    | 4      | 16   | ''
                0       | 4    | 10     | 10   | 6
                2       | 4    | 6      | 14   | 2
                2       | 4    | 8      | 4    | 2 2 8
                """)
        @DisplayName("live blocks exactly at either end or side by side leave no empty gap")
        void edges(long first, long firstSize, long second, long secondSize, String free) {
            CachingAllocator a = allocator("");
            List<Block> lives = SegmentRestore.cudaMalloc(a, AT, mib(20), PoolKind.LARGE, 0, List.of(
                    new Live(AT + mib(second), mib(secondSize), mib(secondSize) - 100),
                    new Live(AT + mib(first), mib(firstSize), mib(firstSize))));
            a.checkInvariants();
            assertThat(lives).extracting(Block::address).containsExactly(AT + mib(first), AT + mib(second));
            assertThat(lives.get(1).requested()).isEqualTo(mib(secondSize) - 100);
            List<Long> sizes = free.isEmpty() ? List.of()
                    : java.util.Arrays.stream(free.split(" ")).map(s -> mib(Long.parseLong(s))).toList();
            assertThat(a.freeBlocks(PoolKind.LARGE)).extracting(Block::size).containsExactlyInAnyOrderElementsOf(sizes);
            assertThat(a.allocated()).isEqualTo(mib(firstSize + secondSize));
        }

        @Test
        @DisplayName("a segment with nothing live is one whole free block that empty_cache gives back")
        void nothingLive() {
            CachingAllocator a = allocator("");
            assertThat(SegmentRestore.cudaMalloc(a, AT, mib(20), PoolKind.LARGE, 0, List.of())).isEmpty();
            a.checkInvariants();
            assertThat(a.emptyCache()).isEqualTo(mib(20));
        }

        @Test
        @DisplayName("refuses a live block outside the segment or over another, an address taken, a card too small")
        void refused() {
            CachingAllocator a = allocator("");
            assertThatThrownBy(() -> SegmentRestore.cudaMalloc(a, AT, mib(20), PoolKind.LARGE, 0,
                    List.of(new Live(AT + mib(18), mib(4), mib(4)))))
                    .hasMessageContaining("overlaps another or lies outside");
            CachingAllocator b = allocator("");
            assertThatThrownBy(() -> SegmentRestore.cudaMalloc(b, AT, mib(20), PoolKind.LARGE, 0,
                    List.of(new Live(AT, mib(4), mib(4)), new Live(AT + mib(2), mib(4), mib(4)))))
                    .hasMessageContaining("overlaps another");
            CachingAllocator c = allocator("");
            assertThatThrownBy(() -> SegmentRestore.cudaMalloc(c, AT - mib(2), mib(20), PoolKind.LARGE, 0,
                    List.of(new Live(AT - mib(4), mib(2), mib(2)))))
                    .hasMessageContaining("lies outside");
            CachingAllocator d = allocator("");
            SegmentRestore.cudaMalloc(d, AT, mib(20), PoolKind.LARGE, 0, List.of());
            assertThatThrownBy(() -> SegmentRestore.cudaMalloc(d, AT + mib(10), mib(20), PoolKind.LARGE, 0, List.of()))
                    .hasMessageContaining("overlaps a segment already there");
            assertThatThrownBy(() -> SegmentRestore.cudaMalloc(allocator(""), AT, gib(2), PoolKind.LARGE, 0, List.of()))
                    .hasMessageContaining("no room on the card");
        }

        @ParameterizedTest(name = "{0} B for a request of {1} B")
        @CsvSource({"0, 1", "-512, 1", "512, 0", "512, 513"})
        @DisplayName("a live block has a positive size and a request from 1 B up to its size")
        void liveChecked(long size, long requested) {
            assertThatThrownBy(() -> new Live(AT, size, requested)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining(size + " bytes for a request of " + requested);
        }

        @Test
        @DisplayName("a request of exactly its block's size is a live block")
        void liveExact() {
            assertThat(new Live(AT, 512, 512).requested()).isEqualTo(512);
            assertThat(new Live(AT, 512, 1).requested()).isEqualTo(1);
        }
    }

    @Nested
    @DisplayName("a mapped range of an expandable segment")
    class Mapped {
        static final long PAGE = mib(20);                 // the large pool's page

        @Test
        @DisplayName("maps the range at its offset, makes the reservation once, and carves the live blocks")
        void twoRanges() {
            CachingAllocator a = allocator("expandable_segments:True");
            List<Block> one = SegmentRestore.mappedRange(a, AT, AT + PAGE, PAGE, PoolKind.LARGE, 0,
                    List.of(new Live(AT + PAGE, mib(6), mib(6))));
            List<Block> two = SegmentRestore.mappedRange(a, AT, AT + 3 * PAGE, 2 * PAGE, PoolKind.LARGE, 0,
                    List.of(new Live(AT + 4 * PAGE, mib(2), mib(2))));
            a.checkInvariants();
            assertThat(a.segments()).hasSize(1);
            Segment s = a.segments().iterator().next();
            assertThat(s.address()).isEqualTo(AT);
            assertThat(s.pages().mappedBytes()).isEqualTo(3 * PAGE);
            assertThat(a.reserved()).isEqualTo(3 * PAGE);
            assertThat(one.get(0).address()).isEqualTo(AT + PAGE);
            assertThat(two.get(0).address()).isEqualTo(AT + 4 * PAGE);
            assertThat(a.allocated()).isEqualTo(mib(8));
            assertThat(s.first().isMapped()).as("the page before the first range").isFalse();
            assertThat(s.first().size()).isEqualTo(PAGE);
        }

        @Test
        @DisplayName("a range at the reservation's very start needs no split of the unmapped space")
        void atStart() {
            CachingAllocator a = allocator("expandable_segments:True");
            SegmentRestore.mappedRange(a, AT, AT, PAGE, PoolKind.LARGE, 0, List.of(new Live(AT, PAGE, PAGE)));
            a.checkInvariants();
            assertThat(a.allocated()).isEqualTo(PAGE);
            assertThat(a.segments().iterator().next().first().address()).isEqualTo(AT);
        }

        @ParameterizedTest(name = "offset {0} B, size {1} B")
        @CsvSource({"-20971520, 20971520", "1048576, 20971520", "0, 1048576"})
        @DisplayName("refuses a range that is not whole pages inside the reservation")
        void notPages(long offset, long size) {
            CachingAllocator a = allocator("expandable_segments:True");
            SegmentRestore.mappedRange(a, AT, AT, PAGE, PoolKind.LARGE, 0, List.of());
            assertThatThrownBy(() -> SegmentRestore.mappedRange(a, AT, AT + offset, size, PoolKind.LARGE, 0, List.of()))
                    .hasMessageContaining("is not whole pages of " + PAGE + " bytes inside the reservation");
        }

        @Test
        @DisplayName("refuses a range past the reservation's end, one over a mapped range, and one touching it")
        void overlaps() {
            CachingAllocator a = allocator("expandable_segments:True");
            SegmentRestore.mappedRange(a, AT, AT + PAGE, PAGE, PoolKind.LARGE, 0, List.of());
            long end = a.segments().iterator().next().size();
            assertThatThrownBy(() -> SegmentRestore.mappedRange(a, AT, AT + end, PAGE, PoolKind.LARGE, 0, List.of()))
                    .hasMessageContaining("inside the reservation");
            assertThatCode(() -> SegmentRestore.mappedRange(a, AT, AT + end - PAGE, PAGE, PoolKind.LARGE, 0,
                    List.of())).as("the last page fits exactly").doesNotThrowAnyException();
            assertThatThrownBy(() -> SegmentRestore.mappedRange(a, AT, AT + PAGE, PAGE, PoolKind.LARGE, 0, List.of()))
                    .hasMessageContaining("has no unmapped page at offset " + PAGE);
            assertThatThrownBy(() -> SegmentRestore.mappedRange(a, AT, AT + 2 * PAGE, PAGE, PoolKind.LARGE, 0, List.of()))
                    .hasMessageContaining("touches another mapped range");
        }
    }
}
