package vramlab.judge;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import vramlab.contest.Contestant;
import vramlab.contest.DeviceAllocator;
import vramlab.driver.Gpu;
import vramlab.driver.GpuProcess;
import vramlab.trace.TraceEvent;
import vramlab.units.Bytes;
import vramlab.workload.Workload;

/**
 * Deliberately wrong allocators, each failing the check that names its mistake at the event
 * where it first makes it; and the same allocator without the mistake passing every check.
 */
class WrongEntriesTest {
    /** Which mistake a {@link OnePerBlock} makes, from its {@code at}-th alloc on. */
    enum Bug { NONE, OVERLAP, OUT_OF_SEGMENT, UNDER_SIZE, LEAK, MISALIGNED, THROWS }

    /**
     * The simplest correct allocator: one cudaMalloc per block, rounded to 2 MiB, cudaFree on
     * free; with a bug switched on at its {@code at}-th alloc.
     */
    static final class OnePerBlock implements DeviceAllocator {
        private final GpuProcess process;
        private final Bug bug;
        private final int at;
        private final Map<Long, Long> sizes = new HashMap<>();
        private int allocs;
        private long last;

        OnePerBlock(GpuProcess process, Bug bug, int at) {
            this.process = process;
            this.bug = bug;
            this.at = at;
        }

        @Override public String name() { return "one-per-block/" + bug; }

        @Override
        public long alloc(long size, int stream) {
            allocs++;
            boolean now = allocs >= at;
            long bytes = Bytes.alignUp(size, Gpu.PAGE);
            long address;
            if (now && bug == Bug.OVERLAP) {
                address = last;                                        // the previous block again
            } else if (now && bug == Bug.OUT_OF_SEGMENT) {
                address = last + 64 * Bytes.GiB;                       // VA nobody mapped
            } else if (now && bug == Bug.THROWS) {
                throw new IllegalStateException("free list corrupted");
            } else {
                address = process.cudaMalloc(bytes);
            }
            if (now && bug == Bug.MISALIGNED) address += 256;
            long block = now && bug == Bug.UNDER_SIZE ? size / 512 * 512 : bytes;
            sizes.put(address, block);
            last = address;
            return address;
        }

        @Override
        public void free(long address) {
            sizes.remove(address);
            if (bug == Bug.LEAK && allocs >= at) return;              // forgets to give it back
            if (process.allocationSize(address) > 0) process.cudaFree(address);
        }

        @Override public long blockSize(long address) { return sizes.getOrDefault(address, -1L); }

        @Override public long emptyCache() { return 0; }
    }

    /** alloc a 3 MiB, alloc b 1000 B, free a, alloc c 5 MiB, free b, free c. */
    static final Workload SIX = new Workload("six", Bytes.gib(1), "six events", "a test", List.of(
            TraceEvent.alloc(1, "a", 3 * Bytes.MiB), TraceEvent.alloc(2, "b", 1000), TraceEvent.free(3, "a"),
            TraceEvent.alloc(4, "c", 5 * Bytes.MiB), TraceEvent.free(5, "b"), TraceEvent.free(6, "c")));

    private static Run run(Bug bug, int at) {
        return Judge.run(new Contestant("wrong", p -> new OnePerBlock(p, bug, at)), SIX);
    }

    @Test
    void theAllocatorWithoutItsBugPassesEveryCheck() {
        Run r = run(Bug.NONE, 1);
        assertThat(r.broken()).isNull();
        assertThat(r.fit()).isTrue();
        assertThat(r.peakRequested()).isEqualTo(5 * Bytes.MiB + 1000);
        assertThat(r.peakReserved()).isEqualTo(8 * Bytes.MiB);           // c's 6 MiB and b's 2 MiB
        assertThat(r.driverCalls()).isEqualTo(6);                        // 3 cudaMalloc, 3 cudaFree
    }

