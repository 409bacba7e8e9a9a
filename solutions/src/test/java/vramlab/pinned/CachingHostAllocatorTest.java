package vramlab.pinned;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static vramlab.units.Bytes.GiB;
import static vramlab.units.Bytes.KiB;
import static vramlab.units.Bytes.MiB;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import vramlab.driver.CudaGraph;
import vramlab.driver.DeviceBuffer;
import vramlab.driver.HostBuffer;

@DisplayName("PyTorch's caching host allocator")
class CachingHostAllocatorTest {
    PinnedSim sim = new PinnedSim();

    HostBlock pin(long size) { HostBlock b = sim.pin(size); sim.checkInvariants(); return b; }
    void del(HostBlock b) { sim.del(b); sim.checkInvariants(); }

    /** The smallest power of two >= n, by counting: the reference for PowerOf2Ceil. */
    static long powerOf2Ceil(long n) {
        long p = 1;
        while (p < n) p *= 2;
        return p;
    }

    @Nested
    @DisplayName("Rule 1: every request is rounded up to a power of two")
    class Rounding {
        @ParameterizedTest(name = "{0} B -> {1} B")
        @CsvSource(textBlock = """
            1,              1
            100,            128
            300000,         524288
            1572864,        2097152
            2516582,        4194304
            3145729,        4194304
            5242881,        8388608
            8388608,        8388608
            10485760,       16777216
            26214400,       33554432
            100000000000,   137438953472
            107374182400,   137438953472
            """)
        @DisplayName("the next power of two (CHA.h PowerOf2Ceil), worked by hand; 100 GB becomes 128 GiB")
        void examples(long request, long block) {
            assertThat(sim.allocator().roundSize(request)).isEqualTo(block);
            assertThat(block).isEqualTo(powerOf2Ceil(request));
        }

        @Test
        @DisplayName("agrees with counting up for every size to 70,000 and around every power of two")
        void exhaustive() {
            for (long n = 1; n <= 70_000; n++) {
                assertThat(sim.allocator().roundSize(n)).as("size %d", n).isEqualTo(powerOf2Ceil(n));
            }
            for (int k = 1; k < 62; k++) {
                long p = 1L << k;
                for (long n : new long[] {p - 1, p, p + 1}) {
                    assertThat(sim.allocator().roundSize(n)).as("size %d", n).isEqualTo(powerOf2Ceil(n));
                }
            }
        }

        @Test
        @DisplayName("a size-0 request gets null, as in CHA.h, and a negative one is refused")
        void zero() {
            assertThat(sim.pin(0)).isNull();
            assertThatThrownBy(() -> sim.pin(-1)).hasMessageContaining("negative size -1");
        }
    }

    @Nested
    @DisplayName("Reuse: exact size class, last freed first, never split")
    class Reuse {
        @Test
        @DisplayName("a freed block serves the next request that rounds to its size, newest first")
        void lifo() {
            HostBlock a = pin(3 * MiB), b = pin(4 * MiB);
            del(a);
            del(b);
            assertThat(pin(4 * MiB)).isSameAs(b);
            assertThat(pin(2 * MiB + 1)).isSameAs(a);
            assertThat(sim.host().hostAllocCalls()).isEqualTo(2);
        }

        @Test
        @DisplayName("a larger free block is never split for a smaller request")
        void noSplit() {
            del(pin(8 * MiB));
            HostBlock small = pin(4 * MiB);
            assertThat(small.size()).isEqualTo(4 * MiB);
            assertThat(sim.hostMemoryStats().allocatedBytes()).isEqualTo(12 * MiB);
            assertThat(sim.allocator().freeLists()).containsOnlyKeys(8 * MiB);
        }

        @Test
        @DisplayName("free of a block twice, or of a foreign block, names the block")
        void misuse() {
            HostBlock a = pin(KiB);
            del(a);
            assertThatThrownBy(() -> sim.del(a)).hasMessageContaining("already free");
            HostBlock other = new PinnedSim().pin(KiB);
            assertThatThrownBy(() -> sim.del(other)).hasMessageContaining("not a block of this allocator");
        }
    }

    @Nested
    @DisplayName("Rule 2: a freed block waits for the events of the streams that used it")
    class Events {
        final DeviceBuffer dev = sim.cuda(64 * MiB);

        @Test
        @DisplayName("a block freed during its copy is not reused until the copy completes")
        void waits() {
            sim.kernel("busy", 50_000_000);          // the stream is busy for 50 ms
            HostBlock a = pin(64 * MiB);
            sim.copyToDevice(dev, a);
            del(a);
            assertThat(sim.allocator().pendingEvents()).isEqualTo(1);
            assertThat(sim.hostMemoryStats().activeBytes()).as("still counts as checked out")
                    .isEqualTo(64 * MiB);
            HostBlock b = pin(64 * MiB);
            assertThat(b).isNotSameAs(a);
            sim.synchronize();
            del(b);
            HostBlock c = pin(64 * MiB);             // processing the queue files a after b
            assertThat(c).isSameAs(a);
            assertThat(pin(64 * MiB)).isSameAs(b);
        }

