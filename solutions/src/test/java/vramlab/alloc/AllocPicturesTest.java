package vramlab.alloc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static vramlab.units.Bytes.kib;
import static vramlab.units.Bytes.mib;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import vramlab.driver.Gpu;

/**
 * What the allocator shows: a block and a segment in the seed's notation
 * ({@code seg0[4..10)M 6M LIVE}, the largest exact unit), the segment map's bars, and
 * {@code torch.cuda.memory._snapshot()}'s segments as torch/csrc/cuda/memory_snapshot.cpp builds
 * them (sizes per segment, block states, one segment per mapped range of an expandable one).
 */
@DisplayName("Blocks, segment maps and snapshots, as they print")
class AllocPicturesTest {
    @Nested
    @DisplayName("a block in the seed's notation")
    class Blocks {
        @Test
        @DisplayName("in MiB when its offset and size are whole MiB, else KiB, else bytes; with its state")
        void units() {
            Sim sim = new Sim(mib(40));
            Block live = sim.alloc(mib(4));
            assertThat(live).hasToString("seg0[0..4)M 4M LIVE");
            assertThat(live.next()).hasToString("seg0[4..20)M 16M FREE");
            Block kib = sim.alloc(mib(2) + kib(3));          // toy rounding: 2 MiB steps above 1 MiB
            assertThat(kib.toString()).isEqualTo("seg0[4..8)M 4M LIVE");
            Sim small = new Sim(mib(40));
            Block odd = small.alloc(1536);
            assertThat(odd).hasToString("seg0[0..1536)B 1536B LIVE");
            small.free(odd);
            Block b = small.alloc(2048);
            assertThat(b).hasToString("seg0[0..2)K 2K LIVE");
            Block c = small.alloc(100);
            assertThat(c).hasToString("seg0[2048..2560)B 512B LIVE");
            assertThat(c.prev()).isSameAs(b);
            assertThat(c.requested()).isEqualTo(100);
        }

        @Test
        @DisplayName("a freed block whose other stream has not caught up is PENDING; an unmapped one UNMAPPED")
        void states() {
            CachingAllocator a = new CachingAllocator(new Gpu(mib(100)).openToyProcess(), new PyTorchPolicy());
            Block b = a.alloc(mib(4));
            a.recordStream(b, 1);
            assertThat(b.streamUses()).containsExactly(1);
            a.free(b);
            assertThat(b.toString()).endsWith(" PENDING");
            CachingAllocator e = new CachingAllocator(new Gpu(mib(100)).openToyProcess(),
                    new PyTorchPolicy("expandable_segments:True"));
            Block x = e.alloc(mib(5));
            Block tail = x.next().next();
            assertThat(tail.toString()).endsWith(" UNMAPPED");
            assertThat(x.segment().toString()).as("the unmapped tail of a reservation is left out")
                    .isEqualTo(x + " " + x.next());
        }
    }

    @Nested
    @DisplayName("the segment map")
    class Maps {
        @Test
        @DisplayName("one line per segment: pool, size, stream when not 0, a bar of MiB cells, the blocks")
        void lines() {
            CachingAllocator a = new CachingAllocator(new Gpu(mib(100)).openToyProcess(), new PyTorchPolicy());
            a.alloc(mib(4));
            a.alloc(mib(2), 1);
            String text = SegmentMap.text(a);
            assertThat(text).startsWith("reserved=40M allocated=6M requested=6M (pytorch policy)\n");
            assertThat(text).contains("segment 0 (large, 20M): |####................|"
                    + " seg0[0..4)M 4M LIVE seg0[4..20)M 16M FREE\n");
            assertThat(text).contains("segment 1 (large, 20M, stream 1): |##..................|");
            assertThat(a.toString()).isEqualTo(text);
        }

        @Test
        @DisplayName("an empty allocator says so; a small segment has 2 cells; sizes not in whole MiB use format_size")
        void edges() {
            CachingAllocator a = new CachingAllocator(new Gpu(mib(100)).openToyProcess(), new PyTorchPolicy());
            assertThat(SegmentMap.text(a)).endsWith("(no segments)\n");
            a.alloc(mib(1));
            assertThat(SegmentMap.text(a)).contains("segment 0 (small, 2M): |#.|");
            Segment odd = new Segment(7, 1L << 40, mib(1) + kib(512), PoolKind.LARGE, 0);
            odd.first = new Block(odd, 0, mib(1) + kib(512));
            assertThat(SegmentMap.line(odd)).startsWith("segment 7 (large, 1.50 MiB): |.|");
        }

