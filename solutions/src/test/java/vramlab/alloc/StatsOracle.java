package vramlab.alloc;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;

import vramlab.driver.DriverCall;

/**
 * PyTorch's statistics recomputed from the blocks, the way c10/cuda/CUDACachingAllocator.cpp
 * @001074d defines each one where it updates it (alloc_block, alloc_found_block, free,
 * free_block, release_block, map_block, unmap_block), and compared with what the allocator kept:
 * <ul>
 *   <li>{@code allocation}, {@code allocated_bytes}: the blocks handed out and not yet freed;
 *   <li>{@code active}, {@code active_bytes}, {@code requested_bytes}: those plus the freed blocks
 *       whose events are still pending (free_block is what decreases them);
 *   <li>{@code segment}: cudaMalloc segments (an expandable segment's pages only count as
 *       {@code reserved_bytes}, map_block); {@code reserved_bytes}: device memory held;
 *   <li>{@code inactive_split}, {@code inactive_split_bytes}: cached free blocks that are split,
 *       outside expandable segments (free_block leaves those out);
 *   <li>{@code oversize_allocations}: handed-out blocks of at least max_split_size (free drops
 *       them at once); {@code oversize_segments}: cudaMalloc segments of at least that size.
 * </ul>
 * Every stat also keeps {@code current == allocated - freed} and {@code peak >= current}.
 */
final class StatsOracle {
    private StatsOracle() {}

    static void check(CachingAllocator a, String where) {
        MemoryStats s = a.memoryStats();
        Map<String, long[]> expected = new LinkedHashMap<>();
        for (String array : MemoryStats.ARRAYS) expected.put(array, new long[3]);
        long oversizeAllocations = 0, oversizeSegments = 0, maxSplit = a.policy().maxSplitSize();
        for (Segment seg : a.segments()) {
            int p = seg.pool == PoolKind.SMALL ? 1 : 2;
            add(expected, "reserved_bytes", p, seg.reservedBytes());
            if (!seg.isExpandable()) {
                add(expected, "segment", p, 1);
                if (seg.size >= maxSplit) oversizeSegments++;
            }
            for (Block b = seg.first; b != null; b = b.next) {
                if (b.allocated) {
                    add(expected, "allocation", p, 1);
                    add(expected, "allocated_bytes", p, b.size);
                    if (b.size >= maxSplit) oversizeAllocations++;
                }
                if (b.isActive()) {
                    add(expected, "active", p, 1);
                    add(expected, "active_bytes", p, b.size);
                    add(expected, "requested_bytes", p, b.requested);
                } else if (b.mapped && b.isSplit() && !seg.isExpandable()) {
                    add(expected, "inactive_split", p, 1);
                    add(expected, "inactive_split_bytes", p, b.size);
                }
            }
        }
        for (String array : MemoryStats.ARRAYS) {
            long[] e = expected.get(array);
            e[0] = e[1] + e[2];
            for (int t = 0; t < 3; t++) {
                MemoryStats.Stat stat = s.stat(array, MemoryStats.STAT_TYPES[t]);
                String name = array + "." + MemoryStats.STAT_TYPES[t];
                assertThat(stat.current()).as("%s: %s.current%n%s", where, name, a).isEqualTo(e[t]);
                consistent(stat, name, where);
            }
        }
        assertThat(s.oversizeAllocations().current()).as("%s: oversize_allocations", where)
                .isEqualTo(oversizeAllocations);
        assertThat(s.oversizeSegments().current()).as("%s: oversize_segments", where).isEqualTo(oversizeSegments);
        consistent(s.oversizeAllocations(), "oversize_allocations", where);
        consistent(s.oversizeSegments(), "oversize_segments", where);
        if (!a.policy().expandableSegments()) {
            MemoryStats.Stat segments = s.stat("segment", "all");
            assertThat(s.asMap().get("num_device_alloc")).as("%s: one cudaMalloc per segment", where)
                    .isEqualTo(segments.allocated());
            assertThat(s.asMap().get("num_device_free")).as("%s: one cudaFree per released segment", where)
                    .isEqualTo(segments.freed()).isEqualTo(a.process().driverCalls(DriverCall.CUDA_FREE));
        }
    }

    private static void consistent(MemoryStats.Stat stat, String name, String where) {
        assertThat(stat.allocated() - stat.freed()).as("%s: %s allocated - freed", where, name)
                .isEqualTo(stat.current());
        assertThat(stat.peak()).as("%s: %s peak", where, name).isGreaterThanOrEqualTo(stat.current());
    }

    private static void add(Map<String, long[]> m, String array, int pool, long n) { m.get(array)[pool] += n; }
}
