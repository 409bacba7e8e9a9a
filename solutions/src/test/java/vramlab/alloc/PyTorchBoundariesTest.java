package vramlab.alloc;

import static org.assertj.core.api.Assertions.assertThat;
import static vramlab.units.Bytes.mib;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import vramlab.driver.Gpu;

/**
 * PyTorch's rules exactly at their boundaries, where the random model tests never land. Every
 * expectation is read off c10/cuda/CUDACachingAllocator.cpp @001074d (DeviceCachingAllocator):
 * {@code should_split}, {@code get_free_block} and {@code release_available_cached_blocks}.
 * The figures are worked out by hand from those bodies; none is taken from the kit's output.
 */
@DisplayName("PyTorch's allocator rules at their boundaries")
class PyTorchBoundariesTest {
    static final long MAX_SPLIT = mib(64);

    static CachingAllocator allocator(long capacity, String conf) {
        return new CachingAllocator(new Gpu(capacity).openToyProcess(), new PyTorchPolicy(conf));
    }

    /** Allocates and frees {@code size} bytes on {@code stream}: one cached block of one segment. */
    static void cache(CachingAllocator a, long size, int stream) {
        a.free(a.alloc(size, stream));
        a.checkInvariants();
    }

    @Nested
    @DisplayName("should_split: (size < max_split_size) && (remaining > kSmallSize) in the large pool")
    class ShouldSplit {
        @ParameterizedTest(name = "block {0} MiB + {1} B, request {2} MiB + {3} B -> {4}")
        @CsvSource(delimiter = '|', textBlock = """
                # block MiB | + B  | request MiB | + B   | split | why
                200         | 0    | 63          | 0     | true  | under max_split_size, 137 MiB remain
                200         | 0    | 64          | -512  | true  | the largest request under max_split_size
                200         | 0    | 64          | 0     | false | a request of exactly max_split_size is not split
                200         | 0    | 65          | 0     | false | above max_split_size
                64          | 512  | 63          | 0     | true  | 1 MiB + 512 B remain: more than kSmallSize
                64          | 0    | 63          | 0     | false | exactly 1 MiB remains: not more than kSmallSize
                """)
        @DisplayName("with max_split_size_mb:64")
        void maxSplit(long blockMib, long blockB, long requestMib, long requestB, boolean split, String why) {
            PyTorchPolicy p = new PyTorchPolicy("max_split_size_mb:64");
            assertThat(p.shouldSplit(PoolKind.LARGE, mib(blockMib) + blockB, mib(requestMib) + requestB))
                    .as(why).isEqualTo(split);
        }

        @Test
        @DisplayName("an allocation of exactly max_split_size takes a whole cached block, unsplit")
        void wholeBlock() {
            CachingAllocator a = allocator(mib(1024), "max_split_size_mb:64");
            cache(a, mib(80), 0);
            Block b = a.alloc(MAX_SPLIT);
            a.checkInvariants();
            assertThat(b.size()).as("80 MiB < 64 MiB + kLargeBuffer, so the cached block serves it whole")
                    .isEqualTo(mib(80));
            assertThat(a.reserved()).isEqualTo(mib(80));
            assertThat(a.freeBlocks(PoolKind.LARGE)).isEmpty();
        }
    }

    @Nested
    @DisplayName("get_free_block's two max_split_size rules")
    class OversizeRules {
        @Test
        @DisplayName("a request under max_split_size never takes a cached block of exactly max_split_size")
        void smallRequestSkipsOversize() {
            CachingAllocator a = allocator(mib(1024), "max_split_size_mb:64");
            cache(a, MAX_SPLIT, 0);                      // one cached 64 MiB block: oversize (>=)
            Block b = a.alloc(mib(30));
            a.checkInvariants();
            assertThat(b.segment().size()).as("a new 30 MiB segment, not the oversize block").isEqualTo(mib(30));
            assertThat(a.reserved()).isEqualTo(MAX_SPLIT + mib(30));
            assertThat(a.freeBlocks(PoolKind.LARGE)).extracting(Block::size).containsExactly(MAX_SPLIT);
        }

        @Test
        @DisplayName("a request just under max_split_size takes a block just under it, and splits it")
        void underOversize() {
            CachingAllocator a = allocator(mib(1024), "max_split_size_mb:64");
            cache(a, MAX_SPLIT - mib(2), 0);             // 62 MiB: not oversize
            Block b = a.alloc(mib(30));
            a.checkInvariants();
            assertThat(b.size()).isEqualTo(mib(30));
            assertThat(a.reserved()).as("no new segment").isEqualTo(MAX_SPLIT - mib(2));
        }

