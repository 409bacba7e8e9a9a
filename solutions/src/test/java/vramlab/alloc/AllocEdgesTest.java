package vramlab.alloc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static vramlab.units.Bytes.mib;

import java.util.List;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import vramlab.alloc.DeviceTrace.Action;
import vramlab.driver.DriverCall;
import vramlab.driver.Gpu;
import vramlab.driver.GpuProcess;
import vramlab.gmmu.Access;
import vramlab.gmmu.PageSize;

/**
 * PyTorch's allocator where the other tests do not look: the config parser's edges
 * (c10/core/AllocatorConfig.cpp @065861f, parseRoundUpPower2Divisions and its neighbours), the
 * trace entries each call records (record_trace in CUDACachingAllocator.cpp @001074d), the
 * expandable-segment paths, a third garbage-collection pass, and the small accessors.
 */
@DisplayName("PyTorch's allocator, the remaining edges")
class AllocEdgesTest {
    static CachingAllocator allocator(long device, String conf) {
        CachingAllocator a = new CachingAllocator(new Gpu(device).openToyProcess(), CodeFraction.policy(conf));
        a.trace().record(true, Long.MAX_VALUE);
        return a;
    }

    static List<Action> actions(CachingAllocator a) {
        return a.trace().entries().stream().map(DeviceTrace.Entry::action).toList();
    }

    @Nested
    @DisplayName("the config parser")
    class Config {
        @Test
        @DisplayName("a lone '>:N' sets every interval: its fill starts at last_index, which starts at 0")
        void loneGreater() {
            AllocConf c = AllocConf.parse("roundup_power2_divisions:[>:8]");
            assertThat(c.roundupPower2Divisions()).containsOnly(8L).hasSize(AllocConf.INTERVALS);
        }

        @Test
        @DisplayName("the first listed interval also fills every interval below it")
        void firstFillsBelow() {
            AllocConf c = AllocConf.parse("roundup_power2_divisions:[4:2]");
            assertThat(c.roundupPower2Divisions()).startsWith(2L, 2L, 2L).endsWith(0L);
            AllocConf one = AllocConf.parse("roundup_power2_divisions:[1:4]");
            assertThat(one.roundupPower2Divisions()[0]).isEqualTo(4);
            assertThat(one.roundupPower2Divisions()[1]).isZero();
        }

        @ParameterizedTest(name = "{0} B -> interval {1}")
        @CsvSource({"1, 0", "1048575, 0", "1048576, 0", "2097151, 0", "2097152, 1", "34359738368, 15",
            "68719476736, 15"})
        @DisplayName("a size's interval is floor(log2(size)) - 20, clamped to 0..15 (1 MiB up to 64 GiB)")
        void intervals(long size, int interval) {
            long[] d = new long[AllocConf.INTERVALS];
            d[interval] = 8;
            AllocConf c = new AllocConf(false, Long.MAX_VALUE, mib(20), d, 0, -1);
            assertThat(c.divisionsFor(size)).isEqualTo(8);
        }

        @ParameterizedTest(name = "{0}")
        @CsvSource(delimiter = '|', textBlock = """
                per_process_memory_fraction:0          | 0.0
                per_process_memory_fraction:1          | 1.0
                garbage_collection_threshold:0.5       | 0.5
                """)
        @DisplayName("the fraction takes [0, 1] with both ends; the threshold is strictly inside")
        void fractions(String text, double value) {
            AllocConf c = AllocConf.parse(text, PyTorchRelease.V2_10.rules());      // 2.10's key
            assertThat(text.startsWith("per") ? c.memoryFraction() : c.garbageCollectionThreshold()).isEqualTo(value);
        }

        @Test
        @DisplayName("register threads: a power of two up to 128; backend native; a key needs a value")
        void values() {
            assertThat(AllocConf.parse("pinned_num_register_threads:128")).isEqualTo(AllocConf.defaults());
            assertThat(AllocConf.parse("pinned_num_register_threads:1")).isEqualTo(AllocConf.defaults());
            assertThatThrownBy(() -> AllocConf.parse("pinned_num_register_threads:3"))
                    .hasMessageContaining("bad value '3'");
            assertThatThrownBy(() -> AllocConf.parse("backend:other"))
                    .hasMessageContaining("native or cudaMallocAsync");
            assertThatThrownBy(() -> AllocConf.parse("max_split_size_mb:")).hasMessageContaining("bad value ''");
            assertThatThrownBy(() -> AllocConf.parse("max_split_size_mb:,expandable_segments:True"))
                    .hasMessageContaining("bad value ','");
            assertThat(AllocConf.parse("max_split_size_mb:99999999999999999").maxSplitSize())
                    .as("more MiB than a long holds: no limit").isEqualTo(Long.MAX_VALUE);
            assertThat(AllocConf.parse(" expandable_segments : True ").expandableSegments()).isTrue();
        }