        @Test
        @DisplayName("the queue is processed oldest first and stops at the first event not ready")
        void headOfLine() {
            var slow = sim.stream();
            var fast = new vramlab.driver.Stream(1, "stream 1", sim.clock(), slow.engine());
            HostBlock a = pin(MiB), b = pin(MiB);
            DeviceBuffer small = sim.cuda(MiB);
            sim.kernel("long", 10_000_000);
            sim.copyToDevice(small, a);                // a's copy waits behind 10 ms of work
            fast.memcpyAsync(small, b, MiB);
            sim.allocator().recordEvent(b, fast);    // b's copy runs at once on another stream
            del(a);
            del(b);
            sim.clock().advanceBy(1_000_000);        // b's event is done, a's is not
            assertThat(pin(MiB)).as("b is stuck behind a's older event").isNotIn(a, b);
            sim.synchronize();
            assertThat(pin(MiB)).isIn(a, b);
        }

        @Test
        @DisplayName("with events switched off, a later copy's data overwrites what an in-flight copy reads")
        void corruption() {
            assertThat(stagedBatches(true)).containsExactly(0L, 1L, 2L, 3L);
            assertThat(stagedBatches(false)).doesNotContainSequence(0L, 1L, 2L, 3L)
                    .contains(3L, 3L);
        }

        /** Four steps: fill a pinned batch, async copy to its own device slot, drop it. */
        List<Long> stagedBatches(boolean events) {
            PinnedSim s = new PinnedSim();
            s.allocator().setEventsEnabled(events);
            List<DeviceBuffer> slots = new ArrayList<>();
            s.kernel("previous step", 20_000_000);
            for (long step = 0; step < 4; step++) {
                HostBlock batch = s.pin(MiB);
                batch.store(step);
                DeviceBuffer slot = s.cuda(MiB);
                s.copyToDevice(slot, batch);
                slots.add(slot);
                s.del(batch);
                s.checkInvariants();
            }
            s.synchronize();
            return slots.stream().map(DeviceBuffer::contents).toList();
        }
    }

    @Nested
    @DisplayName("Rule 3: a block allocated during a graph capture and used there is never recycled"
            + " (CHA.h with private pools, after PR #161583)")
    class Capture {
        @Test
        @DisplayName("an unused block allocated during capture is cached in that graph's pool, not handed"
                + " to eager code")
        void unusedStaysInItsPool() {
            HostBlock[] inGraph = new HostBlock[2];
            sim.capture(() -> {
                inGraph[0] = pin(4 * KiB);
                del(inGraph[0]);
                inGraph[1] = pin(4 * KiB);
            });
            assertThat(inGraph[1]).as("reused within the capture's private pool").isSameAs(inGraph[0]);
            assertThat(inGraph[0].captured()).isTrue();
            del(inGraph[1]);
            assertThat(sim.allocator().fateOf(inGraph[1])).as("never used by a stream").isEqualTo(
                    CachingHostAllocator.Fate.CACHE);
            assertThat(sim.allocator().freeLists(inGraph[1].pool()).get(4 * KiB)).containsExactly(inGraph[1]);
            assertThat(pin(4 * KiB)).as("an eager request draws on the default pool").isNotSameAs(inGraph[1]);
        }

        @Test
        @DisplayName("a block allocated before the capture and used in it is not marked: it waits for its"
                + " event and is recycled (record_event only adds the stream)")
        void usedInCaptureButAllocatedBefore() {
            DeviceBuffer loss = sim.cuda(4 * KiB);
            HostBlock early = pin(4 * KiB);
            sim.capture(() -> sim.copyToHost(early, loss));
            assertThat(early.captured()).isFalse();
            del(early);
            sim.synchronize();
            assertThat(pin(4 * KiB)).isSameAs(early);
        }

        @Test
        @DisplayName("a captured staging buffer keeps its address across replays, even after del")
        void stable() {
            DeviceBuffer loss = sim.cuda(4 * KiB);
            HostBlock[] staging = new HostBlock[1];
            CudaGraph g = sim.capture(() -> {
                staging[0] = sim.pin(4 * KiB);
                sim.copyToHost(staging[0], loss);
            });
            del(staging[0]);
            for (long step = 1; step <= 3; step++) {
                loss.store(step);
                sim.replay(g);
                HostBlock other = pin(4 * KiB);
                assertThat(other).isNotSameAs(staging[0]);
                del(other);
                sim.synchronize();
                assertThat(staging[0].contents()).isEqualTo(step);
            }
            assertThat(g.addresses()).contains(staging[0].address());
            assertThat(sim.allocator().parked()).containsExactly(staging[0]);
            sim.emptyHostCache();
            assertThat(sim.allocator().blocks()).contains(staging[0]);
        }
    }

