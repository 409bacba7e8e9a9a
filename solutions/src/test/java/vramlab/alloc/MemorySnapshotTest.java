package vramlab.alloc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static vramlab.units.Bytes.gib;
import static vramlab.units.Bytes.mib;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import vramlab.driver.Gpu;

/**
 * {@code torch.cuda.memory._snapshot()}'s dict as torch/csrc/cuda/memory_snapshot.cpp writes it
 * (segment, block and trace-entry keys; block states {@code active_allocated},
 * {@code active_pending_free}, {@code inactive}; an {@code oom} entry's {@code device_free}) and
 * as torch/cuda/_memory_viz.py reads it back (a block's address is its segment's address plus
 * the sizes of the blocks before it). The figures are worked out from the allocations made.
 */
@DisplayName("torch.cuda.memory._snapshot()")
class MemorySnapshotTest {
    static CachingAllocator allocator(String conf) {
        return new CachingAllocator(new Gpu(gib(1)).openToyProcess(), new PyTorchPolicy(conf));
    }

    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> segments(Map<String, Object> snapshot) {
        return (List<Map<String, Object>>) snapshot.get("segments");
    }

    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> blocks(Map<String, Object> segment) {
        return (List<Map<String, Object>>) segment.get("blocks");
    }

    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> history(Map<String, Object> snapshot) {
        return ((List<List<Map<String, Object>>>) snapshot.get("device_traces")).get(0);
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> settings(CachingAllocator a) {
        return (Map<String, Object>) MemorySnapshot.of(a).get("allocator_settings");
    }

    @Nested
    @DisplayName("segments and their blocks")
    class Segments {
        @Test
        @DisplayName("a segment's sizes: total, allocated (live), active (live or pending free), requested (active)")
        void sizes() {
            CachingAllocator a = allocator("");
            Block x = a.alloc(mib(3)), y = a.alloc(mib(4) + 100), z = a.alloc(mib(5));
            a.recordStream(y, 1);
            a.free(y);                                    // pending: an event on stream 1
            a.free(z);                                    // inactive
            a.checkInvariants();
            Map<String, Object> seg = segments(MemorySnapshot.of(a)).get(0);
            assertThat(seg).containsEntry("device", 0L).containsEntry("address", x.address())
                    .containsEntry("total_size", mib(20)).containsEntry("allocated_size", mib(3))
                    .containsEntry("active_size", mib(3) + y.size())
                    .containsEntry("requested_size", mib(3) + mib(4) + 100)
                    .containsEntry("stream", 0L).containsEntry("segment_type", "large")
                    .containsEntry("is_expandable", false).containsEntry("frames", List.of());
            assertThat((Object[]) seg.get("segment_pool_id")).containsExactly(0L, 0L);
            List<Map<String, Object>> bs = blocks(seg);
            assertThat(bs).extracting(b -> b.get("state"))
                    .containsExactly("active_allocated", "active_pending_free", "inactive");
            assertThat(bs).extracting(b -> b.get("size")).containsExactly(mib(3), y.size(), mib(20) - mib(3) - y.size());
            assertThat(bs).extracting(b -> b.get("requested_size")).containsExactly(mib(3), mib(4) + 100, 0L);
            assertThat(bs).extracting(b -> b.get("address"))
                    .containsExactly(x.address(), x.address() + mib(3), x.address() + mib(3) + y.size());
            assertThat(bs.get(0)).containsEntry("frames", List.of());
        }

        @Test
        @DisplayName("a small-pool segment says small, and the stream it belongs to")
        void small() {
            CachingAllocator a = allocator("");
            a.alloc(1000, 3);
            Map<String, Object> seg = segments(MemorySnapshot.of(a)).get(0);
            assertThat(seg).containsEntry("segment_type", "small").containsEntry("stream", 3L)
                    .containsEntry("total_size", mib(2)).containsEntry("allocated_size", 1024L)
                    .containsEntry("requested_size", 1000L);
        }

        @Test
        @DisplayName("segments are listed by address, lowest first, whatever order they were made in")
        void byAddress() {
            CachingAllocator a = allocator("");
            Block first = a.alloc(mib(30));
            a.expectSegmentAt(first.address() - gib(1));      // the next segment lies below the first
            Block second = a.alloc(mib(40));
            assertThat(second.address()).isLessThan(first.address());
            assertThat(segments(MemorySnapshot.of(a))).extracting(s -> s.get("address"))
                    .containsExactly(second.address(), first.address());
        }

        @Test
        @DisplayName("an expandable segment is one segment per mapped run, not its whole reservation")
        void expandableRuns() {
            CachingAllocator a = allocator("expandable_segments:True");
            Block x = a.alloc(mib(20)), y = a.alloc(mib(20)), z = a.alloc(mib(20));
            a.free(y);
            a.emptyCache();                               // y's pages go back: two runs are left
            a.checkInvariants();
            List<Map<String, Object>> segs = segments(MemorySnapshot.of(a));
            assertThat(segs).extracting(s -> s.get("address")).containsExactly(x.address(), z.address());
            assertThat(segs).extracting(s -> s.get("total_size")).containsExactly(mib(20), mib(20));
            assertThat(segs).extracting(s -> s.get("is_expandable")).containsExactly(true, true);
            assertThat(blocks(segs.get(1))).extracting(b -> b.get("address")).containsExactly(z.address());
        }
    }

    @Nested
    @DisplayName("device_traces")
    class Traces {
        @Test
        @DisplayName("each action's word, addr, size and stream; an oom entry has device_free instead of addr")
        void entries() {
            CachingAllocator a = allocator("");
            a.trace().record(true, 100);
            Block b = a.alloc(mib(30), 2);
            a.free(b);
            assertThatThrownBy(() -> a.alloc(gib(2))).isInstanceOf(CudaOutOfMemoryError.class);
            List<Map<String, Object>> h = history(MemorySnapshot.of(a));
            assertThat(h).extracting(e -> e.get("action")).containsExactly("segment_alloc", "alloc",
                    "free_requested", "free_completed", "segment_free", "oom");
            assertThat(h.get(1)).containsEntry("addr", b.address()).containsEntry("size", mib(30))
                    .containsEntry("stream", 2L).containsEntry("frames", List.of()).containsKey("time_us");
            Map<String, Object> oom = h.get(5);
            assertThat(oom).doesNotContainKey("addr").containsEntry("size", gib(2))
                    .containsEntry("device_free", a.process().cudaMemGetInfo().free());
        }

        @Test
        @DisplayName("taking a snapshot records one entry of the active bytes, seen only by the next snapshot")
        void snapshotEntry() {
            CachingAllocator a = allocator("");
            a.trace().record(true, 100);
            Block b = a.alloc(mib(6));
            Map<String, Object> first = MemorySnapshot.of(a);
            assertThat(history(first)).extracting(e -> e.get("action")).doesNotContain("snapshot");
            List<Map<String, Object>> h = history(MemorySnapshot.of(a));
            Map<String, Object> entry = h.get(h.size() - 1);
            assertThat(entry).containsEntry("action", "snapshot").containsEntry("size", b.size())
                    .containsEntry("addr", 0L).doesNotContainKey("frames");
        }
    }

    @Nested
    @DisplayName("allocator_settings")
    class Settings {
        @Test
        @DisplayName("the config string as written, max_split_size in bytes, and the divisions per interval")
        void set() {
            String conf = "max_split_size_mb:64,roundup_power2_divisions:[256:4,>:8],garbage_collection_threshold:0.5";
            Map<String, Object> s = settings(allocator(conf));
            assertThat(s).containsEntry("PYTORCH_CUDA_ALLOC_CONF", conf).containsEntry("max_split_size", mib(64))
                    .containsEntry("garbage_collection_threshold", 0.5).containsEntry("expandable_segments", false)
                    .containsEntry("pinned_num_register_threads", 1L)
                    .containsEntry("release_lock_on_cudamalloc", false)
                    .containsEntry("pinned_use_cuda_host_register", false);
            @SuppressWarnings("unchecked")
            Map<String, Object> div = (Map<String, Object>) s.get("roundup_power2_divisions");
            assertThat(div).hasSize(16).containsEntry("1", 4L).containsEntry("128", 4L)
                    .containsEntry("256", 8L).containsEntry("32768", 8L);
        }

        @Test
        @DisplayName("nothing set: an empty string, max_split_size -1, every division 0; the toy reports the defaults")
        void unset() {
            Map<String, Object> s = settings(allocator(""));
            assertThat(s).containsEntry("PYTORCH_CUDA_ALLOC_CONF", "").containsEntry("max_split_size", -1L);
            assertThat(((Map<?, ?>) s.get("roundup_power2_divisions")).values()).hasSize(16).allMatch(v -> v.equals(0L));
            CachingAllocator toy = new CachingAllocator(new Gpu(gib(1)).openToyProcess(), new ToyPolicy());
            Map<String, Object> t = settings(toy);
            assertThat(t).containsEntry("PYTORCH_CUDA_ALLOC_CONF", "").containsEntry("max_split_size", -1L)
                    .containsEntry("expandable_segments", false);
        }
    }
}
