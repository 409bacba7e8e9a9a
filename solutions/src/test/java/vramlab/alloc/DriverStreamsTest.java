package vramlab.alloc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static vramlab.units.Bytes.mib;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import vramlab.driver.Clock;
import vramlab.driver.CopyEngine;
import vramlab.driver.Gpu;
import vramlab.driver.Stream;

/** record_stream on the driver's streams: a block waits for the other stream's queued work. */
class DriverStreamsTest {
    static final long MS = 1_000_000;

    final Clock clock = new Clock();
    final Stream compute = new Stream(0, "default", clock, CopyEngine.PCIE4);
    final Stream side = new Stream(1, "side", clock, CopyEngine.PCIE4);
    final CachingAllocator allocator = new CachingAllocator(new Gpu(mib(100)).openToyProcess(), new PyTorchPolicy());
    final DriverStreams bridge = DriverStreams.connect(allocator, compute, side);

    @Test
    @DisplayName("a block used on a side stream is reused only after that stream's kernel has run")
    void reuseWaitsForTheSideStream() {
        Block b = allocator.alloc(mib(4));
        long address = b.address();
        allocator.recordStream(b, 1);
        side.kernel("reads b", 10 * MS);
        allocator.free(b);
        assertThat(bridge.pending()).isEqualTo(1);

        Block early = allocator.alloc(mib(4));                   // the side stream is still busy
        assertThat(early.address()).as("%s", allocator).isNotEqualTo(address);
        allocator.checkInvariants();

        clock.advanceBy(10 * MS);                                // the kernel has now run
        Block later = allocator.alloc(mib(4));
        assertThat(later.address()).as("%s", allocator).isEqualTo(address);
        assertThat(bridge.pending()).isZero();
        allocator.checkInvariants();
    }

    @Test
    @DisplayName("work queued after the free does not hold the block back")
    void onlyWorkBeforeTheFreeCounts() {
        Block b = allocator.alloc(mib(4));
        allocator.recordStream(b, 1);
        side.kernel("reads b", 2 * MS);
        allocator.free(b);
        side.kernel("unrelated, queued after the free", 50 * MS);
        clock.advanceBy(2 * MS);
        assertThat(allocator.alloc(mib(4)).address()).isEqualTo(b.address());
    }

    @Test
    @DisplayName("record_stream on a stream the driver does not know is refused, naming it")
    void unknownStream() {
        Block b = allocator.alloc(mib(1));
        allocator.recordStream(b, 7);
        assertThatThrownBy(() -> allocator.free(b)).hasMessageContaining("stream 7");
    }
}
