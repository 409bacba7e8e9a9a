package vramlab.driver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static vramlab.units.Bytes.gib;
import static vramlab.units.Bytes.mib;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The simulated timeline's contract: the clock, streams, events, graphs and the cost models. */
@DisplayName("The clock, streams, events and graphs, one promise at a time")
class TimelineContractTest {
    final Clock clock = new Clock();
    final Stream s = new Stream(3, "copy stream", clock, CopyEngine.PCIE4);

    @Nested
    @DisplayName("the clock")
    class Clocks {
        @Test
        @DisplayName("an action due now or earlier runs at once; a later one waits for its time")
        void schedule() {
            List<String> ran = new ArrayList<>();
            clock.schedule(0, () -> ran.add("now"));
            clock.schedule(5, () -> ran.add("later"));
            assertThat(ran).containsExactly("now");
            assertThat(clock.pendingCount()).isEqualTo(1);
            clock.advanceBy(4);
            assertThat(ran).containsExactly("now");
            clock.advanceBy(1);
            assertThat(ran).containsExactly("now", "later");
            clock.advanceBy(0);
            assertThat(clock.now()).isEqualTo(5);
            assertThatThrownBy(() -> clock.advanceBy(-1)).hasMessageContaining("negative time -1");
            clock.checkInvariants();
        }

        @Test
        @DisplayName("spans record who was busy when, an instant span is legal, an inverted one is not")
        void spans() {
            clock.advanceBy(1_000);
            clock.recordHost("instant", 1_000);
            clock.recordHost("pin", 400);
            assertThat(clock.spans()).extracting(Clock.Span::duration).containsExactly(0L, 600L);
            assertThat(clock.spans().get(1).lane()).isEqualTo("host");
            assertThatThrownBy(() -> clock.record(new Clock.Span("x", "y", 5, 4)))
                    .hasMessageContaining("ends before it starts");
            assertThat(Clock.ms(1_234_567)).isEqualTo("1.235 ms");
        }
    }

    @Nested
    @DisplayName("streams")
    class Streams {
        @Test
        @DisplayName("a copy takes the engine's latency plus bytes / bandwidth, and lands when it ends")
        void copy() {
            DeviceBuffer dst = new DeviceBuffer("d", 0x1000, mib(1));
            HostBuffer src = new HostMemory(clock, HostCostModel.DEFAULT).malloc(mib(1));
            src.store(42);
            long end = s.memcpyAsync(dst, src, mib(1));
            assertThat(end).isEqualTo(CopyEngine.PCIE4.durationNanos(mib(1))).isEqualTo(10_000 + 41_944);
            assertThat(s.query()).isFalse();
            assertThat(dst.contents()).isZero();
            clock.advanceTo(end - 1);
            assertThat(s.query()).isFalse();
            clock.advanceTo(end);
            assertThat(s.query()).as("done exactly at its end").isTrue();
            assertThat(dst.contents()).isEqualTo(42);
            assertThat(clock.spans()).singleElement().satisfies(sp -> assertThat(sp.lane()).isEqualTo("copy stream"));
        }

        @Test
        @DisplayName("a copy must fit both buffers and move at least one byte; the whole source is the default")
        void copyBounds() {
            DeviceBuffer small = new DeviceBuffer("small", 0, 100), big = new DeviceBuffer("big", 0x1000, 200);
            assertThatThrownBy(() -> s.memcpyAsync(small, big, 0)).hasMessageContaining("0 bytes do not fit");
            assertThatThrownBy(() -> s.memcpyAsync(small, big, 101)).hasMessageContaining("destination 100");
            assertThatThrownBy(() -> s.memcpyAsync(big, small, 101)).hasMessageContaining("source 100");
            assertThat(s.memcpyAsync(big, small)).isPositive();
            assertThat(s.memcpyAsync(small, big, 100)).isGreaterThan(0);
        }

        @Test
        @DisplayName("a kernel keeps the stream busy for its time and says when it ends")
        void kernel() {
            assertThat(s.kernel("k", 500)).isEqualTo(500);
            assertThat(s.kernel("k2", 250)).as("queued behind the first").isEqualTo(750);
            assertThat(s.tail()).isEqualTo(750);
            s.synchronize();
            assertThat(clock.now()).isEqualTo(750);
            assertThat(new Object[] {s.id(), s.name(), s.clock(), s.engine()})
                    .containsExactly(3, "copy stream", clock, CopyEngine.PCIE4);
            assertThat(s).hasToString("copy stream");
        }

        @Test
        @DisplayName("events: recorded at the stream's tail, done from then on, and a wait moves another stream")
        void events() {
            CudaEvent unrecorded = new CudaEvent(clock);
            assertThat(unrecorded.recorded()).isFalse();
            assertThat(unrecorded.query()).isTrue();
            assertThat(unrecorded).hasToString("event(unrecorded)");
            s.kernel("k", 2_000_000);
            CudaEvent e = s.recordEvent();
            assertThat(e.recorded()).isTrue();
            assertThat(e.stream()).isSameAs(s);
            assertThat(e.toString()).isEqualTo("event(copy stream @2.000 ms)");
            Stream other = new Stream(4, "other", clock, CopyEngine.PCIE4);
            other.waitEvent(e);
            assertThat(other.tail()).isEqualTo(2_000_000);
            other.waitEvent(unrecorded);
            assertThat(other.tail()).isEqualTo(2_000_000);
            e.synchronize();
            assertThat(e.toString()).endsWith(" done)");
        }