    @Test
    void handingOutALiveBlockAgainFailsOverlapAtThatAlloc() {
        Broken b = run(Bug.OVERLAP, 2).broken();
        assertThat(b.check()).isEqualTo(Check.OVERLAP);
        assertThat(b.step()).isEqualTo(2);
        assertThat(b.toString()).startsWith("check overlap broken at event 2 (line 2: alloc 'b' 1000 B)")
                .contains("but was live block").contains("'a', allocated at event 1").contains("<- this block");
    }

    @Test
    void aBlockOutsideTheDriversMemoryFailsSegment() {
        Broken b = run(Bug.OUT_OF_SEGMENT, 2).broken();
        assertThat(b.check()).isEqualTo(Check.SEGMENT);
        assertThat(b.step()).isEqualTo(2);
        assertThat(b.actual()).endsWith("not mapped");
        assertThat(b.map()).contains("not mapped");
    }

    @Test
    void aBlockSmallerThanItsRequestFailsSizeAtTheFirstRequestThatIsNotAMultipleOf512() {
        Broken b = run(Bug.UNDER_SIZE, 1).broken();                      // a is 3 MiB exactly: b is the first
        assertThat(b.check()).isEqualTo(Check.SIZE);
        assertThat(b.step()).isEqualTo(2);
        assertThat(b.toString()).contains("expected a block of at least 1000 B but was 512 B");
    }

    @Test
    void memoryNeverGivenBackFailsLeakAtTheEnd() {
        Broken b = run(Bug.LEAK, 1).broken();
        assertThat(b.check()).isEqualTo(Check.LEAK);
        assertThat(b.step()).isEqualTo(SIX.events().size() + 1);
        assertThat(b.toString()).contains("the end of the trace").contains("expected 0 B held from the driver but was 12.00 MiB");                            // a, b and c: nothing went back
    }

    @Test
    void aMisalignedAddressFailsAligned() {
        Broken b = run(Bug.MISALIGNED, 3).broken();                      // the third alloc is c, event 4
        assertThat(b.check()).isEqualTo(Check.ALIGNED);
        assertThat(b.step()).isEqualTo(4);
    }

    @Test
    void anEntryThatThrowsSomethingElseThanOutOfMemoryFailsCall() {
        Broken b = run(Bug.THROWS, 3).broken();
        assertThat(b.check()).isEqualTo(Check.CALL);
        assertThat(b.step()).isEqualTo(4);
        assertThat(b.actual()).contains("free list corrupted");
    }

    @Test
    void aCardTooSmallIsOutOfMemoryNotABrokenCheck() {
        Workload tight = new Workload("tight", 4 * Bytes.MiB, "", "", SIX.events());
        Run r = Judge.run(new Contestant("ok", p -> new OnePerBlock(p, Bug.NONE, 1)), tight);
        assertThat(r.broken()).isNull();
        assertThat(r.fit()).isFalse();
        assertThat(r.oomStep()).isEqualTo(2);                            // a's 4 MiB fill the card; b needs a page more
    }

    @Test
    void aReferenceThatCannotRunLeavesTheDriverPartWholeAndTheSpacePartMeasured() {
        Contestant unwritten = new Contestant("pytorch", p -> {
            throw new vramlab.lab.Todo("3.2", "Find a block", "ch03", "labs/...");
        });
        Contestant ok = new Contestant("ok", p -> new OnePerBlock(p, Bug.NONE, 1));
        Scoreboard board = new Scoreboard(unwritten, List.of(unwritten, ok), List.of(SIX));
        assertThat(board.unwritten("pytorch")).isNotNull();
        double u = (5.0 * Bytes.MiB + 1000) / (8.0 * Bytes.MiB);
        assertThat(board.index("ok")).isCloseTo(100 * (0.6 * u + 0.4), org.assertj.core.data.Offset.offset(1e-9));
        assertThat(board.table()).contains("TODO step 3.2");
    }
}
