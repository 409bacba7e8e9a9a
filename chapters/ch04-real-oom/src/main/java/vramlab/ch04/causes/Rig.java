package vramlab.ch04.causes;

import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;

import vramlab.alloc.Block;
import vramlab.alloc.CachingAllocator;
import vramlab.alloc.CudaOutOfMemoryError;
import vramlab.alloc.Policy;
import vramlab.alloc.PyTorchOomMessage;
import vramlab.driver.Gpu;
import vramlab.driver.GpuProcess;
import vramlab.triage.Cause;
import vramlab.units.Bytes;

/**
 * The stage every scenario runs on: one GPU with a driver reserve, our training process with
 * its context, PyTorch's caching allocator in it, and optionally a second allocator standing
 * in for a CUDA graph's private pool. Every call checks the allocators' and the GPU's
 * invariants.
 */
final class Rig {
    static final int PID = 31415;

    final Gpu gpu;
    final GpuProcess self;
    final CachingAllocator torch;
    CachingAllocator graphPool;
    final List<String> story = new ArrayList<>();

    /** A rig whose process is opened by the caller (so co-tenants can open first). */
    Rig(Gpu gpu, GpuProcess self, Policy policy) {
        this.gpu = gpu;
        this.self = self;
        this.torch = new CachingAllocator(self, policy);
    }

    static Rig card(long capacity, long driverReserve, long context, Policy policy) {
        Gpu gpu = new Gpu(0, capacity, driverReserve);
        return new Rig(gpu, gpu.open(PID, "python train.py", context), policy);
    }

    Block alloc(CachingAllocator a, long size) {
        try {
            return a.alloc(size);
        } finally {
            check();
        }
    }

    void free(CachingAllocator a, Block b) {
        a.free(b);
        check();
    }

    void check() {
        torch.checkInvariants();
        if (graphPool != null) graphPool.checkInvariants();
        gpu.checkInvariants();
    }

    /**
     * Allocates sizes from {@code sizes} into {@code live} until one fails, and returns that
     * failure. Bounded, so a scenario that cannot fail says so instead of looping.
     */
    CudaOutOfMemoryError fill(CachingAllocator a, LongSupplier sizes, List<Block> live) {
        for (int i = 0; i < 1_000_000; i++) {
            try {
                live.add(alloc(a, sizes.getAsLong()));
            } catch (CudaOutOfMemoryError e) {
                return e;
            }
        }
        throw new IllegalStateException("fill: no OOM after a million allocations");
    }

    void say(String line) { story.add(line); }

    static String size(long bytes) { return Bytes.formatSize(bytes); }

    /**
     * The facts PyTorch's message reports, read from the simulator now. The total and free are
     * {@code cudaMemGetInfo}'s (CUDACachingAllocator.cpp's OOM path), so the total already
     * leaves out the driver's reserve; the process lines are NVML's per-process usage.
     */
    PyTorchOomMessage.Facts facts(long tried) {
        List<PyTorchOomMessage.ProcessUsage> ps = new ArrayList<>();
        for (GpuProcess p : gpu.processes()) {
            ps.add(new PyTorchOomMessage.ProcessUsage(p.pid(), p.physicalBytes(), p == self));
        }
        long allocated = torch.allocated(), reserved = torch.reserved(), privatePools = 0;
        if (graphPool != null) {
            allocated += graphPool.allocated();
            reserved += graphPool.reserved();
            privatePools = graphPool.freeBytes();     // cached free blocks of the private pool
        }
        var info = self.cudaMemGetInfo();
        return new PyTorchOomMessage.Facts(tried, gpu.id(), info.total(), info.free(),
                ps, -1, allocated, privatePools, reserved);
    }

    Outcome outcome(String name, Cause cause, CudaOutOfMemoryError e, List<String> context) {
        // PyTorch would free wholly free cached segments and retry before raising; the kit's
        // allocator does not, so a scenario must fail where no such segment is left.
        for (var s : torch.segments()) {
            if (s.isEntirelyFree()) {
                throw new IllegalStateException(name + ": segment " + s.id() + " is wholly free "
                        + "at the OOM; PyTorch would have released it and retried");
            }
        }
        PyTorchOomMessage.Facts f = facts(e.report().tried());   // the would-be segment
        say("OOM: tried " + size(f.tried()) + " with " + size(f.free()) + " free on the device;"
                + " PyTorch reserved " + size(f.reserved()) + ", allocated "
                + size(f.allocated()) + ".");
        return new Outcome(name, cause, f, PyTorchOomMessage.format(f), context, story);
    }
}
