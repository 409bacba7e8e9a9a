package vramlab.alloc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static vramlab.units.Bytes.mib;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import vramlab.driver.Gpu;

/**
 * The memory fraction and garbage collection, step by step, as c10/cuda/CUDACachingAllocator.cpp
 * @001074d has them: {@code setMemoryFraction} (allowed = fraction * total, fraction in [0, 1]),
 * {@code alloc_block} (fail when {@code total_allocated_memory + size > allowed}), and
 * {@code garbage_collect_cached_blocks}: above {@code threshold * allowed}, with the target
 * {@code reserved - threshold * allowed}, release the unsplit cached large blocks whose age
 * (the pool's get_free_block calls since the block was cached) is at least the average age,
 * pass after pass, until the target is reclaimed or a pass frees nothing. Ages below are
 * counted by hand from those rules. Every request here is at least 10 MiB, so each block is a
 * whole segment of exactly its size (get_allocation_size).
 */
@DisplayName("memory fraction and garbage collection")
class GarbageCollectionTest {
    static CachingAllocator allocator(long device, String conf) {
        CachingAllocator a = new CachingAllocator(new Gpu(device).openToyProcess(), CodeFraction.policy(conf));
        a.trace().record(true, Long.MAX_VALUE);
        return a;
    }

    @Nested
    @DisplayName("setMemoryFraction and alloc_block")
    class Fraction {
        @Test
        @DisplayName("a fraction of 0 allows nothing: the first cudaMalloc is refused")
        void zero() {
            CachingAllocator a = allocator(mib(80), "per_process_memory_fraction:0");
            assertThat(a.allowedMemory()).isZero();
            assertThatThrownBy(() -> a.alloc(mib(1))).isInstanceOf(CudaOutOfMemoryError.class);
            assertThat(a.reserved()).isZero();
        }

        @Test
        @DisplayName("an allocation that reaches the allowed bytes exactly is granted; one byte more is not")
        void exactlyAllowed() {
            CachingAllocator a = allocator(mib(80), "per_process_memory_fraction:0.25");   // 20 MiB
            assertThat(a.allowedMemory()).isEqualTo(mib(20));
            Block b = a.alloc(mib(5));                     // a 20 MiB segment: 0 + 20 > 20 is false
            a.checkInvariants();
            assertThat(a.reserved()).isEqualTo(mib(20));
            assertThatThrownBy(() -> a.alloc(mib(16))).as("16 MiB more needs a second segment")
                    .isInstanceOf(CudaOutOfMemoryError.class);
            assertThat(b.isAllocated()).isTrue();
        }

        @ParameterizedTest(name = "fraction {0} is accepted")
        @ValueSource(doubles = {0.0, 0.5, 1.0})
        @DisplayName("setMemoryFraction takes [0, 1], both ends included")
        void accepted(double fraction) {
            CachingAllocator a = allocator(mib(80), "");
            a.setMemoryFraction(fraction);
            assertThat(a.allowedMemory()).isEqualTo((long) (fraction * mib(80)));
        }

        @ParameterizedTest(name = "fraction {0} is refused")
        @ValueSource(doubles = {-0.01, 1.01, Double.NaN})
        @DisplayName("setMemoryFraction refuses anything outside [0, 1], naming the value")
        void refused(double fraction) {
            CachingAllocator a = allocator(mib(80), "");
            assertThatThrownBy(() -> a.setMemoryFraction(fraction)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("invalid fraction:" + fraction + ". Please set within [0, 1].");
        }

        @Test
        @DisplayName("a fraction without garbage_collection_threshold never releases cached blocks early")
        void fractionAloneKeepsTheCache() {
            CachingAllocator a = allocator(mib(200), "per_process_memory_fraction:0.9");
            a.free(a.alloc(mib(30)));
            a.alloc(mib(40));                              // a new segment; the cached 30 MiB stays
            a.checkInvariants();
            assertThat(a.reserved()).isEqualTo(mib(70));
            assertThat(a.freeBlocks(PoolKind.LARGE)).extracting(Block::size).containsExactly(mib(30));
        }
    }

