package vramlab.ch07;

import static vramlab.units.Bytes.gib;
import static vramlab.units.Bytes.mib;
import static vramlab.units.Bytes.readable;

import vramlab.driver.Clock;
import vramlab.driver.CopyEngine;
import vramlab.driver.DeviceBuffer;
import vramlab.driver.HostBuffer;
import vramlab.driver.HostCostModel;
import vramlab.driver.Stream;
import vramlab.pinned.CachingHostAllocator;
import vramlab.pinned.HostBlock;
import vramlab.pinned.HostStats;
import vramlab.pinned.PinnedSim;

/**
 * The simulator's own words for the examples chapter 7's prose discusses: the worked numbers
 * of each mechanism and the output that refutes each common misconception. The site writes each
 * {@code outputXxx()} to {@code {generated}/output-xxx.txt} when it is built.
 */
public final class Ch07Outputs {
    private Ch07Outputs() {}

    /** What pinning, unpinning and one copy from pinned memory cost, by size. */
    public static String outputPinCosts() {
        StringBuilder sb = new StringBuilder(String.format("%-10s %14s %14s %16s%n", "size",
                "cudaHostAlloc", "cudaFreeHost", "H2D copy (PCIe4)"));
        for (long size : new long[] {mib(1), mib(64), mib(256), gib(1)}) {
            PinnedSim sim = new PinnedSim();
            long t0 = sim.clock().now();
            HostBlock b = sim.pin(size);
            long pin = sim.clock().now() - t0;
            sim.copyToDevice(sim.cuda(size), b);
            long t1 = sim.clock().now();
            sim.synchronize();
            long copy = sim.clock().now() - t1;
            sim.del(b);
            long t2 = sim.clock().now();
            sim.emptyHostCache();
            long unpin = sim.clock().now() - t2;
            sb.append(String.format("%-10s %14s %14s %16s%n", readable(size), Clock.ms(pin),
                    Clock.ms(unpin), Clock.ms(copy)));
        }
        return sb.toString();
    }

    /** One step of the training loop, added up from its parts, next to what the clock measured. */
    public static String outputStepArithmetic() {
        HostCostModel cost = HostCostModel.DEFAULT;
        long copy = CopyEngine.PCIE4.durationNanos(TrainingLoop.BATCH);
        long held = TrainingLoop.FILL_NANOS + copy + TrainingLoop.COMPUTE_NANOS;
        long pin = cost.pinNanos(TrainingLoop.BATCH), unpin = cost.unpinNanos(TrainingLoop.BATCH);
        TrainingLoop.Result hold = TrainingLoop.run(TrainingLoop.Strategy.HOLD, 10);
        TrainingLoop.Result free = TrainingLoop.run(TrainingLoop.Strategy.FREE_EVERY_STEP, 10);
        return String.format("held step   = fill %s + copy of %s %s + compute %s = %s%n"
                        + "re-pin step = held step + cudaHostAlloc %s + cudaFreeHost %s = %s%n"
                        + "measured by the clock: held %s, re-pin %s (%d%% longer)%n"
                        + "ten steps: held %s, re-pin %s; cudaHostAlloc x%d vs x%d%n",
                Clock.ms(TrainingLoop.FILL_NANOS), readable(TrainingLoop.BATCH), Clock.ms(copy),
                Clock.ms(TrainingLoop.COMPUTE_NANOS), Clock.ms(held), Clock.ms(pin), Clock.ms(unpin),
                Clock.ms(held + pin + unpin), Clock.ms(hold.steadyStepNanos()),
                Clock.ms(free.steadyStepNanos()),
                Math.round(100.0 * (free.steadyStepNanos() - hold.steadyStepNanos()) / hold.steadyStepNanos()),
                Clock.ms(hold.totalNanos()), Clock.ms(free.totalNanos()), hold.cudaHostAllocCalls(),
                free.cudaHostAllocCalls());
    }