        @ParameterizedTest(name = "{0}")
        @CsvSource(delimiter = '|', textBlock = """
                roundup_power2_divisions:          | bad value ''
                roundup_power2_divisions:[         | expected ']'
                roundup_power2_divisions:[4:2      | expected ']'
                roundup_power2_divisions:[4:2,     | expected ']'
                """)
        @DisplayName("a divisions value cut short is an error that says what is missing")
        void cutShort(String text, String message) {
            assertThatThrownBy(() -> AllocConf.parse(text)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining(message);
        }
    }

    @Nested
    @DisplayName("round_size")
    class Rounding {
        @Test
        @DisplayName("one division is no division: plain 512 B rounding (divisions > 1)")
        void oneDivision() {
            assertThat(new PyTorchPolicy("roundup_power2_divisions:1").roundSize(mib(5) + 1)).isEqualTo(mib(5) + 512);
            assertThat(new PyTorchPolicy().name()).isEqualTo("pytorch");
        }

        @Test
        @DisplayName("roundup_power2_next_division: more divisions than the power of two has bytes doubles it")
        void zeroStep() {
            assertThat(PyTorchPolicy.roundupPower2NextDivision(1001, 1024)).isEqualTo(1024);
            assertThat(PyTorchPolicy.roundupPower2NextDivision(1200, 4)).isEqualTo(1280);   // CCA's own example
        }
    }

    @Nested
    @DisplayName("the trace (record_trace)")
    class Trace {
        @Test
        @DisplayName("alloc, free: segment_alloc, alloc, free_requested, free_completed, with addresses and sizes")
        void allocFree() {
            CachingAllocator a = allocator(mib(100), "");
            Block b = a.alloc(mib(3));
            a.free(b);
            List<DeviceTrace.Entry> e = a.trace().entries();
            assertThat(actions(a)).containsExactly(Action.SEGMENT_ALLOC, Action.ALLOC, Action.FREE_REQUESTED,
                    Action.FREE_COMPLETED);
            assertThat(e.get(0).size()).isEqualTo(mib(20));
            assertThat(e.get(1).addr()).isEqualTo(b.address()).isEqualTo(e.get(0).addr());
            assertThat(e.get(1).size()).as("the request, unrounded").isEqualTo(mib(3));
            assertThat(e.get(2).size()).isEqualTo(mib(3));
            assertThat(e.get(3).addr()).isEqualTo(b.address());
            assertThat(a.emptyCache()).as("empty_cache returns the bytes it released").isEqualTo(mib(20));
            assertThat(actions(a)).endsWith(Action.SEGMENT_FREE);
            assertThat(a.emptyCache()).isZero();
        }

        @Test
        @DisplayName("expandable segments: segment_map and segment_unmap at the pages' addresses, one device call each")
        void expandable() {
            CachingAllocator a = allocator(mib(200), "expandable_segments:True");
            GpuProcess p = a.process();
            Block b = a.alloc(mib(25));                   // two 20 MiB pages
            Segment s = b.segment();
            assertThat(actions(a)).containsExactly(Action.SEGMENT_MAP, Action.ALLOC);
            DeviceTrace.Entry map = a.trace().entries().get(0);
            assertThat(map.addr()).isEqualTo(s.address()).isEqualTo(s.pages().base());
            assertThat(map.size()).isEqualTo(mib(40));
            assertThat(p.addressSpace().find(s.address() + mib(20), PageSize.SIZE_2M).access())
                    .isEqualTo(Access.READWRITE);
            a.free(b);
            a.emptyCache();
            a.checkInvariants();
            DeviceTrace.Entry unmap = a.trace().entries().get(a.trace().entries().size() - 1);
            assertThat(unmap.action()).isEqualTo(Action.SEGMENT_UNMAP);
            assertThat(unmap.addr()).isEqualTo(s.address());
            assertThat(unmap.size()).isEqualTo(mib(40));
            assertThat(a.memoryStats().asMap().get("num_device_alloc")).isEqualTo(1);
            assertThat(a.memoryStats().asMap().get("num_device_free")).isEqualTo(1);
            assertThat(p.driverCalls(DriverCall.CU_MEM_ADDRESS_FREE)).as("the reservation goes back too").isEqualTo(1);
            assertThat(a.segments()).isEmpty();
        }

