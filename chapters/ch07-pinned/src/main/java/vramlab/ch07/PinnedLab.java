package vramlab.ch07;

import static vramlab.units.Bytes.formatSize;
import static vramlab.units.Bytes.kib;
import static vramlab.units.Bytes.mib;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

import vramlab.driver.Clock;
import vramlab.driver.CudaGraph;
import vramlab.driver.DeviceBuffer;
import vramlab.driver.HostBuffer;
import vramlab.kit.Scenario;
import vramlab.pinned.HostBlock;
import vramlab.pinned.HostStats;
import vramlab.pinned.PinnedSim;

/**
 * The pinned-memory lab: the host_memory_stats walkthrough, the use-after-free that
 * events prevent, a graph's stable staging buffer, cudaHostRegister against rounding, and the
 * training-loop cost comparison. Every number printed comes from the simulator.
 *
 * <p>Run it three ways: {@code ./vramlab lab pinned}, this class's {@code main}, or step by
 * step in {@code ./vramlab jshell pinned}.
 */
public final class PinnedLab {
    private PinnedLab() {}

    public static void main(String[] args) { run(System.out); }

    public static void run(PrintStream out) { Scenario.runAll(out, scenarios()); }

    /** The lab's scenarios, in the notes' order; each runs on its own (see {@link Scenario}). */
    public static List<Scenario> scenarios() {
        return List.of(
                new Scenario("host_memory_stats: deleting a pinned tensor does not unpin it", out -> {
                    walkthrough(out);
                    deviceEmptyCache(out);
                }),
                new Scenario("You don't own the buffer when you think you do", out -> {
                    out.println("events on:  device received batches " + useAfterFree(true));
                    out.println("events off: device received batches " + useAfterFree(false));
                }),
                new Scenario("A CUDA graph bakes in its host address", PinnedLab::graphs),
                new Scenario("100 GB: the caching allocator vs cudaHostRegister", PinnedLab::register),
                new Scenario("Training loop: allocate once and hold vs free every step", out -> {
                    TrainingLoop.Result hold = TrainingLoop.run(TrainingLoop.Strategy.HOLD, 10);
                    TrainingLoop.Result free = TrainingLoop.run(TrainingLoop.Strategy.FREE_EVERY_STEP, 10);
                    out.println(hold.line());
                    out.println(free.line());
                    out.print(whatToNotice(hold, free));
                }));
    }

    /** The loop's figures explained, from the two results and the cost model. */
    public static String whatToNotice(TrainingLoop.Result hold, TrainingLoop.Result free) {
        var cost = vramlab.driver.HostCostModel.DEFAULT;
        return String.format("""
                What to notice:
                  1. Freeing every step costs %s more per step: one cudaHostAlloc (%s) and one
                     cudaFreeHost (%s) of %s, each blocking the host while the GPU idles.
                  2. It saves nothing at the peak (%d MiB pinned either way); it only empties the
                     gaps between steps, which nothing else was going to use.
                  3. Holding pays the pin once, in step 0. The costs are order-of-magnitude
                     figures from HostCostModel, not measurements.
                """, Clock.ms(free.steadyStepNanos() - hold.steadyStepNanos()),
                Clock.ms(cost.pinNanos(TrainingLoop.BATCH)), Clock.ms(cost.unpinNanos(TrainingLoop.BATCH)),
                formatSize(TrainingLoop.BATCH), hold.peakPinned() / mib(1));
    }

    // tag::walkthrough[]
    /** The walkthrough: pin 256 MiB, del it, synchronize, empty the host cache. */
    public static List<HostStats> walkthrough(PrintStream out) {
        PinnedSim sim = new PinnedSim();
        List<HostStats> seen = new ArrayList<>();
        HostBlock t = sim.pin(mib(256));
        out.println(sim.report("after alloc"));
        seen.add(sim.hostMemoryStats());
        sim.del(t);
        sim.synchronize();
        out.println(sim.report("after del"));          // checked_out -> 0, owned stays
        seen.add(sim.hostMemoryStats());
        sim.emptyHostCache();
        out.println(sim.report("after empty_cache"));  // owned drops, one more cudaFreeHost
        seen.add(sim.hostMemoryStats());
        return seen;
    }
    // end::walkthrough[]

    // tag::device-empty-cache[]
    /** torch.cuda.empty_cache() releases cached DEVICE memory; the pinned pool is untouched. */
    public static long[] deviceEmptyCache(PrintStream out) {
        PinnedSim sim = new PinnedSim();
        sim.del(sim.pin(mib(256)));
        sim.device().free(sim.device().alloc(mib(64)));
        long released = sim.cudaEmptyCache();
        out.println("torch.cuda.empty_cache() released " + formatSize(released)
                + " of device memory;");
        out.println(sim.report("after cuda empty"));
        return new long[] {released, sim.hostMemoryStats().allocatedBytes()};
    }
    // end::device-empty-cache[]