    /** Misconception: deleting a pinned tensor unpins it. */
    public static String outputDelKeepsPages() {
        PinnedSim sim = new PinnedSim();
        StringBuilder sb = new StringBuilder();
        HostBlock t = sim.pin(mib(64));
        sb.append(pinned("t = pin(64 MiB)", sim));
        sim.copyToDevice(sim.cuda(mib(64)), t);
        sim.del(t);
        sb.append(pinned("del t (copy queued)", sim));
        sim.synchronize();
        sb.append(pinned("synchronize()", sim));
        sim.pin(mib(1));
        sb.append(pinned("pin(1 MiB) retires it", sim));
        sim.emptyHostCache();
        sb.append(pinned("empty_host_cache()", sim));
        return sb.toString();
    }

    /** Misconception: torch.cuda.empty_cache() gives pinned memory back too. */
    public static String outputDeviceEmptyCache() {
        PinnedSim sim = new PinnedSim();
        HostBlock batch = sim.pin(mib(256));
        var weights = sim.device().alloc(mib(512));
        sim.del(batch);
        sim.device().free(weights);
        long released = sim.cudaEmptyCache();
        StringBuilder sb = new StringBuilder("torch.cuda.empty_cache(): device allocator released "
                + readable(released) + "\n");
        sb.append(pinned("after it", sim));
        long freed = sim.emptyHostCache();
        sb.append("empty_host_cache(): pinned allocator released ").append(readable(freed)).append('\n');
        sb.append(pinned("after it", sim));
        return sb.toString();
    }

    /** Misconception: a free pinned block serves any smaller request, as a device block would. */
    public static String outputExactSizeOnly() {
        PinnedSim sim = new PinnedSim();
        StringBuilder sb = new StringBuilder();
        HostBlock big = sim.pin(mib(8));
        sim.del(big);
        sb.append(String.format("%-27s -> one free block of %s%n", "pin(8 MiB), del", readable(big.size())));
        for (long want : new long[] {mib(4), mib(5), mib(8)}) {
            long calls = sim.host().hostAllocCalls();
            HostBlock b = sim.pin(want);
            boolean reused = b == big;
            String what = reused ? "reuses the 8 MiB block"
                    : "new cudaHostAlloc (calls " + calls + " -> " + sim.host().hostAllocCalls() + ")";
            sb.append(String.format("%-12s rounds to %-7s -> %s%n", "pin(" + readable(want) + ")",
                    readable(b.size()), what));
            sim.del(b);
        }
        sb.append(String.format("owned at the end: %s in %d blocks%n",
                readable(sim.hostMemoryStats().allocatedBytes()), sim.hostMemoryStats().allocations()));
        return sb.toString();
    }

    /** Misconception: a free block serves any request that fits (a batch that shrinks phase by phase). */
    public static String outputWanderingSizes() {
        PinnedSim sim = new PinnedSim();
        StringBuilder sb = new StringBuilder();
        HostBlock previous = null;
        for (long want : new long[] {mib(33), mib(17), mib(9), mib(5), mib(3)}) {
            if (previous != null) sim.del(previous);
            previous = sim.pin(want);
            HostStats st = sim.hostMemoryStats();
            sb.append(String.format("del old, %-11s -> block %-6s owned %-8s checked out %-7s "
                            + "cudaHostAlloc x%d%n", "pin(" + readable(want) + ")", readable(previous.size()),
                    readable(st.allocatedBytes()), readable(st.activeBytes()), sim.host().hostAllocCalls()));
        }
        return sb.toString();
    }

    /** Misconception: once synchronize() returns, host_memory_stats() shows the block free. */
    public static String outputStatsLag() {
        PinnedSim sim = new PinnedSim();
        StringBuilder sb = new StringBuilder();
        HostBlock b = sim.pin(mib(32));
        sim.copyToDevice(sim.cuda(mib(32)), b);
        sim.del(b);
        sb.append(active("del b (copy queued)", sim));
        sim.synchronize();
        sb.append(active("synchronize()", sim));
        sb.append(active("host_memory_stats() again", sim));
        HostBlock other = sim.pin(1024);
        sb.append(active("pin(1 KiB): queue processed", sim));
        sim.del(other);
        return sb.toString();
    }