        @Test
        @DisplayName("a hole that empty_cache unmapped is mapped again whole, and the block beyond it stays live")
        void refillHole() {
            CachingAllocator a = allocator(mib(200), "expandable_segments:True");
            a.alloc(mib(20));
            Block mid = a.alloc(mib(20));
            Block z = a.alloc(mib(20));                   // pages 0, 1, 2
            a.free(mid);
            a.emptyCache();                               // page 1 unmapped: a hole between live blocks
            assertThat(a.reserved()).isEqualTo(mib(40));
            Block again = a.alloc(mib(20));
            a.checkInvariants();
            assertThat(again.offset()).as("the lowest hole that fits").isEqualTo(mib(20));
            assertThat(again.next()).as("no empty block between it and the live one").isSameAs(z);
            assertThat(a.reserved()).isEqualTo(mib(60));
            assertThat(z.segment().blocks()).allSatisfy(bl -> assertThat(bl.size()).isPositive());
        }

        @Test
        @DisplayName("each stream grows a reservation of its own, and each segment gets a new id")
        void perStream() {
            CachingAllocator a = allocator(mib(200), "expandable_segments:True");
            Block x = a.alloc(mib(5), 0), y = a.alloc(mib(5), 1);
            assertThat(x.segment()).isNotSameAs(y.segment());
            assertThat(x.segment().id()).isNotEqualTo(y.segment().id());
            assertThat(x.segment().pages().pageCount()).isEqualTo(y.segment().pages().pageCount()).isPositive();
            a.checkInvariants();
        }

        @Test
        @DisplayName("a pages map() beyond the first page starts at its page's offset")
        void laterPage() {
            GpuProcess p = new Gpu(mib(200)).openToyProcess();
            ExpandableSegment s = new ExpandableSegment(p, mib(200), mib(20));
            assertThat(s.map(mib(45), 1)).isEqualTo(new ExpandableSegment.Range(mib(40), mib(20)));
            assertThat(s.base()).isPositive();
            assertThat(s.unmap(mib(40), mib(20))).isEqualTo(new ExpandableSegment.Range(mib(40), mib(20)));
        }
    }

    @Nested
    @DisplayName("small accessors")
    class Accessors {
        @Test
        @DisplayName("the policy, the largest cached block, the free bytes and the text form")
        void accessors() {
            PyTorchPolicy policy = new PyTorchPolicy();
            CachingAllocator a = new CachingAllocator(new Gpu(mib(100)).openToyProcess(), policy);
            assertThat(a.policy()).isSameAs(policy);
            Block b = a.alloc(mib(3));
            assertThat(a.largestFreeBlock()).as("the 17 MiB remainder").isEqualTo(mib(17));
            assertThat(a.freeBytes()).isEqualTo(a.reserved() - a.allocated()).isEqualTo(mib(17));
            a.free(b);
            assertThat(a.largestFreeBlock()).isEqualTo(mib(20));
            assertThat(a.toString()).isEqualTo(SegmentMap.text(a)).isNotBlank();
        }
    }

    @Test
    @DisplayName("garbage collection: a second pass at the new average frees only blocks that old, then stops")
    void thirdBlockStays() {
        CachingAllocator a = allocator(mib(128),
                "per_process_memory_fraction:1.0,garbage_collection_threshold:0.703125");
        Block x = a.alloc(mib(10));                        // call 1
        Block y = a.alloc(mib(12));                        // call 2
        a.free(x);                                         // a: cached at 2
        Block z = a.alloc(mib(14));                        // call 3
        a.alloc(mib(30));                                  // call 4
        a.free(y);                                         // b: cached at 4
        a.alloc(mib(40));                                  // call 5
        a.free(z);                                         // c: cached at 5; reserved 106 MiB
        a.alloc(mib(20));                                  // call 6: ages 4, 2, 1; threshold 90 MiB, target 16
        a.checkInvariants();
        assertThat(a.freeBlocks(PoolKind.LARGE)).as("pass 1 (average 7/3) frees a, pass 2 (average 3/2) frees b")
                .extracting(Block::size).containsExactly(mib(14));
        assertThat(a.reserved()).isEqualTo(mib(106 - 22 + 20));
    }
}