    // tag::use-after-free[]
    /**
     * Four steps, each filling a fresh pinned batch with its step number, copying it without
     * blocking to its own device slot, then dropping it, while the GPU is still busy with the
     * previous step. Returns what each slot received once the GPU caught up.
     */
    public static List<Long> useAfterFree(boolean eventsOn) {
        PinnedSim sim = new PinnedSim();
        sim.allocator().setEventsEnabled(eventsOn);       // the lab's switch, not PyTorch's
        sim.kernel("previous step", 20_000_000);          // the copies queue behind 20 ms
        List<DeviceBuffer> slots = new ArrayList<>();
        for (long step = 0; step < 4; step++) {
            HostBlock batch = sim.pin(mib(1));
            batch.store(step);                             // the host writes batch `step`
            DeviceBuffer slot = sim.cuda(mib(1));
            sim.copyToDevice(slot, batch);                 // returns at once
            slots.add(slot);
            sim.del(batch);                                // last reference dropped
        }
        sim.synchronize();
        return slots.stream().map(DeviceBuffer::contents).toList();
    }
    // end::use-after-free[]

    // tag::graphs[]
    /** Captures a D2H copy into a pinned staging buffer, deletes it, replays three times. */
    public static List<Long> graphs(PrintStream out) {
        PinnedSim sim = new PinnedSim();
        DeviceBuffer loss = sim.cuda(kib(4));
        HostBlock[] staging = new HostBlock[1];
        CudaGraph g = sim.capture(() -> {
            staging[0] = sim.pin(kib(4));
            sim.copyToHost(staging[0], loss);
        });
        sim.del(staging[0]);                               // the graph still writes there
        List<Long> addresses = new ArrayList<>();
        for (long step = 1; step <= 3; step++) {
            loss.store(step);
            sim.replay(g);
            HostBlock other = sim.pin(kib(4));             // must never get the staging block
            sim.synchronize();
            out.printf("replay %d: wrote loss %d at 0x%x; a new 4 KiB request got 0x%x\n",
                    step, staging[0].contents(), staging[0].address(), other.address());
            addresses.add(staging[0].address());
            sim.del(other);
        }
        sim.emptyHostCache();
        out.println("after empty_host_cache the staging block is still owned: "
                + sim.allocator().blocks().contains(staging[0]));
        return addresses;
    }
    // end::graphs[]

    // tag::register[]
    /** 100 GB through pin_memory=True, and through cudaHostRegister as vLLM does. */
    public static long[] register(PrintStream out) {
        long want = 100_000_000_000L;
        PinnedSim cached = new PinnedSim();
        cached.pin(want);
        PinnedSim registered = new PinnedSim();
        HostBuffer kv = registered.pinTensor(want);
        out.println("pin_memory=True:  pinned " + formatSize(cached.host().pinnedBytes()));
        out.println("cudaHostRegister: pinned " + registered.host().pinnedBytes() + " B = "
                + formatSize(registered.host().pinnedBytes()) + " (exact), invisible to host_memory_stats: "
                + formatSize(registered.hostMemoryStats().allocatedBytes()));
        registered.unpinTensor(kv);
        return new long[] {cached.host().pinnedBytes(), want};
    }
    // end::register[]

    /** What a student can try in JShell. */
    public static String help() {
        return """
                Pinned-memory lab: PyTorch's caching host allocator on a simulated clock. Try:
                  var sim = new PinnedSim();               one process, stream 0, default options
                  var t = sim.pin(mib(256));               torch.empty(..., pin_memory=True)
                  sim.report("after alloc")                owned, checked out, cudaFreeHost calls
                  sim.del(t); sim.synchronize();           del t; torch.cuda.synchronize()
                  readable(sim.emptyHostCache())           torch.accelerator.empty_host_cache()
                  readable(sim.cudaEmptyCache())           torch.cuda.empty_cache(): device memory only
                  var d = sim.cuda(mib(1)); var b = sim.pin(mib(1)); sim.kernel("busy", 20_000_000);
                  sim.copyToDevice(d, b); sim.del(b); sim  the block waits for its copy's event
                  new PinnedSim("pinned_max_cached_size_mb:512")   options, as PYTORCH_ALLOC_CONF
                  PinnedLab.useAfterFree(false)            the corruption, with events off
                  TrainingLoop.run(TrainingLoop.Strategy.FREE_EVERY_STEP, 10).line()
                  PinnedLab.run(System.out)                the whole lab, as ./vramlab lab pinned prints it
                  Ch07Outputs.outputHeadOfLine()           one of the notes' misconceptions, refuted
                Your steps (labs/src/main/java/vramlab/pinned/CachingHostAllocator.java):
                  7.1 Round to a power of two             roundSize
                  7.2 Never recycle a captured block      fateOf
                  7.3 Reuse only when the events retired  processEvents
                  7.4 empty_host_cache                    emptyCache
                Check one step: ./vramlab check 7.1   the chapter: ./vramlab check 7
                Quiz (outside JShell): ./vramlab quiz 7   your answers: ./vramlab quiz 7 --check labs/answers/ch07.txt
                Homework (outside JShell): ./vramlab exercise pinned [N] [--seed S] [--answer]
                """;
    }

    /** Milliseconds, for JShell. */
    public static String ms(long nanos) { return Clock.ms(nanos); }
}
