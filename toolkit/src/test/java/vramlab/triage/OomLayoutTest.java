package vramlab.triage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static vramlab.units.Bytes.MiB;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import vramlab.trace.TraceException;

/**
 * The snapshot's layout at the OOM, rebuilt backwards ({@link OomMoment}), on the parts the
 * story tests leave out: a snapshot's keys as PyTorch's _dump_snapshot writes them (segments
 * with device, address, total_size, segment_pool_id, is_expandable and blocks; a trace entry's
 * action, addr and size). A segment_pool_id of (0, 0) is the default pool; a graph's own pool
 * is (capture id, 0) and one made by torch.cuda.graph_pool_handle() is (0, n)
 * (aten/src/ATen/cuda/CUDAGraph.cpp). Sizes are in MiB; expected figures are worked out by hand
 * from the ranges drawn in each comment.
 */
@DisplayName("The layout at a recorded OOM, edge by edge")
class OomLayoutTest {
    /** A snapshot under construction, in MiB. */
    static final class Snap {
        final List<Object> segments = new ArrayList<>();
        final List<Object> trace = new ArrayList<>();

        /** A segment; each block is {address or -1 for none, size, live ? 1 : 0}. */
        Snap segment(Object device, long at, long size, Object pool, boolean expandable, long[]... blocks) {
            Map<String, Object> s = new LinkedHashMap<>();
            if (device != null) s.put("device", device);
            s.put("address", at * MiB);
            s.put("total_size", size * MiB);
            if (pool != null) s.put("segment_pool_id", pool);
            s.put("is_expandable", expandable);
            List<Object> bs = new ArrayList<>();
            for (long[] b : blocks) {
                Map<String, Object> m = new LinkedHashMap<>();
                if (b[0] >= 0) m.put("address", b[0] * MiB);
                m.put("size", b[1] * MiB);
                m.put("state", b[2] == 1 ? "active_allocated" : "inactive");
                bs.add(m);
            }
            s.put("blocks", bs);
            segments.add(s);
            return this;
        }

        Snap segment(long at, long size, long[]... blocks) {
            return segment(0, at, size, List.of(0, 0), false, blocks);
        }

        Snap entry(String action, long at, long size) {
            Map<String, Object> e = new LinkedHashMap<>();
            e.put("action", action);
            e.put("addr", at * MiB);
            e.put("size", size * MiB);
            trace.add(e);
            return this;
        }

        Snap oom(long size, long free) {
            Map<String, Object> e = new LinkedHashMap<>();
            e.put("action", "oom");
            e.put("size", size * MiB);
            e.put("device_free", free * MiB);
            trace.add(e);
            return this;
        }

        Map<String, Object> build() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("segments", segments);
            m.put("device_traces", List.of(trace));
            return m;
        }

