package vramlab.alloc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static vramlab.units.Bytes.mib;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import vramlab.alloc.DeviceTrace.Action;
import vramlab.driver.Gpu;
import vramlab.driver.GpuProcess;

/** The allocator core under PyTorch's rules: recovery, OOM, fraction, GC, streams. */
@DisplayName("PyTorch policy on the allocator core")
class PyTorchAllocatorTest {

    static CachingAllocator allocator(long device, String conf) {
        return new CachingAllocator(new Gpu(device).openToyProcess(), CodeFraction.policy(conf));
    }

    static List<Action> actions(CachingAllocator a) {
        return a.trace().entries().stream().map(DeviceTrace.Entry::action).toList();
    }

    @Nested
    @DisplayName("the OOM error")
    class Oom {
        @Test
        @DisplayName("matches PyTorch 2.x's text character for character, with this state's numbers")
        void message() {
            Gpu gpu = new Gpu(0, mib(100), 0);
            GpuProcess other = gpu.open(4242, "other", mib(10));
            other.cudaMalloc(mib(20));
            GpuProcess me = gpu.open(1000, "python", mib(4));
            CachingAllocator a = new CachingAllocator(me, new PyTorchPolicy());
            a.trace().record(true, 100);
            a.alloc(mib(40));                                // a 40 MiB segment
            a.alloc(mib(5));                                 // 5 MiB of a 20 MiB segment
            // device: 100 - 30 (other) - 4 (context) - 60 (segments) = 6 MiB free
            // 16 MiB does not fit the 15 MiB left in the 20 MiB segment: a 16 MiB cudaMalloc
            assertThatThrownBy(() -> a.alloc(mib(16)))
                    .isInstanceOf(CudaOutOfMemoryError.class)
                    .hasMessage("CUDA out of memory. Tried to allocate 16.00 MiB. GPU 0 has a total "
                            + "capacity of 100.00 MiB of which 6.00 MiB is free. Process 4242 has 30.00 MiB "
                            + "memory in use. Including non-PyTorch memory, this process has 64.00 MiB memory "
                            + "in use. Of the allocated memory 45.00 MiB is allocated by PyTorch, and 15.00 MiB "
                            + "is reserved by PyTorch but unallocated. If reserved but unallocated memory is "
                            + "large try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid "
                            + "fragmentation.  See documentation for Memory Management  "
                            + "(https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)");
            a.checkInvariants();
            assertThat(a.memoryStats().numOoms()).isEqualTo(1);
            assertThat(a.memoryStats().numAllocRetries()).as("the flush-and-retry ran").isEqualTo(1);
            DeviceTrace.Entry oom = a.trace().entries().get(a.trace().entries().size() - 1);
            assertThat(oom).isEqualTo(new DeviceTrace.Entry(Action.OOM, mib(6), mib(16), 0, oom.timeUs()));
        }

        @Test
        @DisplayName("lists each process's memory as it is at each OOM, the same list when nothing moved")
        void processListPerOom() {
            Gpu gpu = new Gpu(0, mib(100), 0);
            GpuProcess other = gpu.open(4242, "other", mib(10));
            GpuProcess me = gpu.open(1000, "python", mib(4));
            CachingAllocator a = new CachingAllocator(me, new PyTorchPolicy());
            a.alloc(mib(60));
            java.util.function.Supplier<List<PyTorchOomMessage.ProcessUsage>> now = () -> List.of(
                    new PyTorchOomMessage.ProcessUsage(4242, other.physicalBytes(), false),
                    new PyTorchOomMessage.ProcessUsage(1000, me.physicalBytes(), true));
            CudaOutOfMemoryError first = org.junit.jupiter.api.Assertions.assertThrows(
                    CudaOutOfMemoryError.class, () -> a.alloc(mib(40)));
            assertThat(first.report().processes()).isEqualTo(now.get());
            CudaOutOfMemoryError second = org.junit.jupiter.api.Assertions.assertThrows(
                    CudaOutOfMemoryError.class, () -> a.alloc(mib(30)));
            assertThat(second.report().processes()).isEqualTo(now.get());
            long mallocd = other.cudaMalloc(mib(6));                    // the other process's figure moves
            CudaOutOfMemoryError third = org.junit.jupiter.api.Assertions.assertThrows(
                    CudaOutOfMemoryError.class, () -> a.alloc(mib(30)));
            assertThat(third.report().processes()).isEqualTo(now.get()).isNotEqualTo(second.report().processes());
            assertThat(second.report().processes()).as("an earlier report keeps its own figures")
                    .isEqualTo(first.report().processes());
            other.cudaFree(mallocd);
            GpuProcess late = gpu.open(77, "late", mib(2));                // a process more
            CudaOutOfMemoryError fourth = org.junit.jupiter.api.Assertions.assertThrows(
                    CudaOutOfMemoryError.class, () -> a.alloc(mib(30)));
            assertThat(fourth.report().processes()).containsExactly(
                    new PyTorchOomMessage.ProcessUsage(4242, other.physicalBytes(), false),
                    new PyTorchOomMessage.ProcessUsage(1000, me.physicalBytes(), true),
                    new PyTorchOomMessage.ProcessUsage(77, late.physicalBytes(), false));
            assertThat(fourth.getMessage()).contains("Process 4242 has 10.00 MiB memory in use")
                    .contains("Process 77 has 2.00 MiB memory in use");
        }

