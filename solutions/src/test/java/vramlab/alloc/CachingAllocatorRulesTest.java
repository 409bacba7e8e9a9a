package vramlab.alloc;

import static org.assertj.core.api.Assertions.assertThat;
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
import vramlab.driver.DriverCall;
import vramlab.driver.Gpu;
import vramlab.driver.GpuProcess;

/**
 * Rules of c10/cuda/CUDACachingAllocator.cpp @001074d that the model tests do not reach, each
 * at its boundary: malloc's second search after the free-memory callbacks, the 1 EiB front
 * door, garbage collection only with a threshold, best fit on expandable segments (ties keep
 * the lower address), {@code release_available_cached_blocks} stopping exactly at the request,
 * the addresses the trace records for mapped and unmapped pages, and where a replay's hinted
 * segments go.
 */
@DisplayName("The caching allocator's rules at their edges")
class CachingAllocatorRulesTest {
    static CachingAllocator allocator(long capacity, String conf) {
        return new CachingAllocator(new Gpu(capacity).openToyProcess(), CodeFraction.policy(conf));
    }

    @Nested
    @DisplayName("malloc: get_free_block || (trigger_free_memory_callbacks && get_free_block)")
    class Callbacks {
        @Test
        @DisplayName("a callback that frees a block and says so lets the second search reuse it: no new segment")
        void secondSearch() {
            CachingAllocator a = allocator(gib(1), "");
            Block held = a.alloc(mib(20));
            a.addFreeMemoryCallback(() -> false);
            a.addFreeMemoryCallback(() -> { a.free(held); return true; });
            a.addFreeMemoryCallback(() -> false);         // any callback that freed is enough
            Block b = a.alloc(mib(20));
            a.checkInvariants();
            assertThat(b.address()).isEqualTo(held.address());
            assertThat(a.reserved()).isEqualTo(mib(20));
            assertThat(a.segments()).hasSize(1);
        }

        @Test
        @DisplayName("callbacks that report nothing freed: no second search, a new segment")
        void nothingFreed() {
            CachingAllocator a = allocator(gib(1), "");
            Block held = a.alloc(mib(20));
            a.addFreeMemoryCallback(() -> { a.free(held); return false; });
            Block b = a.alloc(mib(20));
            a.checkInvariants();
            assertThat(b.address()).isNotEqualTo(held.address());
            assertThat(a.reserved()).isEqualTo(mib(40));
        }

        @Test
        @DisplayName("callbacks run only when no cached block fits")
        void onlyOnMiss() {
            CachingAllocator a = allocator(gib(1), "");
            a.free(a.alloc(mib(20)));
            int[] calls = {0};
            a.addFreeMemoryCallback(() -> { calls[0]++; return true; });
            a.alloc(mib(20));
            assertThat(calls[0]).isZero();
            a.alloc(mib(20));
            assertThat(calls[0]).isEqualTo(1);
        }
    }

    @Nested
    @DisplayName("the front door: 1 EiB (one_exa_bytes) or more is an OOM before any search")
    class FrontDoor {
        @ParameterizedTest(name = "2^60 {0} B -> the 1EB message: {1}")
        @CsvSource({"-512, false", "0, true", "1, true"})
        @DisplayName("from exactly 2^60 bytes on")
        void exa(long delta, boolean exa) {
            CachingAllocator a = allocator(gib(1), "");
            assertThatThrownBy(() -> a.alloc(OutOfMemory.ONE_EXA_BYTES + delta))
                    .isInstanceOf(CudaOutOfMemoryError.class)
                    .satisfies(e -> assertThat(e.getMessage().contains("more than 1EB")).isEqualTo(exa));
            assertThat(a.memoryStats().numOoms()).as("the front door counts no OOM").isEqualTo(exa ? 0 : 1);
        }
    }

    @Nested
    @DisplayName("malloc's OOM error: the message of the state at the failure, a stack trace unless OOMs are expected")
    class OomErrors {
        /** A 64 MiB card with two live 20 MiB blocks: a third request of 40 MiB is an OOM. */
        private CudaOutOfMemoryError oomOn(CachingAllocator a) {
            a.alloc(mib(20));
            a.alloc(mib(20));
            try {
                a.alloc(mib(40));
            } catch (CudaOutOfMemoryError e) {
                return e;
            }
            throw new AssertionError("no OOM on " + a);
        }

        @Test
        @DisplayName("a message read after the allocator moved on is the one read at once")
        void messageOfTheFailure() {
            CachingAllocator now = allocator(mib(64), "");
            String atOnce = oomOn(now).getMessage();
            CachingAllocator later = allocator(mib(64), "");
            CudaOutOfMemoryError e = oomOn(later);
            later.alloc(mib(1));                       // a new 2 MiB segment after the OOM
            assertThat(later.reserved()).as("the state changed since the OOM").isNotEqualTo(now.reserved());
            assertThat(e.getMessage()).isEqualTo(atOnce).startsWith("CUDA out of memory. Tried to allocate 40.00 MiB.");
            assertThat(e.getMessage()).as("read twice").isSameAs(e.getMessage());
        }

