package vramlab.pinned;

import static org.assertj.core.api.Assertions.assertThat;
import static vramlab.units.Bytes.MiB;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import vramlab.driver.DeviceBuffer;
import vramlab.driver.Stream;

/**
 * The pinned allocator's rules where a one-character slip would go unnoticed: a block used on
 * two streams, and the options exactly at their thresholds.
 */
@DisplayName("The pinned allocator at its boundaries")
class PinnedBoundariesTest {
    PinnedSim sim = new PinnedSim();

    HostBlock pin(long size) { HostBlock b = sim.pin(size); sim.checkInvariants(); return b; }
    void del(HostBlock b) { sim.del(b); sim.checkInvariants(); }

    @Nested
    @DisplayName("a block used on two streams")
    class TwoStreams {
        /**
         * CachingHostAllocatorImpl::free (aten/src/ATen/core/CachingHostAllocator.h @0445633)
         * records one event per stream in the block's {@code streams_} and adds their number
         * to {@code event_count_}; the block is reusable only when every one has retired.
         */
        @Test
        @DisplayName("waits for both streams' events: the first to retire leaves it waiting")
        void waitsForBoth() {
            Stream s0 = sim.stream();
            Stream s1 = new Stream(1, "stream 1", sim.clock(), s0.engine());
            DeviceBuffer dev = sim.cuda(MiB);
            HostBlock a = pin(MiB);
            sim.copyToDevice(dev, a);                     // stream 0: done within a millisecond
            s1.kernel("busy", 10_000_000);                // stream 1: busy for 10 ms first
            s1.memcpyAsync(dev, a, MiB);
            sim.allocator().recordEvent(a, s1);
            del(a);
            assertThat(sim.allocator().pendingEvents()).as("one event per stream").isEqualTo(2);
            assertThat(a.eventCount()).isEqualTo(2);
            sim.clock().advanceBy(1_000_000);             // stream 0's event retires, stream 1's not
            HostBlock b = pin(MiB);
            assertThat(b).as("stream 1 still reads a").isNotSameAs(a);
            assertThat(a.eventCount()).isEqualTo(1);
            assertThat(sim.allocator().pendingEvents()).isEqualTo(1);
            sim.synchronize();
            sim.allocator().processEvents();
            sim.checkInvariants();
            assertThat(a.eventCount()).isZero();
            assertThat(sim.allocator().freeLists().get(MiB)).containsExactly(a);
            assertThat(pin(MiB)).isSameAs(a);
        }

        @Test
        @DisplayName("two uses on the same stream record one event")
        void sameStreamTwice() {
            DeviceBuffer dev = sim.cuda(MiB);
            HostBlock a = pin(MiB);
            sim.copyToDevice(dev, a);
            sim.copyToDevice(dev, a);
            del(a);
            assertThat(sim.allocator().pendingEvents()).isEqualTo(1);
            assertThat(a.eventCount()).isEqualTo(1);
        }
    }

    @Nested
    @DisplayName("the options exactly at their thresholds")
    class Thresholds {
        @ParameterizedTest(name = "threshold 48 MiB, request 48 MiB {0} B -> {1} B")
        @CsvSource({"-1, 67108864", "0, 67108864", "1, 50331649"})
        @DisplayName("pinned_max_round_threshold_mb: a request of exactly the threshold is still rounded")
        void roundThreshold(long delta, long block) {
            sim = new PinnedSim("pinned_max_round_threshold_mb:48");
            assertThat(sim.allocator().roundSize(48 * MiB + delta)).isEqualTo(block);
            assertThat(pin(48 * MiB + delta).size()).isEqualTo(block);
        }

        @ParameterizedTest(name = "limit 48 MiB, request 48 MiB {0} B -> {1} B")
        @CsvSource({"0, 67108864", "1, 50331649"})
        @DisplayName("pinned_max_cached_size_mb: requests above the limit are pinned at their exact size")
        void cachedSizeRounding(long delta, long block) {
            sim = new PinnedSim("pinned_max_cached_size_mb:48");
            assertThat(sim.allocator().roundSize(48 * MiB + delta)).isEqualTo(block);
        }

        @Test
        @DisplayName("pinned_max_cached_size_mb: a block of exactly the limit is cached, one byte more is released")
        void cachedSizeFate() {
            sim = new PinnedSim("pinned_max_cached_size_mb:32");
            del(pin(32 * MiB));
            assertThat(sim.hostMemoryStats().allocatedBytes()).as("cached").isEqualTo(32 * MiB);
            del(pin(32 * MiB + 1));
            assertThat(sim.hostMemoryStats().allocatedBytes()).as("released at free").isEqualTo(32 * MiB);
            assertThat(sim.hostMemoryStats().numHostFree()).isEqualTo(1);
        }