        @Test
        @DisplayName("reports the segment it tried, 20 MiB for a 1.5 MiB request")
        void triedIsTheSegment() {
            CachingAllocator a = allocator(mib(16), "");
            CudaOutOfMemoryError e = org.junit.jupiter.api.Assertions.assertThrows(
                    CudaOutOfMemoryError.class, () -> a.alloc(mib(3) / 2));
            assertThat(e.getMessage()).startsWith("CUDA out of memory. Tried to allocate 20.00 MiB. GPU 0");
            assertThat(e.report().tried()).isEqualTo(mib(20));
            assertThat(e.report().rounded()).isEqualTo(mib(3) / 2);
        }

        @Test
        @DisplayName("names the allowed bytes, and fails before the driver, under a memory fraction")
        void fraction() {
            CachingAllocator a = allocator(mib(100), "per_process_memory_fraction:0.5");
            a.alloc(mib(40));
            assertThatThrownBy(() -> a.alloc(mib(12)))
                    .hasMessageContaining("this process has 40.00 MiB memory in use. 50.00 MiB allowed; "
                            + "Of the allocated memory 40.00 MiB");
            assertThat(a.process().cudaMallocCalls()).as("the failing request never reached cudaMalloc").isEqualTo(1);
            a.checkInvariants();
        }
    }

    @Nested
    @DisplayName("the recovery order on a failed cudaMalloc")
    class Recovery {
        @Test
        @DisplayName("by default: flush every wholly free segment, retry once, and succeed")
        void flushAndRetry() {
            CachingAllocator a = allocator(mib(64), "");
            a.trace().record(true, 1000);
            Block big = a.alloc(mib(40));
            a.alloc(mib(12));                              // 12 MiB segment, live
            a.free(big);                                   // 40 MiB cached, 12 MiB device free
            Block c = a.alloc(mib(30));                    // no fit in cache? 40 >= 30 fits: best fit
            assertThat(c.segment()).isSameAs(big.segment());
            a.free(c);
            Block d = a.alloc(mib(50));                    // 50 > 40: needs the 40 back first
            a.checkInvariants();
            assertThat(d.size()).isEqualTo(mib(50));
            assertThat(a.reserved()).isEqualTo(mib(62));
            assertThat(a.memoryStats().numAllocRetries()).isEqualTo(1);
            assertThat(actions(a)).containsSubsequence(Action.SEGMENT_FREE, Action.SEGMENT_ALLOC, Action.ALLOC);
        }

        @Test
        @DisplayName("with max_split_size: release the smallest oversize block that covers the request first, no flush")
        void oversizeFirst() {
            CachingAllocator a = allocator(mib(100), "max_split_size_mb:40");
            Block big = a.alloc(mib(70));                  // oversize: a 70 MiB segment
            Block keep = a.alloc(mib(20));                 // a 20 MiB segment, stays live
            a.free(big);                                   // cached; 10 MiB device free
            Block c = a.alloc(mib(45));                    // 70 >= 45 + 20: the cache may not serve it
            a.checkInvariants();
            assertThat(c.segment()).isNotSameAs(big.segment());
            assertThat(a.reserved()).as("20 MiB live + a 46 MiB segment for 45 MiB").isEqualTo(mib(66));
            assertThat(a.memoryStats().numAllocRetries()).as("the full flush never ran").isZero();
            assertThat(a.memoryStats().oversizeSegments().current()).isEqualTo(1);
            assertThat(keep.isAllocated()).isTrue();
        }

        @Test
        @DisplayName("a request under max_split_size never takes an oversize cached block")
        void smallRequestSkipsOversize() {
            CachingAllocator a = allocator(mib(200), "max_split_size_mb:40");
            Block big = a.alloc(mib(70));
            a.free(big);
            Block c = a.alloc(mib(30));
            assertThat(c.segment()).isNotSameAs(big.segment());
            assertThat(a.reserved()).isEqualTo(mib(100));
            a.checkInvariants();
        }

        @Test
        @DisplayName("without a memory fraction, garbage_collection_threshold does nothing")
        void gcNeedsFraction() {
            CachingAllocator a = allocator(mib(200), "garbage_collection_threshold:0.5");
            churn(a);
            assertThat(a.reserved()).isEqualTo(mib(100));
        }