        @Test
        @DisplayName("expectOoms(true), as a replay sets it: no stack trace; by default the frames from alloc up")
        void stackTrace() {
            CachingAllocator plain = allocator(mib(64), "");
            assertThat(oomOn(plain).getStackTrace()).extracting(StackTraceElement::getMethodName).contains("alloc");
            CachingAllocator replay = allocator(mib(64), "");
            replay.expectOoms(true);
            CudaOutOfMemoryError e = oomOn(replay);
            assertThat(e.getStackTrace()).isEmpty();
            assertThat(e.getMessage()).isEqualTo(oomOn(allocator(mib(64), "")).getMessage());
        }
    }

    @Nested
    @DisplayName("garbage collection runs only with a memory fraction AND a threshold above 0")
    class GcEnabled {
        @Test
        @DisplayName("a fraction without garbage_collection_threshold keeps old cached blocks")
        void fractionAlone() {
            CachingAllocator a = allocator(gib(1), "per_process_memory_fraction:0.5");
            a.free(a.alloc(mib(30)));
            a.alloc(mib(40));                             // the 30 MiB block does not fit
            a.checkInvariants();
            assertThat(a.reserved()).as("nothing collected").isEqualTo(mib(70));
            assertThat(a.freeBlocks(PoolKind.LARGE)).extracting(Block::size).containsExactly(mib(30));
        }
    }

    @Nested
    @DisplayName("get_free_block on expandable segments: a block counts as large as it could grow")
    class ExpandableBestFit {
        static final long P = mib(20);                    // the large pool's page
        static final long R = 0x7f00_0000_0000L;

        /** [L1 live][A free][unmapped 2 pages][L2 live][B free][unmapped 2 pages][L3 live]... */
        CachingAllocator layout() {
            CachingAllocator a = allocator(gib(1), "expandable_segments:True");
            SegmentRestore.mappedRange(a, R, R, 2 * P, PoolKind.LARGE, 0, List.of(new Live(R, P, P)));
            SegmentRestore.mappedRange(a, R, R + 4 * P, 2 * P, PoolKind.LARGE, 0, List.of(new Live(R + 4 * P, P, P)));
            SegmentRestore.mappedRange(a, R, R + 8 * P, P, PoolKind.LARGE, 0, List.of(new Live(R + 8 * P, P, P)));
            a.checkInvariants();
            return a;
        }

        @Test
        @DisplayName("two free blocks that could grow to the same size: the lower address wins (a strict <)")
        void tieKeepsLower() {
            CachingAllocator a = layout();
            assertThat(a.freeBlocks(PoolKind.LARGE)).extracting(Block::address).containsExactly(R + P, R + 5 * P);
            Block b = a.alloc(P);
            a.checkInvariants();
            assertThat(b.address()).isEqualTo(R + P);
        }
    }

    @Nested
    @DisplayName("release_available_cached_blocks: oversize blocks, largest first, until they cover the request")
    class ReleaseUntilCovered {
        @Test
        @DisplayName("stops as soon as what it released equals the request, and retries at once")
        void exactlyCovered() {
            CachingAllocator a = allocator(mib(250), "max_split_size_mb:64");
            Block x = a.alloc(mib(70)), y = a.alloc(mib(66)), z = a.alloc(mib(64));
            a.free(x);
            a.free(y);
            a.free(z);                                    // cached oversize: 64, 66, 70 MiB
            Block b = a.alloc(mib(136));                  // 70 + 66 = 136: exactly enough
            a.checkInvariants();
            assertThat(b.size()).isEqualTo(mib(136));
            assertThat(a.freeBlocks(PoolKind.LARGE)).extracting(Block::size).containsExactly(mib(64));
            assertThat(a.memoryStats().numAllocRetries()).as("no release_cached_blocks").isZero();
            assertThat(a.reserved()).isEqualTo(mib(64) + mib(136));
        }
    }

    @Nested
    @DisplayName("without max_split_size, malloc asks the driver twice: at once, and after release_cached_blocks")
    class TwoAttempts {
        @Test
        @DisplayName("a request of two pages with room for one: two attempts, each creating one page and giving it back")
        void twoAttempts() {
            Gpu gpu = new Gpu(gib(1));
            GpuProcess other = gpu.open(2, "other", 0);
            GpuProcess mine = gpu.openToyProcess();
            other.cudaMalloc(mine.cudaMemGetInfo().free() - mib(30));     // 30 MiB left: one 20 MiB page
            CachingAllocator a = new CachingAllocator(mine, new PyTorchPolicy("expandable_segments:True"));
            assertThatThrownBy(() -> a.alloc(mib(40))).isInstanceOf(CudaOutOfMemoryError.class);
            a.checkInvariants();
            assertThat(mine.driverCalls(DriverCall.CU_MEM_CREATE)).as("release_available_cached_blocks "
                    + "returns false at once, so no attempt between").isEqualTo(2);
            assertThat(a.memoryStats().numAllocRetries()).isEqualTo(1);
        }
    }

