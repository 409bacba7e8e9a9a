package vramlab.driver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

@DisplayName("The deterministic clock, streams, events and copies")
class ClockStreamEventTest {
    /** 1 byte per nanosecond and no latency: a copy of N bytes takes N ns. */
    static final CopyEngine ONE_BYTE_PER_NS = new CopyEngine(1_000_000_000L, 0);

    final Clock clock = new Clock();
    final Stream s = new Stream(1, "s1", clock, ONE_BYTE_PER_NS);

    DeviceBuffer dev(long size) { return new DeviceBuffer("d", 0x1000, size); }

    @Nested
    @DisplayName("The clock")
    class TheClock {
        @Test
        @DisplayName("runs due actions in time order, and ties in the order they were scheduled")
        void order() {
            List<String> ran = new ArrayList<>();
            clock.schedule(30, () -> ran.add("c"));
            clock.schedule(10, () -> ran.add("a"));
            clock.schedule(30, () -> ran.add("d"));
            clock.schedule(20, () -> ran.add("b"));
            clock.advanceTo(25);
            assertThat(ran).containsExactly("a", "b");
            assertThat(clock.now()).isEqualTo(25);
            clock.drain();
            assertThat(ran).containsExactly("a", "b", "c", "d");
            assertThat(clock.now()).isEqualTo(30);
        }

        @Test
        @DisplayName("never goes back, and refuses a negative step")
        void monotone() {
            clock.advanceTo(100);
            clock.advanceTo(50);
            assertThat(clock.now()).isEqualTo(100);
            assertThatThrownBy(() -> clock.advanceBy(-1)).hasMessageContaining("negative");
        }
    }

    @Nested
    @DisplayName("A copy of N bytes")
    class Copies {
        @ParameterizedTest(name = "{0} bytes at {1} B/s plus {2} ns take {3} ns")
        @CsvSource(textBlock = """
            1000,          1000000000,  0,     1000
            268435456,     25000000000, 10000, 10747419
            107374182400,  25000000000, 0,     4294967296
            """)
        @DisplayName("takes latency plus bytes over bandwidth, also for 100 GiB")
        void duration(long bytes, long bw, long latency, long nanos) {
            assertThat(new CopyEngine(bw, latency).durationNanos(bytes)).isEqualTo(nanos);
        }

        @Test
        @DisplayName("queues behind earlier work on its stream and delivers when it completes")
        void inOrder() {
            HostBuffer src = new HostMemory(clock, HostCostModel.DEFAULT).malloc(100);
            src.store(7);
            DeviceBuffer d = dev(100);
            s.kernel("k", 500);
            long end = s.memcpyAsync(d, src);
            assertThat(end).isEqualTo(600);
            clock.advanceTo(599);
            assertThat(d.contents()).as("not yet arrived at 599 ns").isZero();
            clock.advanceTo(600);
            assertThat(d.contents()).isEqualTo(7);
        }

        @Test
        @DisplayName("reads its source when it completes, so a host write before then is what arrives")
        void readsLate() {
            HostBuffer src = new HostMemory(clock, HostCostModel.DEFAULT).malloc(100);
            DeviceBuffer d = dev(100);
            src.store(1);
            s.memcpyAsync(d, src);
            src.store(2);                    // the host reuses the buffer too early
            s.synchronize();
            assertThat(d.contents()).isEqualTo(2);
        }

        @Test
        @DisplayName("refuses a source larger than the destination")
        void tooBig() {
            HostBuffer src = new HostMemory(clock, HostCostModel.DEFAULT).malloc(200);
            assertThatThrownBy(() -> s.memcpyAsync(dev(100), src)).hasMessageContaining("do not fit in source 200 / destination 100");
        }
    }

    @Nested
    @DisplayName("An event")
    class Events {
        @Test
        @DisplayName("completes when its stream reaches it, and synchronize waits exactly that long")
        void completes() {
            s.kernel("k", 1000);
            CudaEvent e = s.recordEvent();
            s.kernel("later", 5000);
            assertThat(e.query()).isFalse();
            e.synchronize();
            assertThat(clock.now()).isEqualTo(1000);
            assertThat(e.query()).isTrue();
            assertThat(s.query()).isFalse();
            s.synchronize();
            assertThat(clock.now()).isEqualTo(6000);
        }

        @Test
        @DisplayName("never recorded counts as complete, as cudaEventQuery has it")
        void unrecorded() {
            assertThat(new CudaEvent(clock).query()).isTrue();
        }

        @Test
        @DisplayName("makes another stream wait with waitEvent")
        void crossStream() {
            Stream t = new Stream(2, "s2", clock, ONE_BYTE_PER_NS);
            s.kernel("k", 1000);
            t.waitEvent(s.recordEvent());
            assertThat(t.kernel("after", 10)).isEqualTo(1010);
        }
    }

    @Nested
    @DisplayName("Stream capture")
    class Capture {
        @Test
        @DisplayName("records work without running it, and every replay uses the same addresses")
        void replay() {
            HostBuffer h = new HostMemory(clock, HostCostModel.DEFAULT).malloc(64);
            DeviceBuffer d = dev(64);
            s.beginCapture();
            s.memcpyAsync(h, d);                         // D2H into a fixed host address
            CudaGraph g = s.endCapture();
            assertThat(clock.spans()).isEmpty();
            d.store(5);
            g.replay(s);
            s.synchronize();
            assertThat(h.contents()).isEqualTo(5);
            d.store(6);
            g.replay(s);
            s.synchronize();
            assertThat(h.contents()).isEqualTo(6);
            assertThat(g.addresses()).containsExactly(h.address(), d.address());
            assertThat(g.replays()).isEqualTo(2);
        }

        @Test
        @DisplayName("cannot be nested or ended twice")
        void misuse() {
            s.beginCapture();
            assertThatThrownBy(s::beginCapture).hasMessageContaining("already capturing");
            s.endCapture();
            assertThatThrownBy(s::endCapture).hasMessageContaining("without beginCapture");
        }
    }

    @Nested
    @DisplayName("Host memory")
    class Host {
        final HostMemory host = new HostMemory(clock, HostCostModel.DEFAULT);

        @Test
        @DisplayName("cudaHostAlloc blocks the host for milliseconds and counts pinned bytes")
        void hostAlloc() {
            HostBuffer b = host.cudaHostAlloc(256L << 20);
            assertThat(clock.now()).isEqualTo(HostCostModel.DEFAULT.pinNanos(256L << 20))
                    .isGreaterThan(1_000_000);
            assertThat(host.pinnedBytes()).isEqualTo(256L << 20);
            host.cudaFreeHost(b);
            assertThat(host.pinnedBytes()).isZero();
            host.checkInvariants();
            assertThatThrownBy(() -> host.cudaFreeHost(b)).hasMessageContaining("not a live host buffer");
        }

        @Test
        @DisplayName("cudaHostRegister pins exactly the buffer's size, and unregister leaves it allocated")
        void register() {
            HostBuffer b = host.malloc(100_000_000_000L);
            host.cudaHostRegister(b);
            assertThat(host.pinnedBytes()).isEqualTo(100_000_000_000L);
            assertThatThrownBy(() -> host.free(b)).hasMessageContaining("expected a PAGEABLE");
            host.cudaHostUnregister(b);
            assertThat(host.pinnedBytes()).isZero();
            assertThat(b.live()).isTrue();
            host.free(b);
            host.checkInvariants();
        }
    }
}