        @Test
        @DisplayName("with a fraction, GC releases old unsplit large blocks above the threshold before cudaMalloc")
        void gcReleases() {
            CachingAllocator a = allocator(mib(200), "garbage_collection_threshold:0.5,per_process_memory_fraction:0.5");
            churn(a);                                      // allowed 100 MiB, threshold 50 MiB
            assertThat(a.reserved()).isEqualTo(mib(40));
            assertThat(a.memoryStats().numAllocRetries()).isZero();
        }

        /** Two 30 MiB segments cached, then a 40 MiB request that none of them serves. */
        private void churn(CachingAllocator a) {
            Block x = a.alloc(mib(30));
            Block y = a.alloc(mib(30));
            a.free(x);
            a.free(y);
            a.alloc(mib(40));
            a.checkInvariants();
        }
    }

    @Nested
    @DisplayName("streams")
    class Streams {
        @Test
        @DisplayName("a block cached on one stream is never handed to another")
        void perStream() {
            CachingAllocator a = allocator(mib(64), "");
            Block s1 = a.alloc(mib(1), 1);
            a.free(s1);
            Block s0 = a.alloc(mib(1), 0);
            assertThat(s0.segment()).isNotSameAs(s1.segment());
            assertThat(a.alloc(mib(1), 1).segment()).isSameAs(s1.segment());
            a.checkInvariants();
        }

        @Test
        @DisplayName("record_stream: allocated drops at free, active only when the other stream's events complete")
        void recordStream() {
            CachingAllocator a = allocator(mib(64), "");
            Block x = a.alloc(mib(1));
            a.recordStream(x, 2);
            a.free(x);
            a.checkInvariants();
            MemoryStats st = a.memoryStats();
            assertThat(st.stat("allocated_bytes", "all").current()).isZero();
            assertThat(st.stat("active_bytes", "all").current()).isEqualTo(mib(1));
            assertThat(x.isPendingFree()).isTrue();
            assertThat(blockStates(a)).contains("active_pending_free");
            Block y = a.alloc(mib(1));                     // the pending block is not reused
            assertThat(y.address()).isNotEqualTo(x.address());
            a.free(y);
            a.completeStream(2);
            a.processEvents();
            a.checkInvariants();
            assertThat(st.stat("active_bytes", "all").current()).isZero();
            assertThat(a.segments()).hasSize(1);
            assertThat(a.segments().iterator().next().isEntirelyFree()).isTrue();
        }

        @Test
        @DisplayName("events complete in order per stream: the first pending one blocks those after it")
        void inOrder() {
            CachingAllocator a = allocator(mib(64), "");
            Block x = a.alloc(mib(1));
            a.recordStream(x, 3);
            a.free(x);
            a.completeStream(3);
            Block z = a.alloc(mib(1) / 2);
            a.recordStream(z, 3);
            a.free(z);                                     // a second event on stream 3, not complete
            a.processEvents();
            assertThat(z.isPendingFree()).isTrue();
            assertThat(a.memoryStats().stat("active_bytes", "all").current())
                    .as("only the second block is still active").isEqualTo(mib(1) / 2);
            assertThat(a.pendingEvents()).isEqualTo(1);
            a.checkInvariants();
        }

        @Test
        @DisplayName("empty_cache waits for every pending event, then releases the segment")
        void emptyCacheSynchronizes() {
            CachingAllocator a = allocator(mib(64), "");
            Block x = a.alloc(mib(1));
            a.recordStream(x, 1);
            a.free(x);
            assertThat(a.emptyCache()).isEqualTo(mib(2));
            assertThat(a.reserved()).isZero();
            assertThat(a.memoryStats().asMap()).containsEntry("num_sync_all_streams", 1L);
            a.checkInvariants();
        }

        @Test
        @DisplayName("a custom EventQuery hears each recorded event and decides when it completes")
        void customQuery() {
            CachingAllocator a = allocator(mib(64), "");
            java.util.Set<Long> done = new java.util.HashSet<>();
            List<long[]> recorded = new java.util.ArrayList<>();
            a.setEventQuery(new CachingAllocator.EventQuery() {
                @Override public boolean isComplete(int stream, long seq) { return done.contains(seq); }
                @Override public void recorded(int stream, long seq) { recorded.add(new long[] {stream, seq}); }
            });
            Block x = a.alloc(mib(1));
            a.recordStream(x, 5);
            a.recordStream(x, 6);
            a.free(x);
            assertThat(recorded).hasSize(2);
            done.add(recorded.get(0)[1]);
            a.processEvents();
            assertThat(x.isPendingFree()).as("one of two events still pending").isTrue();
            done.add(recorded.get(1)[1]);
            a.processEvents();
            assertThat(x.isPendingFree()).isFalse();
            a.checkInvariants();
        }

        private List<Object> blockStates(CachingAllocator a) {
            Map<String, Object> snap = MemorySnapshot.of(a);
            return ((List<?>) snap.get("segments")).stream()
                    .flatMap(s -> ((List<?>) ((Map<?, ?>) s).get("blocks")).stream())
                    .map(b -> ((Map<?, ?>) b).get("state")).map(Object.class::cast).toList();
        }
    }
}