    @Nested
    @DisplayName("Statistics follow the seed's host_memory_stats walkthrough")
    class Walkthrough {
        @Test
        @DisplayName("256 MiB owned after del with 0 checked out; empty_host_cache frees it with one more cudaFreeHost")
        void seed() {
            HostBlock t = pin(256 * MiB);
            HostStats a = sim.hostMemoryStats();
            assertThat(a.allocatedBytes()).isEqualTo(256 * MiB);
            assertThat(a.activeBytes()).isEqualTo(256 * MiB);
            assertThat(a.numHostAlloc()).isEqualTo(1);
            assertThat(a.numHostFree()).isZero();
            del(t);
            sim.synchronize();
            HostStats b = sim.hostMemoryStats();
            assertThat(b.allocatedBytes()).isEqualTo(256 * MiB);
            assertThat(b.activeBytes()).isZero();
            assertThat(b.numHostFree()).isZero();
            assertThat(sim.host().pinnedBytes()).as("the pages stay locked").isEqualTo(256 * MiB);
            sim.emptyHostCache();
            sim.checkInvariants();
            HostStats c = sim.hostMemoryStats();
            assertThat(c.allocatedBytes()).isZero();
            assertThat(c.numHostFree()).isEqualTo(b.numHostFree() + 1);
            assertThat(sim.host().freeHostCalls()).isEqualTo(1);
            assertThat(sim.host().pinnedBytes()).isZero();
        }

        @Test
        @DisplayName("torch.cuda.empty_cache() releases device memory and leaves pinned memory alone")
        void deviceEmptyCache() {
            sim.device().free(sim.device().alloc(64 * MiB));
            del(pin(256 * MiB));
            assertThat(sim.cudaEmptyCache()).isPositive();
            assertThat(sim.hostMemoryStats().allocatedBytes()).isEqualTo(256 * MiB);
            assertThat(sim.host().pinnedBytes()).isEqualTo(256 * MiB);
        }

        @Test
        @DisplayName("empty_host_cache frees only free-list blocks: not checked-out, waiting or captured ones")
        void onlyFreeList() {
            DeviceBuffer dev = sim.cuda(MiB);
            HostBlock held = pin(MiB), waiting = pin(2 * MiB), free = pin(4 * MiB);
            sim.kernel("busy", 10_000_000);
            sim.copyToDevice(dev, waiting);
            del(waiting);
            del(free);
            assertThat(sim.emptyHostCache()).isEqualTo(4 * MiB);
            sim.checkInvariants();
            assertThat(sim.allocator().blocks()).containsExactly(held, waiting);
            sim.synchronize();
            assertThat(sim.emptyHostCache()).as("now its event retired").isEqualTo(2 * MiB);
        }

        @Test
        @DisplayName("the report line is the seed's format")
        void line() {
            HostBlock t = pin(256 * MiB);
            // The walkthrough's Python: f"{label:20} owned={owned//MiB:5} MiB  checked_out={out//MiB:5} MiB
            // cudaFreeHost calls={n}": the label left-aligned in 20 columns, each MiB count right-aligned in 5.
            String expected = "after alloc" + " ".repeat(20 - "after alloc".length()) + " owned=" + "  256"
                    + " MiB  checked_out=" + "  256" + " MiB  cudaFreeHost calls=0";
            assertThat(sim.report("after alloc")).isEqualTo(expected);
            del(t);
        }
    }

    @Nested
    @DisplayName("Options")
    class Options {
        @Test
        @DisplayName("pinned_max_cached_size_mb releases larger blocks when freed (unverified option)")
        void maxCached() {
            sim = new PinnedSim("pinned_max_cached_size_mb:32");
            del(pin(64 * MiB));
            assertThat(sim.hostMemoryStats().allocatedBytes()).isZero();
            del(pin(10 * MiB));
            assertThat(sim.hostMemoryStats().allocatedBytes()).isEqualTo(16 * MiB);
        }

        @Test
        @DisplayName("pinned_max_round_threshold_mb pins the exact size above it (unverified option)")
        void roundThreshold() {
            sim = new PinnedSim("pinned_max_round_threshold_mb:64");
            assertThat(pin(80 * MiB).size()).isEqualTo(80 * MiB);
            assertThat(pin(10 * MiB).size()).isEqualTo(16 * MiB);
            assertThat(sim.allocator().roundSize(100 * GiB)).isEqualTo(100 * GiB);
        }