        @ParameterizedTest(name = "cached {0} MiB, request {1} MiB -> reused: {2}")
        @CsvSource(delimiter = '|', textBlock = """
                # cached | request | reused | why
                84       | 64      | false  | 84 >= 64 + kLargeBuffer (20 MiB): too much to waste
                82       | 64      | true   | 82 < 84: within the limit
                100      | 80      | false  | 100 >= 80 + 20
                98       | 80      | true   | 98 < 100
                """)
        @DisplayName("an oversize request takes only a cached block under its size plus kLargeBuffer")
        void oversizeLimit(long cachedMib, long requestMib, boolean reused, String why) {
            CachingAllocator a = allocator(mib(1024), "max_split_size_mb:64");
            cache(a, mib(cachedMib), 0);
            Block b = a.alloc(mib(requestMib));
            a.checkInvariants();
            assertThat(b.segment().size() == mib(cachedMib)).as(why).isEqualTo(reused);
            assertThat(a.reserved()).as(why).isEqualTo(mib(cachedMib) + (reused ? 0 : mib(requestMib)));
        }

        @Test
        @DisplayName("without max_split_size the same requests reuse any larger cached block")
        void unlimited() {
            CachingAllocator a = allocator(mib(1024), "");
            cache(a, mib(84), 0);
            Block b = a.alloc(mib(64));
            a.checkInvariants();
            assertThat(b.segment().size()).isEqualTo(mib(84));
            assertThat(b.size()).as("split: 20 MiB remain, more than 1 MiB").isEqualTo(mib(64));
        }
    }

    @Nested
    @DisplayName("release_available_cached_blocks frees oversize blocks of the request's stream only")
    class ReleaseAvailable {
        /**
         * A 250 MiB card holding a cached 100 MiB block on stream 1 and cached oversize blocks
         * {@code stream0} (MiB) on stream 0; nothing else fits.
         */
        CachingAllocator setUp(long... stream0) {
            CachingAllocator a = allocator(mib(250), "max_split_size_mb:64");
            Block one = a.alloc(mib(100), 1);
            Block[] zero = new Block[stream0.length];
            for (int i = 0; i < stream0.length; i++) zero[i] = a.alloc(mib(stream0[i]), 0);
            a.free(one);
            for (Block b : zero) a.free(b);
            a.checkInvariants();
            return a;
        }

        @Test
        @DisplayName("the smallest block that fits is on another stream: it is not released, and the "
                + "request's own blocks do not cover it, so everything is flushed and retried")
        void otherStreamsBlockFits() {
            CachingAllocator a = setUp(70);
            Block b = a.alloc(mib(120), 0);
            a.checkInvariants();
            assertThat(b.size()).isEqualTo(mib(120));
            assertThat(a.memoryStats().numAllocRetries()).as("the third attempt, after release_cached_blocks")
                    .isEqualTo(1);
            assertThat(a.reserved()).as("both cached blocks went back").isEqualTo(mib(120));
        }

        @Test
        @DisplayName("its own oversize blocks, largest first, cover the request: released, retried at once")
        void ownBlocksCover() {
            CachingAllocator a = setUp(70, 64);
            Block b = a.alloc(mib(120), 0);
            a.checkInvariants();
            assertThat(b.size()).isEqualTo(mib(120));
            assertThat(a.memoryStats().numAllocRetries()).as("served by the second attempt").isZero();
            assertThat(a.memoryStats().asMap().get("num_sync_all_streams")).as("no release_cached_blocks").isZero();
            assertThat(a.reserved()).as("stream 1's 100 MiB block stays cached").isEqualTo(mib(100) + mib(120));
        }

        @Test
        @DisplayName("a request on a stream with no cached block of its own releases nothing of another's")
        void noneOfItsOwn() {
            CachingAllocator a = allocator(mib(250), "max_split_size_mb:64");
            Block x = a.alloc(mib(80), 0), y = a.alloc(mib(70), 0);
            a.free(x);
            a.free(y);                                  // stream 0 caches 150 MiB of oversize blocks
            Block b = a.alloc(mib(120), 1);
            a.checkInvariants();
            assertThat(b.size()).isEqualTo(mib(120));
            assertThat(a.memoryStats().numAllocRetries()).as("stream 0's blocks are not stream 1's to free: "
                    + "only the flush frees them").isEqualTo(1);
            assertThat(a.reserved()).isEqualTo(mib(120));
        }
    }
}