    /** Misconception: a block is reusable as soon as its own copy finished. */
    public static String outputHeadOfLine() {
        PinnedSim sim = new PinnedSim();
        return headOfLine(sim, new Stream(1, "stream 1", sim.clock(), CopyEngine.PCIE4));
    }

    /** The head-of-line scenario on {@code sim}, its slow copy on {@code side}; returns what it shows. */
    static String headOfLine(PinnedSim sim, Stream side) {
        CachingHostAllocator a = sim.allocator();
        HostBlock slow = sim.pin(mib(16));
        HostBlock fast = sim.pin(mib(2));
        side.kernel("long kernel", 50_000_000);            // stream 1 is busy for 50 ms
        side.memcpyAsync(sim.cuda(mib(16)), slow, mib(16));
        a.recordEvent(slow, side);
        sim.copyToDevice(sim.cuda(mib(2)), fast);           // stream 0 is idle: done in 0.1 ms
        sim.del(slow);                                      // freed first: the oldest event
        sim.del(fast);
        sim.clock().advanceBy(5_000_000);
        StringBuilder sb = new StringBuilder(String.format(
                "5 ms later: 2 MiB copy done=%s, 16 MiB copy done=%s%n", sim.stream().query(), side.query()));
        long calls = sim.host().hostAllocCalls();
        HostBlock again = sim.pin(mib(2));
        sb.append(String.format("pin(2 MiB) got %s the freed 2 MiB block; cudaHostAlloc calls %d -> %d%n",
                again == fast ? "" : "a new block, not", calls, sim.host().hostAllocCalls()));
        sb.append("pending events: ").append(a.pendingEvents())
          .append(" (the 16 MiB one at the head blocks the rest)\n");
        sim.del(again);
        sim.synchronize();
        side.synchronize();
        a.processEvents();
        sb.append("after both streams finish: pending events ").append(a.pendingEvents())
          .append(", free blocks ").append(a.freeLists().values().stream().mapToInt(java.util.List::size).sum())
          .append('\n');
        return sb.toString();
    }

    /** Misconception: pin_memory=True pins what you asked for. */
    public static String outputRoundingBill() {
        StringBuilder sb = new StringBuilder(String.format("%-28s %-22s %s%n", "asked",
                "pin_memory=True pins", "cudaHostRegister pins"));
        for (long want : new long[] {mib(65), gib(3) + 1, 100_000_000_000L}) {
            PinnedSim cached = new PinnedSim();
            cached.pin(want);
            PinnedSim registered = new PinnedSim();
            HostBuffer exact = registered.pinTensor(want);
            sb.append(String.format("%-28s %-22s %s%n", readable(want), readable(cached.host().pinnedBytes()),
                    readable(registered.host().pinnedBytes())));
            registered.unpinTensor(exact);
        }
        return sb.toString();
    }

    /** Misconception: a captured staging buffer comes back after del and empty_host_cache. */
    public static String outputGraphKeepsStaging() {
        PinnedSim sim = new PinnedSim();
        DeviceBuffer loss = sim.cuda(4096);
        HostBlock[] staging = new HostBlock[1];
        sim.capture(() -> {
            staging[0] = sim.pin(4096);
            sim.copyToHost(staging[0], loss);
        });
        HostBlock batch = sim.pin(mib(4));
        sim.del(staging[0]);
        sim.del(batch);
        long freed = sim.emptyHostCache();
        return String.format("del staging, del batch, empty_host_cache() released %s%n"
                        + "still owned: %s%nparked forever: %s%n", readable(freed),
                sim.allocator().blocks(), sim.allocator().parked());
    }

    private static String pinned(String label, PinnedSim sim) {
        return String.format("%-24s pinned by the OS %-8s owned %-8s checked out %s%n", label,
                readable(sim.host().pinnedBytes()), readable(sim.hostMemoryStats().allocatedBytes()),
                readable(sim.hostMemoryStats().activeBytes()));
    }

    private static String active(String label, PinnedSim sim) {
        return String.format("%-28s active_bytes %-8s pending events %d%n", label,
                readable(sim.hostMemoryStats().activeBytes()), sim.allocator().pendingEvents());
    }
}