        @Test
        @DisplayName("pinned_reserve_segment_size_mb pins one slab that empty_host_cache never frees")
        void reserve() {
            sim = new PinnedSim("pinned_reserve_segment_size_mb:64");
            HostBlock a = pin(MiB), b = pin(100);
            assertThat(b.address()).isEqualTo(a.address() + MiB);
            assertThat(sim.host().hostAllocCalls()).isEqualTo(1);
            HostBlock big = pin(128 * MiB);           // no room: the slow path
            assertThat(big.fromReserve()).isFalse();
            del(a);
            del(b);
            del(big);
            sim.emptyHostCache();
            sim.checkInvariants();
            assertThat(sim.host().pinnedBytes()).isEqualTo(64 * MiB);
            assertThat(sim.allocator().reserveSlabBytes()).isEqualTo(64 * MiB);
        }

        @Test
        @DisplayName("pinned_use_background_threads looks only at events of the requested size")
        void background() {
            sim = new PinnedSim("pinned_use_background_threads:True");
            DeviceBuffer dev = sim.cuda(MiB);
            HostBlock a = pin(MiB), b = pin(2 * MiB);
            sim.copyToDevice(dev, a);
            sim.copyToDevice(dev, b);
            del(a);
            del(b);
            sim.synchronize();
            assertThat(pin(MiB)).isSameAs(a);
            assertThat(sim.allocator().pendingEvents()).as("b's event was left alone").isEqualTo(1);
        }

        @Test
        @DisplayName("all four keys parse, in MiB and True/False, and unset keys keep their defaults")
        void parse() {
            PinnedConfig c = PinnedConfig.parse("pinned_max_cached_size_mb:512, pinned_max_round_threshold_mb:64,"
                    + "pinned_reserve_segment_size_mb:1024,pinned_use_background_threads:True");
            assertThat(c).isEqualTo(new PinnedConfig(512 * MiB, 64 * MiB, GiB, true));
            assertThat(PinnedConfig.parse("")).isEqualTo(PinnedConfig.DEFAULT);
            assertThat(PinnedConfig.parse("pinned_use_background_threads:False").maxCachedSize())
                    .isEqualTo(Long.MAX_VALUE);
        }

        @Test
        @DisplayName("device and pinned keys share one PYTORCH_ALLOC_CONF: each parser reads its own, checks all")
        void mixed() {
            String conf = "expandable_segments:True,pinned_max_cached_size_mb:512,"
                    + "roundup_power2_divisions:[64:8,>:2],pinned_use_background_threads:True";
            assertThat(PinnedConfig.parse(conf)).isEqualTo(
                    new PinnedConfig(512 * MiB, Long.MAX_VALUE, 0, true));
            assertThat(vramlab.alloc.AllocConf.parse(conf, PinnedConfig.DEVICE_KEYS.rules(), PinnedConfig.LATER_KEYS)
                    .expandableSegments()).isTrue();
        }

        @ParameterizedTest(name = "{0}")
        @CsvSource(delimiter = '|', textBlock = """
            pinned_max_cached_size_mb:x       | bad value 'x' for pinned_max_cached_size_mb
            pinned_use_background_threads:yes | bad value 'yes' for pinned_use_background_threads
            pinned_use_background_threads:true | expected True or False (case-sensitive)
            pinned_reserve_segment_size_mb:0  | greater than 0
            max_split_size_mb:10              | bad value '10' for max_split_size_mb
            pinned_max_cached:5               | Unrecognized key 'pinned_max_cached' in CUDA allocator config.
            pinned_max_cached_size_mb         | expected ':' after 'pinned_max_cached_size_mb'
            """)
        @DisplayName("bad options are refused with the key, the value and what was expected")
        void bad(String conf, String message) {
            assertThatThrownBy(() -> PinnedConfig.parse(conf)).hasMessageContaining(message)
                    .hasMessageContaining("PYTORCH_ALLOC_CONF");
        }
    }

    @Test
    @DisplayName("cudaHostRegister pins exactly 100 GB where the caching allocator would pin 128 GiB")
    void register() {
        HostBuffer kv = sim.pinTensor(100_000_000_000L);
        assertThat(sim.host().pinnedBytes()).isEqualTo(100_000_000_000L);
        assertThat(sim.allocator().roundSize(100_000_000_000L)).isEqualTo(128 * GiB);
        assertThat(sim.hostMemoryStats().allocatedBytes()).as("invisible to host_memory_stats").isZero();
        sim.unpinTensor(kv);
        assertThat(sim.host().pinnedBytes()).isZero();
        sim.checkInvariants();
    }
}