        @Test
        @DisplayName("an expandable segment is drawn over its mapped front, at least one page")
        void expandable() {
            CachingAllocator a = new CachingAllocator(new Gpu(mib(200)).openToyProcess(),
                    new PyTorchPolicy("expandable_segments:True"));
            Block b = a.alloc(mib(25));
            assertThat(SegmentMap.line(b.segment())).startsWith("segment 0 (large, expandable, 40M mapped): |"
                    + "#".repeat(25) + ".".repeat(15) + "|");
            assertThat(SegmentMap.extent(b.segment())).isEqualTo(mib(40));
            a.free(b);
            a.emptyCache();
            CachingAllocator c = new CachingAllocator(new Gpu(mib(200)).openToyProcess(),
                    new PyTorchPolicy("expandable_segments:True"));
            Block one = c.alloc(mib(1), 0);
            assertThat(SegmentMap.extent(one.segment())).as("a small pool page: 2 MiB").isEqualTo(mib(2));
        }
    }

    @Nested
    @DisplayName("the snapshot's segments")
    class Snapshot {
        @SuppressWarnings("unchecked")
        static List<Map<String, Object>> segments(CachingAllocator a) {
            return (List<Map<String, Object>>) MemorySnapshot.of(a).get("segments");
        }

        @Test
        @DisplayName("sizes per segment: total, allocated, active (allocated or pending)"
                + " and the active blocks' requests")
        @SuppressWarnings("unchecked")
        void sizes() {
            CachingAllocator a = new CachingAllocator(new Gpu(mib(100)).openToyProcess(), new PyTorchPolicy());
            Block x = a.alloc(mib(3) + 1), y = a.alloc(mib(2));
            a.recordStream(y, 1);
            a.free(y);                                    // pending: still active
            Map<String, Object> s = segments(a).get(0);
            assertThat(s).containsEntry("total_size", mib(20)).containsEntry("allocated_size", mib(3) + 512)
                    .containsEntry("active_size", mib(5) + 512).containsEntry("requested_size", mib(5) + 1)
                    .containsEntry("segment_type", "large").containsEntry("is_expandable", false)
                    .containsEntry("address", x.segment().address());
            List<Map<String, Object>> blocks = (List<Map<String, Object>>) s.get("blocks");
            assertThat(blocks).extracting(b -> b.get("state"))
                    .containsExactly("active_allocated", "active_pending_free", "inactive");
            assertThat(blocks.get(1)).containsEntry("address", y.address()).containsEntry("size", mib(2));
            assertThat(blocks.get(2).get("address")).isEqualTo(y.address() + mib(2));
        }

        @Test
        @DisplayName("segments are sorted by address; a small one is 'small'")
        void sorted() {
            CachingAllocator a = new CachingAllocator(new Gpu(mib(100)).openToyProcess(), new PyTorchPolicy());
            a.alloc(mib(30));
            a.alloc(100);
            List<Map<String, Object>> s = segments(a);
            assertThat(s).extracting(m -> (Long) m.get("address")).isSorted();
            assertThat(s).extracting(m -> m.get("segment_type")).containsExactlyInAnyOrder("large", "small");
        }

        @Test
        @DisplayName("an expandable segment is one snapshot segment per contiguous mapped range")
        void ranges() {
            CachingAllocator a = new CachingAllocator(new Gpu(mib(200)).openToyProcess(),
                    new PyTorchPolicy("expandable_segments:True"));
            a.alloc(mib(20));
            Block mid = a.alloc(mib(20));
            a.alloc(mib(20));
            a.free(mid);
            a.emptyCache();                               // [page 0][hole][page 2][unmapped rest]
            List<Map<String, Object>> s = segments(a);
            assertThat(s).hasSize(2);
            assertThat(s).allSatisfy(m -> assertThat(m).containsEntry("total_size", mib(20))
                    .containsEntry("is_expandable", true));
            assertThat((Long) s.get(1).get("address") - (Long) s.get(0).get("address")).isEqualTo(mib(40));
        }