        OomMoment moment() { return OomMoment.all(build(), "t").get(0); }
    }

    static long[] live(long at, long size) { return new long[] {at, size, 1}; }

    static long[] hole(long at, long size) { return new long[] {at, size, 0}; }

    @Nested
    @DisplayName("undoing an allocation made after the OOM takes its bytes out of the live blocks")
    class UndoAlloc {
        @Test
        @DisplayName("a block that starts at the entry's address goes whole, its unsplit tail too")
        void wholeBlock() {
            OomMoment m = new Snap().segment(100, 20, live(100, 12), hole(112, 8)).oom(30, 1)
                    .entry("alloc", 100, 10).moment();
            assertThat(m.allocated()).isZero();
            assertThat(m.largestFree()).isEqualTo(20 * MiB);
        }

        @ParameterizedTest(name = "dumped live {0}, alloc at {1} of {2} -> allocated {3}, largest hole {4}")
        @CsvSource(delimiter = '|', textBlock = """
                100+20         | 104 | 8  | 12 | 8
                100+12         | 104 | 8  | 4  | 16
                100+10 110+10  | 105 | 10 | 10 | 10
                104+4          | 100 | 8  | 0  | 20
                104+8          | 100 | 8  | 4  | 8
                104+4          | 100 | 12 | 0  | 20
                108+4          | 100 | 4  | 4  | 8
                """)
        @DisplayName("an entry inside or across live blocks cuts exactly its range out of them")
        void cuts(String dumped, long at, long size, long allocated, long largest) {
            // One segment [100, 120); the live blocks as "start+size"; the rest is free.
            Snap s = new Snap();
            List<long[]> blocks = new ArrayList<>();
            for (String b : dumped.trim().split("\\s+")) {
                String[] p = b.split("\\+");
                blocks.add(live(Long.parseLong(p[0]), Long.parseLong(p[1])));
            }
            s.segment(100, 20, blocks.toArray(long[][]::new)).oom(30, 1).entry("alloc", at, size);
            OomMoment m = s.moment();
            assertThat(m.allocated()).isEqualTo(allocated * MiB);
            assertThat(m.largestFree()).isEqualTo(largest * MiB);
            assertThat(m.unallocated()).isEqualTo(m.reserved() - m.allocated());
        }
    }

    @Nested
    @DisplayName("graph pools: a segment_pool_id other than (0, 0) is private")
    class Pools {
        @ParameterizedTest(name = "pool {0} -> private {1}")
        @CsvSource(delimiter = '|', textBlock = """
                0,0    | false
                3,0    | true
                0,7    | true
                5      | false
                none   | false
                """)
        @DisplayName("its free bytes count as private-pool memory, not as the default pool's holes")
        void pool(String id, boolean isPrivate) {
            Object pool = id.equals("none") ? null
                    : java.util.Arrays.stream(id.split(",")).map(Integer::valueOf).toList();
            // [200, 220): live [204, 208) and [212, 216): free 4 + 4 + 4 = 12, largest hole 4.
            OomMoment m = new Snap().segment(0, 200, 20, pool, false, hole(200, 4), live(204, 4), hole(208, 4),
                    live(212, 4), hole(216, 4)).oom(30, 1).moment();
            assertThat(m.allocated()).isEqualTo(8 * MiB);
            assertThat(m.privatePoolFree()).isEqualTo(isPrivate ? 12 * MiB : 0);
            assertThat(m.largestFree()).isEqualTo(isPrivate ? 0 : 4 * MiB);
            assertThat(m.unallocated()).isEqualTo(isPrivate ? 0 : 12 * MiB);
        }

        @Test
        @DisplayName("private free bytes add up over every private segment; the message's allocated includes them")
        void twoPools() {
            Map<String, Object> snap = new Snap()
                    .segment(0, 100, 10, List.of(1, 0), false, live(100, 2), hole(102, 8))
                    .segment(0, 200, 10, List.of(0, 2), false, live(200, 6), hole(206, 4))
                    .segment(0, 300, 20, List.of(0, 0), false, live(300, 4), hole(304, 16))
                    .oom(30, 1).build();
            OomMoment m = OomMoment.all(snap, "t").get(0);
            assertThat(m.privatePoolFree()).isEqualTo(12 * MiB);
            assertThat(m.allocated()).isEqualTo(12 * MiB);
            assertThat(m.unallocated()).isEqualTo(16 * MiB);
            Reading r = SnapshotTriage.reading(m, -1);
            assertThat(r.get(Figure.ALLOCATED_BY_PYTORCH)).isEqualTo(24 * MiB);
            assertThat(r.get(Figure.PRIVATE_POOLS)).isEqualTo(12 * MiB);
            assertThat(r.get(Figure.RESERVED)).isEqualTo(40 * MiB);
        }
    }

    @Nested
    @DisplayName("the dump as written")
    class Dump {
        @Test
        @DisplayName("only the device's own segments count; a segment without a device is counted")
        void devices() {
            OomMoment m = new Snap().segment(1, 100, 10, List.of(0, 0), false, live(100, 10))
                    .segment(0, 200, 6, List.of(0, 0), true, live(200, 2))
                    .segment(null, 300, 4, List.of(0, 0), true, live(300, 4)).oom(30, 1).moment();
            assertThat(m.reserved()).isEqualTo(10 * MiB);
            assertThat(m.allocated()).isEqualTo(6 * MiB);
            assertThat(m.segments()).isEqualTo(2);
            assertThat(m.expandable()).isEqualTo(2);
        }

        @Test
        @DisplayName("blocks without an address follow one another from the segment's start")
        void noAddresses() {
            // [100, 116): a 4 MiB hole, 8 live, 2 free, 2 live: allocated 10, largest hole 4.
            OomMoment m = new Snap().segment(100, 16, hole(-1, 4), live(-1, 8), hole(-1, 2), live(-1, 2))
                    .oom(30, 1).entry("alloc", 104, 8).moment();
            assertThat(m.allocated()).as("the alloc at 104 undone: the second block started there")
                    .isEqualTo(2 * MiB);
            assertThat(m.largestFree()).isEqualTo(14 * MiB);
        }

        @Test
        @DisplayName("Python's big integers read as longs")
        void bigIntegers() {
            Map<String, Object> snap = new Snap().segment(100, 4, live(100, 4)).oom(2, 1).build();
            @SuppressWarnings("unchecked")
            Map<String, Object> oom = (Map<String, Object>) ((List<?>) ((List<?>) snap.get("device_traces")).get(0))
                    .get(0);
            oom.put("size", BigInteger.valueOf(3 * MiB));
            oom.put("device_free", Long.valueOf(5 * MiB));
            OomMoment m = OomMoment.all(snap, "t").get(0);
            assertThat(m.requested()).isEqualTo(3 * MiB);
            assertThat(m.deviceFree()).isEqualTo(5 * MiB);
        }

        @ParameterizedTest(name = "without {0}")
        @CsvSource({"size", "device_free"})
        @DisplayName("an OOM entry without a figure is named by its path in the snapshot (entries from 0, as Python counts)")
        void oomWithout(String key) {
            Snap s = new Snap().segment(100, 4, live(100, 4)).entry("alloc", 100, 4).oom(2, 1);
            ((Map<?, ?>) s.trace.get(1)).remove(key);
            assertThatThrownBy(s::moment).isInstanceOf(TraceException.class)
                    .hasMessage("t: device_traces[0][1] has no integer '" + key + "' (the key is missing)");
        }

        @Test
        @DisplayName("an entry after the OOM without an address is named by its path in the snapshot, not as a line")
        void entryWithout() {
            Snap s = new Snap().segment(100, 4, live(100, 4)).oom(2, 1).entry("alloc", 100, 4)
                    .entry("free_completed", 100, 4);
            ((Map<?, ?>) s.trace.get(1)).remove("addr");
            assertThatThrownBy(s::moment).isInstanceOf(TraceException.class)
                    .hasMessage("t: device_traces[0][1] has no integer 'addr' (the key is missing)");
        }

        @Test
        @DisplayName("a dumped block whose size is not an integer is named by its segment and block, with what was found")
        void blockSizeNotInteger() {
            Snap s = new Snap().segment(100, 4, live(100, 2), hole(102, 2)).oom(2, 1);
            @SuppressWarnings("unchecked")
            Map<String, Object> block = (Map<String, Object>) ((List<?>) ((Map<?, ?>) s.segments.get(0)).get("blocks")).get(1);
            block.put("size", "2MiB");
            assertThatThrownBy(s::moment).isInstanceOf(TraceException.class)
                    .hasMessage("t: segments[0].blocks[1] has no integer 'size' (found String 2MiB)");
        }
    }

    @Nested
    @DisplayName("triage of a snapshot")
    class FromSnapshot {
        @Test
        @DisplayName("of several recorded OOMs the first is read, and the report says how many there were")
        void several() {
            Map<String, Object> snap = new Snap().segment(100, 4, live(100, 4)).oom(2, 1).oom(8, 1).build();
            Diagnosis d = SnapshotTriage.of(snap, "t", -1);
            assertThat(d.evidence().get(0)).isEqualTo("The snapshot records 2 OOMs; this reads the first.");
            assertThat(d.reading().get(Figure.REQUESTED)).isEqualTo(2 * MiB);
            Diagnosis one = SnapshotTriage.of(new Snap().segment(100, 4, live(100, 4)).oom(2, 1).build(), "t", -1);
            assertThat(one.evidence().get(0)).doesNotContain("OOMs");
        }

        @ParameterizedTest(name = "capacity {0} bytes -> known {1}")
        @CsvSource({"-1, false", "0, false", "1, true", "8589934592, true"})
        @DisplayName("a card's size of 0 or less is unknown: no capacity figure, and a note asks for --device")
        void capacity(long capacity, boolean known) {
            Map<String, Object> snap = new Snap().segment(100, 4, live(100, 4)).oom(2, 1).build();
            Reading r = SnapshotTriage.reading(OomMoment.all(snap, "t").get(0), capacity);
            assertThat(r.has(Figure.CAPACITY)).isEqualTo(known);
            assertThat(r.notes().stream().anyMatch(n -> n.contains("pass --device SIZE"))).isEqualTo(!known);
        }
    }
}