    @Nested
    @DisplayName("the trace's segment_map and segment_unmap name the pages' own address")
    class TraceAddresses {
        @Test
        @DisplayName("each mapped or unmapped range at its address, not the reservation's")
        void mapAndUnmap() {
            CachingAllocator a = allocator(gib(1), "expandable_segments:True");
            a.trace().record(true, 100);
            Block x = a.alloc(mib(20)), y = a.alloc(mib(20));
            a.free(y);
            a.emptyCache();
            List<DeviceTrace.Entry> maps = a.trace().entries().stream()
                    .filter(e -> e.action() == DeviceTrace.Action.SEGMENT_MAP).toList();
            assertThat(maps).extracting(DeviceTrace.Entry::addr).containsExactly(x.address(), y.address());
            assertThat(y.address()).isEqualTo(x.address() + mib(20));
            assertThat(a.trace().entries()).filteredOn(e -> e.action() == DeviceTrace.Action.SEGMENT_UNMAP)
                    .extracting(DeviceTrace.Entry::addr, DeviceTrace.Entry::size)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple(y.address(), mib(20)));
        }

        @Test
        @DisplayName("segments are numbered in the order they are made, an expandable one included")
        void ids() {
            CachingAllocator a = allocator(gib(1), "");
            a.alloc(mib(20));
            SegmentRestore.mappedRange(a, 0x7f00_0000_0000L, 0x7f00_0000_0000L, mib(20), PoolKind.LARGE, 0,
                    List.of());
            a.alloc(mib(30));
            assertThat(a.segments()).extracting(Segment::id).containsExactly(0, 1, 2);
        }
    }

    @Nested
    @DisplayName("where a segment starts when a replay gives addresses (expectSegmentAt)")
    class Hints {
        @Test
        @DisplayName("a hinted segment may end exactly where another begins, or begin exactly where one ends")
        void adjacent() {
            CachingAllocator a = allocator(gib(1), "");
            long p = a.alloc(mib(20)).address();
            a.expectSegmentAt(p - mib(30));
            assertThat(a.alloc(mib(30)).address()).as("ends at the first").isEqualTo(p - mib(30));
            long h = p + mib(200);
            a.expectSegmentAt(h);
            assertThat(a.alloc(mib(20)).address()).isEqualTo(h);
            a.expectSegmentAt(h + mib(20));
            assertThat(a.alloc(mib(30)).address()).as("begins where the hinted one ends").isEqualTo(h + mib(20));
            a.checkInvariants();
        }

        @Test
        @DisplayName("a hint over a segment held is ignored; the driver's pointer is used")
        void overlapping() {
            CachingAllocator a = allocator(gib(1), "");
            long p = a.alloc(mib(20)).address();
            a.expectSegmentAt(p + mib(10));
            assertThat(a.alloc(mib(20)).address()).isEqualTo(p + mib(20));
            a.expectSegmentAt(p - mib(10));
            assertThat(a.alloc(mib(20)).address()).isEqualTo(p + mib(40));
        }

        @Test
        @DisplayName("a driver pointer that falls inside a hinted segment moves above the highest segment")
        void driverPointerTaken() {
            CachingAllocator a = allocator(gib(1), "");
            long p = a.alloc(mib(20)).address();          // the driver's next pointer is p + 20 MiB
            a.expectSegmentAt(p + mib(40));
            assertThat(a.alloc(mib(20)).address()).isEqualTo(p + mib(40));   // its pointer is p + 20 MiB
            assertThat(a.alloc(mib(20)).address()).as("the driver says p + 40 MiB: taken").isEqualTo(p + mib(60));
            a.checkInvariants();
        }
    }

    @Nested
    @DisplayName("step 3.5's body on its own: cudaFree every whole free cudaMalloc segment")
    class ReleaseWhole {
        @Test
        @DisplayName("returns the bytes given back; a segment with a live block keeps all of its bytes")
        void returned() {
            CachingAllocator a = allocator(gib(1), "");
            Block live = a.alloc(mib(5));                 // splits a 20 MiB segment
            Block x = a.alloc(mib(20)), y = a.alloc(mib(30));
            a.free(x);
            a.free(y);
            assertThat(a.release().releaseWholeFreeSegments()).isEqualTo(mib(50));
            assertThat(a.reserved()).isEqualTo(mib(20));
            assertThat(live.isAllocated()).isTrue();
        }
    }
}
