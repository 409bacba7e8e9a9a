package vramlab.pinned;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static vramlab.units.Bytes.KiB;
import static vramlab.units.Bytes.MiB;

import java.util.List;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import vramlab.driver.DeviceBuffer;
import vramlab.driver.HostBuffer;

/** The pinned allocator's bookkeeping and the lab's helpers, each promise on its own. */
@DisplayName("The pinned allocator's books and helpers")
class PinnedPartsTest {
    PinnedSim sim = new PinnedSim();

    @Nested
    @DisplayName("the allocator's books")
    class Books {
        @Test
        @DisplayName("host_alloc_time and host_free_time add up the host's time in pin and unpin calls")
        void times() {
            HostBlock a = sim.pin(64 * MiB), b = sim.pin(MiB);
            long pin = sim.host().pinNanos();
            assertThat(pin).isPositive();
            assertThat(sim.hostMemoryStats().hostAllocTimeNanos()).isEqualTo(pin);
            sim.del(a);
            sim.del(b);
            sim.emptyHostCache();
            assertThat(sim.host().unpinNanos()).isPositive();
            assertThat(sim.hostMemoryStats().hostFreeTimeNanos()).isEqualTo(sim.host().unpinNanos());
            assertThat(sim.hostMemoryStats().allocatedBytesPeak()).isEqualTo(65 * MiB);
        }

        @Test
        @DisplayName("a block reused after its events retired carries no old stream: freeing it again records nothing")
        void streamsForgotten() {
            DeviceBuffer dev = sim.cuda(MiB);
            HostBlock a = sim.pin(MiB);
            sim.copyToDevice(dev, a);
            sim.del(a);
            sim.synchronize();
            HostBlock again = sim.pin(MiB);
            assertThat(again).isSameAs(a);
            assertThat(again.streams()).isEmpty();
            sim.del(again);
            assertThat(sim.allocator().pendingEvents()).isZero();
            sim.checkInvariants();
        }

        @Test
        @DisplayName("recordEvent and free refuse a block of another allocator")
        void foreign() {
            HostBlock other = new PinnedSim().pin(KiB);
            assertThatThrownBy(() -> sim.allocator().recordEvent(other, sim.stream()))
                    .hasMessageContaining("recordEvent").hasMessageContaining("not a block of this allocator");
            HostBlock mine = sim.pin(KiB);
            sim.del(mine);
            assertThatThrownBy(() -> sim.allocator().recordEvent(mine, sim.stream()))
                    .hasMessageContaining("block is not in use");
        }

        @Test
        @DisplayName("the accessors say what the allocator was made with")
        void accessors() {
            PinnedSim s = new PinnedSim("pinned_max_cached_size_mb:8");
            CachingHostAllocator a = s.allocator();
            assertThat(a.config().maxCachedSize()).isEqualTo(8 * MiB);
            assertThat(a.host()).isSameAs(s.host());
            assertThat(a.eventsEnabled()).isTrue();
            a.setEventsEnabled(false);
            assertThat(a.eventsEnabled()).isFalse();
            assertThat(a.capturing()).isFalse();
            a.beginCapture();
            assertThat(a.capturing()).isTrue();
            a.endCapture();
            assertThat(a.capturing()).isFalse();
            HostBlock b = s.pin(KiB);
            assertThat(s.toString()).isEqualTo(a.map()).contains(b.toString()).contains("pending events=0");
        }

        @Test
        @DisplayName("a block prints its address, size and state: in use, waiting for events, captured or free")
        void blockText() {
            HostBlock b = sim.pin(3 * MiB);
            assertThat(b.allocated()).isTrue();
            assertThat(b).hasToString("pinned@0x" + Long.toHexString(b.address()) + "[4.00 MiB, in use]");
            sim.copyToDevice(sim.cuda(MiB), b);
            assertThat(b.streams()).containsExactly(sim.stream());
            sim.kernel("busy", 1_000_000);
            sim.del(b);
            assertThat(b.allocated()).isFalse();
            assertThat(b.toString()).endsWith("[4.00 MiB, waiting 1 event(s)]");
            sim.synchronize();
            sim.allocator().processEvents();
            assertThat(b.toString()).endsWith("[4.00 MiB, free]");
            assertThat(b.captured()).isFalse();
            b.pool = 1;                                  // a capture's private pool allocated it
            assertThat(b.captured()).isTrue();
            b.used = false;
            assertThat(b.toString()).as("captured, but no stream used it: reusable").endsWith("[4.00 MiB, free]");
            b.used = true;
            assertThat(b.toString()).as("captured and used by a stream: parked").endsWith("[4.00 MiB, captured]");
        }

        @Test
        @DisplayName("only True and False parse (not 1, 0 or true); 0 MiB is a legal size")
        void parseValues() {
            assertThat(PinnedConfig.parse("pinned_use_background_threads:False").useBackgroundThreads()).isFalse();
            assertThat(PinnedConfig.parse("pinned_use_background_threads:True").useBackgroundThreads()).isTrue();
            for (String v : List.of("1", "0", "true")) {
                assertThatThrownBy(() -> PinnedConfig.parse("pinned_use_background_threads:" + v)).as(v)
                        .hasMessageContaining("bad value '" + v + "'").hasMessageContaining("True or False");
            }
            assertThat(PinnedConfig.parse("pinned_max_cached_size_mb:0").maxCachedSize()).isZero();
            assertThatThrownBy(() -> PinnedConfig.parse("pinned_max_cached_size_mb:-1"))
                    .hasMessageContaining("bad value '-1'").hasMessageContaining("expected a non-negative integer");
            assertThat(PinnedConfig.parse("pinned_reserve_segment_size_mb:99999999999999").reserveSegmentSize())
                    .as("more MiB than a long holds in bytes: no limit").isEqualTo(Long.MAX_VALUE);
        }