        /**
         * allocate rounds when the REQUEST is at or below both limits ({@code size <=
         * pinned_max_round_threshold() && size <= pinned_max_cached_size()}), and
         * {@code maybe_cache_block} releases when the BLOCK is above the cache limit
         * ({@code block->size_ > pinned_max_cached_size()}): CHA.h after pytorch/pytorch#171662,
         * as Continuous-Integrator/pytorch@2533df0 carries it. A request under a limit that is not
         * a power of two can so round to a block above it, which is released at free.
         */
        @Test
        @DisplayName("pinned_max_cached_size_mb compares the rounded block: a 40 MiB request under a 48 MiB limit"
                + " gets 64 MiB, released at free")
        void cachedSizeComparesTheBlock() {
            sim = new PinnedSim("pinned_max_cached_size_mb:48");
            HostBlock b = pin(40 * MiB);
            assertThat(b.size()).as("40 MiB <= 48 MiB: rounded").isEqualTo(64 * MiB);
            del(b);
            assertThat(sim.hostMemoryStats().allocatedBytes()).as("64 MiB > 48 MiB: released").isZero();
            assertThat(sim.hostMemoryStats().numHostFree()).isEqualTo(1);
        }

        /**
         * get_free_block after pytorch/pytorch#192722 ({@code for (auto it = list.rbegin(); ...)
         * if (block->size_ >= size)}): the scan starts at the back and passes over a block too
         * small for the request, down to one that fits.
         */
        @Test
        @DisplayName("pinned_max_round_threshold_mb: the scan from the back passes over a block too small")
        void scanPassesOverASmallBlock() {
            sim = new PinnedSim("pinned_max_round_threshold_mb:1");
            HostBlock threeAndAHalf = pin(3 * MiB + MiB / 2);
            HostBlock three = pin(3 * MiB);
            del(threeAndAHalf);
            del(three);
            assertThat(sim.allocator().freeBuckets(0)).as("bucket 22, (2, 4] MiB, oldest first")
                    .containsOnlyKeys(22).containsEntry(22, java.util.List.of(threeAndAHalf, three));
            assertThat(pin(3 * MiB + MiB / 4)).as("3.25 MiB: the back block (3 MiB) is too small").isSameAs(threeAndAHalf);
            assertThat(pin(5 * MiB / 2)).as("2.5 MiB: the back block fits").isSameAs(three);
            assertThat(sim.hostMemoryStats().numHostAlloc()).isEqualTo(2);
        }

        /**
         * With the round threshold below the cache limit, unrounded blocks are cached, and one
         * bucket ({@code Log2_64_Ceil} of the size) holds several sizes. pytorch/pytorch#192722
         * (PyTorch 2.14) makes {@code get_free_block} take a block of the bucket at least as
         * large as the request, the back one first; never a smaller one, never another bucket's.
         */
        @Test
        @DisplayName("pinned_max_round_threshold_mb: a request reuses the last freed block of its bucket that fits")
        void unroundedBlocksShareABucket() {
            sim = new PinnedSim("pinned_max_round_threshold_mb:1");
            HostBlock three = pin(3 * MiB);
            HostBlock threeAndAHalf = pin(3 * MiB + MiB / 2);
            del(three);
            del(threeAndAHalf);
            assertThat(pin(5 * MiB / 2)).as("2.5 MiB: bucket (2, 4] MiB, last freed first").isSameAs(threeAndAHalf);
            HostBlock bigger = pin(3 * MiB + MiB / 4);
            assertThat(bigger).as("3.25 MiB: the 3 MiB block is too small").isNotSameAs(three);
            assertThat(bigger.size()).isEqualTo(3 * MiB + MiB / 4);
            assertThat(pin(3 * MiB / 2)).as("1.5 MiB: bucket (1, 2] MiB, not the 3 MiB block's").isNotSameAs(three);
            assertThat(pin(3 * MiB)).isSameAs(three);
            assertThat(sim.hostMemoryStats().numHostAlloc()).isEqualTo(4);
        }

        /**
         * CHA.h {@code size_index} is {@code Log2_64_Ceil(size)} (@0445633), {@code
         * std::bit_width(size - 1)} in the header after pytorch/pytorch#192722: bucket i holds
         * (2^(i-1), 2^i], and the largest {@code long} falls in bucket 63 of the 64.
         */
        @ParameterizedTest(name = "{0} B -> bucket {1}")
        @CsvSource({"1, 0", "2, 1", "3, 2", "4, 2", "5, 3", "3145728, 22", "4194304, 22", "4194305, 23",
                "4611686018427387904, 62", "4611686018427387905, 63", "9223372036854775807, 63"})
        @DisplayName("a block's bucket is the base-2 logarithm of its size, rounded up")
        void sizeIndex(long size, int index) {
            assertThat(FreeLists.sizeIndex(size)).isEqualTo(index);
        }
    }
}