        @Test
        @DisplayName("a captured graph replays its nodes in order and counts its replays; capture cannot nest")
        void graphs() {
            DeviceBuffer a = new DeviceBuffer("a", 0, 64), b = new DeviceBuffer("b", 64, 64);
            s.beginCapture();
            assertThatThrownBy(s::beginCapture).hasMessageContaining("already capturing");
            assertThat(s.memcpyAsync(a, b, 64)).as("nothing runs while capturing").isZero();
            assertThat(s.kernel("k", 100)).isZero();
            org.assertj.core.api.Assertions.assertThatCode(() -> s.endCapture().replay(s)).doesNotThrowAnyException();
            CudaGraph g = captureAgain(a, b);
            assertThat(g.nodes()).extracting(CudaGraph.Node::isCopy).containsExactly(true, false);
            long end = g.replay(s);
            assertThat(end).isEqualTo(s.tail()).isPositive();
            assertThat(g.replays()).isEqualTo(1);
            assertThat(g.addresses()).containsExactly(64L, 0L);
            assertThatThrownBy(s::endCapture).hasMessageContaining("endCapture without beginCapture");
        }

        private CudaGraph captureAgain(DeviceBuffer a, DeviceBuffer b) {
            s.beginCapture();
            s.memcpyAsync(b, a, 64);
            s.kernel("k", 100);
            return s.endCapture();
        }
    }

    @Nested
    @DisplayName("buffers and cost models")
    class Parts {
        @Test
        @DisplayName("device buffers need a size; host buffers say their kind and refuse writes once freed")
        void buffers() {
            assertThatThrownBy(() -> new DeviceBuffer("z", 0, 0)).hasMessageContaining("DeviceBuffer z: size 0");
            DeviceBuffer one = new DeviceBuffer("one", 0xabc, 1);
            assertThat(one.address()).isEqualTo(0xabc);
            assertThat(one.name()).isEqualTo("one");
            assertThat(one).hasToString("one@0xabc");
            HostMemory host = new HostMemory(clock, HostCostModel.DEFAULT);
            HostBuffer h = host.malloc(mib(1));
            assertThat(h.address()).isEqualTo(0x7f0000000000L);
            assertThat(h.kind()).isEqualTo(HostBuffer.Kind.PAGEABLE);
            assertThat(h.pinned()).isFalse();
            assertThat(h).hasToString("host@0x7f0000000000(1024.00 KiB, pageable)");   // format_size: <= 1 MiB in KiB
            HostBuffer next = host.cudaHostAlloc(1);
            assertThat(next.address()).as("the next buffer starts a page after").isEqualTo(0x7f0000100000L);
            assertThat(next.pinned()).isTrue();
            host.free(h);
            assertThat(h.live()).isFalse();
            assertThatThrownBy(() -> h.store(1)).hasMessageContaining("write to freed host buffer");
        }

        @ParameterizedTest(name = "{0} B: pin {1} ns, unpin {2} ns")
        @CsvSource({"1048576, 1100000, 520000", "1572864, 1150000, 530000", "1, 1000000, 500000"})
        @DisplayName("host pinning costs a base plus a per-MiB rate, prorated below a MiB")
        void hostCost(long bytes, long pin, long unpin) {
            assertThat(HostCostModel.DEFAULT.pinNanos(bytes)).isEqualTo(pin);
            assertThat(HostCostModel.DEFAULT.unpinNanos(bytes)).isEqualTo(unpin);
        }

        @Test
        @DisplayName("copy engines and cost models refuse negative or zero rates; zero costs are legal")
        void models() {
            assertThatThrownBy(() -> new CopyEngine(0, 0)).hasMessageContaining("bandwidth 0");
            assertThatThrownBy(() -> new CopyEngine(1, -1)).hasMessageContaining("latency -1");
            assertThat(new CopyEngine(1, 0).durationNanos(1)).isEqualTo(1_000_000_000L);
            assertThat(new CostModel(0, 0, 0).micros(DriverCall.CUDA_FREE, 10)).isZero();
            assertThatThrownBy(() -> new CostModel(-1, 0, 0)).hasMessageContaining("costs must be >= 0");
            assertThatThrownBy(() -> new CostModel(0, -1, 0)).hasMessageContaining("costs must be >= 0");
            assertThatThrownBy(() -> new CostModel(0, 0, -1)).hasMessageContaining("costs must be >= 0");
            assertThat(CostModel.format(999.94)).isEqualTo("999.9 us");
            assertThat(CostModel.format(1000)).isEqualTo("1.00 ms");
            assertThat(DriverCall.CU_MEM_MAP.cudaName()).isEqualTo("cuMemMap");
            assertThat(DriverCall.CU_MEM_RELEASE.touchesPages()).isFalse();
            assertThat(DriverCall.CU_MEM_MAP.touchesPages()).isTrue();
        }

        @Test
        @DisplayName("only the two out-of-memory codes are out of memory")
        void outOfMemory() {
            assertThat(new CudaException(CudaError.cudaErrorMemoryAllocation, "x").isOutOfMemory()).isTrue();
            assertThat(new CudaException(CudaError.CUDA_ERROR_OUT_OF_MEMORY, "x").isOutOfMemory()).isTrue();
            assertThat(new CudaException(CudaError.CUDA_ERROR_INVALID_VALUE, "x").isOutOfMemory()).isFalse();
        }

        @Test
        @DisplayName("nvidia-smi's listing: per GPU its used MiB and reserve, per process mapped plus context")
        void listing() {
            Gpu g = new Gpu(0, gib(1), mib(64));
            GpuProcess p = g.open(42, "train", mib(100));
            p.cudaMalloc(mib(3));
            assertThat(NvidiaSmi.listing(List.of(g))).isEqualTo(String.format(
                    "GPU 0: %5d MiB / %5d MiB used (driver reserve 64 MiB)%n"
                            + "  pid %6d  %-12s %6d MiB  (mapped 4 MiB + context 100 MiB)%n",
                    168, 1024, 42, "train", 104));
        }
    }
}