        @Test
        @DisplayName("options of 0 are legal (and 0 for the reserve segment means none); negatives are refused")
        void zeroOptions() {
            PinnedConfig zero = new PinnedConfig(0, 0, 0, false);
            assertThat(zero.maxCachedSize()).isZero();
            assertThatThrownBy(() -> new PinnedConfig(-1, 0, 0, false)).hasMessageContaining("must not be negative");
            assertThatThrownBy(() -> new PinnedConfig(0, -1, 0, false)).hasMessageContaining("must not be negative");
            assertThatThrownBy(() -> new PinnedConfig(0, 0, -1, false)).hasMessageContaining("must not be negative");
        }
    }

    @Nested
    @DisplayName("the reserve segment")
    class Reserve {
        @Test
        @DisplayName("carves the slab to its last byte, in 4 KiB steps, then falls back to cudaHostAlloc")
        void toTheEnd() {
            sim = new PinnedSim("pinned_reserve_segment_size_mb:1");
            HostBlock a = sim.pin(512 * KiB), b = sim.pin(256 * KiB), c = sim.pin(256 * KiB);
            assertThat(c.fromReserve()).as("the last 256 KiB of the 1 MiB slab").isTrue();
            assertThat(c.address()).isEqualTo(a.address() + 768 * KiB);
            assertThat(b.address()).isEqualTo(a.address() + 512 * KiB);
            assertThat(sim.pin(KiB).fromReserve()).as("no room left").isFalse();
            assertThat(sim.allocator().reserveSlabBytes()).isEqualTo(MiB);
            sim.checkInvariants();
        }
    }

    @Nested
    @DisplayName("the lab's helpers")
    class Helpers {
        @Test
        @DisplayName("device buffers are laid out one after another, 512 B aligned, never overlapping")
        void cudaLayout() {
            DeviceBuffer a = sim.cuda(1000), b = sim.cuda(100);
            assertThat(b.address()).isEqualTo(a.address() + 1024);
            assertThat(sim.cuda(1).address()).isEqualTo(b.address() + 512);
            assertThat(a.size()).isEqualTo(1000);
        }

        @Test
        @DisplayName("a copy to the host records the event too, so the block waits for it")
        void copyToHostRecords() {
            DeviceBuffer dev = sim.cuda(MiB);
            HostBlock a = sim.pin(MiB);
            sim.kernel("busy", 10_000_000);
            sim.copyToHost(a, dev);
            sim.del(a);
            assertThat(sim.allocator().pendingEvents()).isEqualTo(1);
            assertThat(sim.pin(MiB)).isNotSameAs(a);
        }

        @Test
        @DisplayName("unpin_tensor unregisters and frees: nothing pinned and nothing pageable is left")
        void unpin() {
            HostBuffer t = sim.pinTensor(3 * MiB);
            assertThat(sim.host().pinnedBytes()).isEqualTo(3 * MiB);
            sim.unpinTensor(t);
            assertThat(sim.host().pinnedBytes()).isZero();
            assertThat(sim.host().pageableBytes()).isZero();
            assertThat(sim.host().liveBuffers()).isEmpty();
            sim.checkInvariants();
        }

        @Test
        @DisplayName("a replay runs the captured copy again and says when it ends")
        void replayEnds() {
            DeviceBuffer dev = sim.cuda(4 * KiB);
            HostBlock[] staging = new HostBlock[1];
            var g = sim.capture(() -> {
                staging[0] = sim.pin(4 * KiB);
                sim.copyToHost(staging[0], dev);
            });
            long before = sim.clock().now();
            long end = sim.replay(g);
            assertThat(end).isGreaterThan(before);
            assertThat(sim.stream().tail()).isEqualTo(end);
        }

        @Test
        @DisplayName("the lab's checkInvariants notices a pinned block whose pages were freed behind its back")
        void checkerNotices() {
            HostBlock a = sim.pin(MiB);
            sim.host().cudaFreeHost(a.buffer);
            assertThatThrownBy(sim::checkInvariants).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("not pinned");
        }

        @Test
        @DisplayName("checkInvariants notices a block in two states, or an event count the queue disagrees with")
        void statesNoticed() {
            HostBlock a = sim.pin(MiB);
            sim.del(a);
            a.allocated = true;                              // free-listed and checked out at once
            assertThatThrownBy(sim.allocator()::checkInvariants).hasMessageContaining("on a free list");
            a.allocated = false;
            HostBlock b = sim.pin(2 * MiB);
            b.eventCount = 1;                                // checked out and waiting at once
            assertThatThrownBy(sim.allocator()::checkInvariants).hasMessageContaining("is in 2 states");
            b.allocated = false;                             // waiting, but no event in the queue
            assertThatThrownBy(sim.allocator()::checkInvariants).hasMessageContaining("event count vs queue");
        }
    }
}