    @Nested
    @DisplayName("garbage_collect_cached_blocks")
    class Collect {
        /**
         * 128 MiB allowed (thresholds below are exact in binary, so threshold * allowed is a
         * whole number of MiB): a (12 MiB) and b (14 MiB) are cached at get_free_block calls 3
         * and 4, d ({@code dMiB}) and a 16 MiB block stay live, reserved 42 MiB + d. A 20 MiB
         * request is then call 6 and misses the cache: ages a = 3, b = 2, average 2.5.
         */
        CachingAllocator twoAges(String gc, long dMiB) {
            CachingAllocator a = allocator(mib(128),
                    "per_process_memory_fraction:1.0,garbage_collection_threshold:" + gc);
            Block x = a.alloc(mib(12)), y = a.alloc(mib(14)), z = a.alloc(mib(16));   // calls 1, 2, 3
            a.free(x);                                     // a: cached at call 3
            a.alloc(mib(dMiB));                            // call 4 misses: a new segment
            a.free(y);                                     // b: cached at call 4
            a.free(z);
            a.alloc(mib(16));                              // call 5 takes z's block back
            a.checkInvariants();
            assertThat(a.reserved()).isEqualTo(mib(42 + dMiB));
            return a;
        }

        @Test
        @DisplayName("target 12 MiB (76 reserved, threshold 64): the first pass frees the older block, "
                + "which reclaims the target exactly, and stops")
        void oldestFirst() {
            CachingAllocator a = twoAges("0.5", 34);
            a.alloc(mib(20));
            a.checkInvariants();
            assertThat(a.freeBlocks(PoolKind.LARGE)).extracting(Block::size).containsExactly(mib(14));
            assertThat(a.reserved()).isEqualTo(mib(76 - 12 + 20));
        }

        @Test
        @DisplayName("target 28 MiB (76 reserved, threshold 48): a second pass, at the new average 2, frees the other")
        void secondPass() {
            CachingAllocator a = twoAges("0.375", 34);
            a.alloc(mib(20));
            a.checkInvariants();
            assertThat(a.freeBlocks(PoolKind.LARGE)).isEmpty();
            assertThat(a.reserved()).isEqualTo(mib(76 - 26 + 20));
        }

        @Test
        @DisplayName("blocks exactly at the average age are old enough, and a pass does not stop at the target")
        void equalAges() {
            CachingAllocator a = allocator(mib(128),
                    "per_process_memory_fraction:1.0,garbage_collection_threshold:0.5");
            Block x = a.alloc(mib(12)), y = a.alloc(mib(14));
            a.alloc(mib(40));                              // reserved 66
            a.free(x);
            a.free(y);                                     // both cached at call 3: ages equal the average
            a.alloc(mib(20));                              // call 4 misses; 66 > 64: target 2 MiB
            a.checkInvariants();
            assertThat(a.freeBlocks(PoolKind.LARGE)).isEmpty();
            assertThat(a.reserved()).isEqualTo(mib(40 + 20));
        }

        @Test
        @DisplayName("under the threshold nothing is collected")
        void underThreshold() {
            CachingAllocator a = allocator(mib(128),
                    "per_process_memory_fraction:1.0,garbage_collection_threshold:0.75");
            Block x = a.alloc(mib(30));
            a.alloc(mib(40));
            a.free(x);                                     // reserved 70 <= 96
            a.alloc(mib(35));                              // the cached 30 MiB block cannot serve it
            a.checkInvariants();
            assertThat(a.freeBlocks(PoolKind.LARGE)).extracting(Block::size).containsExactly(mib(30));
            assertThat(a.reserved()).as("a 36 MiB segment beside the cache").isEqualTo(mib(106));
        }

        @Test
        @DisplayName("a split cached block is never collected, whatever its age")
        void splitBlocksStay() {
            CachingAllocator a = allocator(mib(128),
                    "per_process_memory_fraction:1.0,garbage_collection_threshold:0.25");
            Block small = a.alloc(mib(4)), keep = a.alloc(mib(4));   // one 20 MiB segment, split
            a.alloc(mib(30));
            a.free(small);                                 // [4 free][4 live][12 free]: both split
            a.alloc(mib(20));                              // 50 > 32: collect, but nothing unsplit is cached
            a.checkInvariants();
            assertThat(a.reserved()).isEqualTo(mib(20 + 30 + 20));
            assertThat(keep.isAllocated()).isTrue();
        }
    }
}