        @Test
        @DisplayName("allocator_settings carry max_split_size (-1 unlimited), the options, and divisions keyed by MB")
        @SuppressWarnings("unchecked")
        void settings() {
            CachingAllocator a = new CachingAllocator(new Gpu(mib(100)).openToyProcess(),
                    new PyTorchPolicy("max_split_size_mb:64,garbage_collection_threshold:0.5,"
                            + "roundup_power2_divisions:[2:4]"));
            Map<String, Object> s = (Map<String, Object>) MemorySnapshot.of(a).get("allocator_settings");
            assertThat(s).containsEntry("max_split_size", mib(64)).containsEntry("garbage_collection_threshold", 0.5)
                    .containsEntry("expandable_segments", false);
            Map<String, Object> d = (Map<String, Object>) s.get("roundup_power2_divisions");
            assertThat(d).containsEntry("1", 4L).containsEntry("2", 4L).containsEntry("4", 0L)
                    .containsEntry("32768", 0L)
                    .hasSize(16);
            CachingAllocator toy = new CachingAllocator(new Gpu(mib(100)).openToyProcess(), new ToyPolicy());
            Map<String, Object> t = (Map<String, Object>) MemorySnapshot.of(toy).get("allocator_settings");
            assertThat(t).containsEntry("max_split_size", -1L);
        }
    }

    @Nested
    @DisplayName("the lab's helpers")
    class Helpers {
        @Test
        @DisplayName("Sim: its counters line, its accessors and its map")
        void sim() {
            Sim sim = new Sim(mib(40));
            sim.alloc(mib(3) + 1);
            assertThat(sim.counters()).isEqualTo("reserved=20M allocated=4M requested=3M");
            assertThat(sim.device()).isEqualTo(mib(40));
            assertThat(sim.gpu().capacity()).isEqualTo(mib(40));
            assertThat(sim.freeBytes()).isEqualTo(mib(16));
            assertThat(sim.largestFreeBlock()).isEqualTo(mib(16));
            assertThat(sim.map()).isEqualTo(SegmentMap.text(sim.allocator())).isEqualTo(sim.toString());
            assertThat(new ToyPolicy().name()).isEqualTo("toy");
            assertThat(PoolKind.SMALL.statName()).isEqualTo("small_pool");
            assertThat(PoolKind.LARGE.statName()).isEqualTo("large_pool");
        }

        @Test
        @DisplayName("the toy's OOM message says the request, the device, reserved, unallocated and the largest hole")
        void toyMessage() {
            Sim sim = new Sim(mib(40));
            sim.alloc(mib(12));
            sim.alloc(mib(12));
            assertThatThrownBy(() -> sim.alloc(mib(30))).isInstanceOf(CudaOutOfMemoryError.class).hasMessage(
                    "CUDA out of memory. Tried to allocate 30 MiB (device 40 MiB; 40 MiB reserved; 16 MiB is "
                            + "reserved but unallocated; largest free block 8 MiB)");
        }

        @Test
        @DisplayName("SimExp maps its pages with read-write access and prints a mapping as its VA and size")
        void simExp() {
            vramlab.driver.GpuProcess p = new Gpu(mib(40)).openToyProcess();
            SimExp e = new SimExp(p);
            SimExp.Mapping m = e.alloc(mib(3) + 1);
            long va = firstMapped(p);
            assertThat(va).as("a page is mapped").isNotNegative();
            assertThat(p.addressSpace().find(va, vramlab.gmmu.PageSize.SIZE_2M).access())
                    .isEqualTo(vramlab.gmmu.Access.READWRITE);
            assertThat(m).hasToString("VA +0M 4M mapped (3145729 B asked)");
        }

        private long firstMapped(vramlab.driver.GpuProcess p) {
            long[] va = {-1};
            p.addressSpace().forEachPte((v, pte) -> { if (va[0] < 0) va[0] = v; });
            return va[0];
        }
    }
}
