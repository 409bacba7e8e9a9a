package vramlab.ch07;

import static vramlab.units.Bytes.kib;
import static vramlab.units.Bytes.mib;
import static vramlab.units.Bytes.readable;

import vramlab.driver.DeviceBuffer;
import vramlab.figures.ExampleTable;
import vramlab.pinned.CachingHostAllocator;
import vramlab.pinned.HostBlock;
import vramlab.pinned.PinnedSim;

/**
 * The worked example of each of chapter 07's graded steps, computed by the reference when the
 * site is built (the notes include {@code {generated}/step-7.N.adoc}).
 */
public final class Ch07Examples {
    private Ch07Examples() {}

    /** Step 7.1: the block a request gets. */
    public static String example7_1() {
        CachingHostAllocator a = new PinnedSim().allocator();
        ExampleTable t = ExampleTable.of("7.1", "roundSize of the pinned host cache, default options",
                "request", "block");
        for (long s : new long[] {1, 1000, kib(4), kib(4) + 1, mib(3), mib(64) + 1}) t.row(readable(s), readable(a.roundSize(s)));
        return t.then("The next power of two, so a block is at most twice its request; 64 MiB + 1 B costs a "
                + "128 MiB pinned block.").toString();
    }

    /** Step 7.2: where a freed block goes. */
    public static String example7_2() {
        PinnedSim sim = new PinnedSim();
        CachingHostAllocator a = sim.allocator();
        ExampleTable t = ExampleTable.of("7.2", "fateOf a freed block", "block", "fateOf");
        HostBlock plain = sim.pin(mib(1));
        sim.del(plain);
        t.row("=a 1 MiB block used outside any capture, freed", a.fateOf(plain));
        DeviceBuffer loss = sim.cuda(mib(1));
        HostBlock[] captured = new HostBlock[2];
        sim.capture(() -> {
            captured[0] = sim.pin(mib(1));
            sim.copyToHost(captured[0], loss);
            captured[1] = sim.pin(mib(1));
        });
        sim.del(captured[0]);
        sim.del(captured[1]);
        t.row("=a 1 MiB block allocated during a capture, a copy captured into it, freed", a.fateOf(captured[0]));
        t.row("=a 1 MiB block allocated during a capture, never used, freed", a.fateOf(captured[1]));
        return t.then("A block a capture allocated and a copy used is parked: the graph may replay the copy into "
                + "its address at any time, so it is never recycled. One nothing used is cached, in that "
                + "graph's private pool.").toString();
    }

    /** Step 7.3: events retire oldest first, lazily. */
    public static String example7_3() {
        PinnedSim sim = new PinnedSim();
        CachingHostAllocator a = sim.allocator();
        ExampleTable t = ExampleTable.of("7.3", "a block freed while its copy is in flight", "after",
                "pending events", "free blocks");
        HostBlock b = sim.pin(mib(4));
        sim.kernel("long kernel", 5_000_000);
        sim.copyToDevice(sim.cuda(mib(4)), b);
        sim.del(b);
        t.row("=free while the copy waits behind a kernel", a.pendingEvents(), free(a));
        a.processEvents();
        t.row("=processEvents() before the copy ran", a.pendingEvents(), free(a));
        sim.synchronize();
        a.processEvents();
        t.row("=synchronize(), then processEvents()", a.pendingEvents(), free(a));
        return t.then("A freed block with a recorded event becomes free only once the event has completed; "
                + "events are checked oldest first, and checking stops at the first one still pending.").toString();
    }

    /** Step 7.4: what empty_host_cache gives back. */
    public static String example7_4() {
        PinnedSim sim = new PinnedSim();
        HostBlock keep = sim.pin(mib(8));
        HostBlock a = sim.pin(mib(16));
        HostBlock b = sim.pin(mib(2));
        sim.del(a);
        sim.del(b);
        ExampleTable t = ExampleTable.of("7.4", "empty_host_cache with one block still in use", "moment",
                "owned", "checked out", "cudaFreeHost calls");
        t.row("=before: 8 MiB in use, 16 MiB and 2 MiB freed", readable(sim.hostMemoryStats().allocatedBytes()),
                readable(sim.hostMemoryStats().activeBytes()), sim.hostMemoryStats().numHostFree());
        long freed = sim.emptyHostCache();
        t.row("=after emptyCache(), which returned " + readable(freed),
                readable(sim.hostMemoryStats().allocatedBytes()), readable(sim.hostMemoryStats().activeBytes()),
                sim.hostMemoryStats().numHostFree());
        sim.del(keep);
        return t.then("Only blocks on a free list go back (cudaFreeHost); the 8 MiB block in use stays "
                + "pinned.").toString();
    }

    private static long free(CachingHostAllocator a) {
        return a.freeLists().values().stream().mapToLong(java.util.List::size).sum();
    }
}
