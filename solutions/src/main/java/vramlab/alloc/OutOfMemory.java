package vramlab.alloc;

import java.util.List;
import java.util.function.Function;

import vramlab.alloc.DeviceTrace.Action;
import vramlab.driver.GpuProcess;

/**
 * How the allocator's out-of-memory error is made, where PyTorch makes it
 * (c10/cuda/CUDACachingAllocator.cpp, 2024 main): at the front door for 1 EiB and more
 * ({@code NativeCachingAllocator::allocate}, CCA:3412-3417), and at the end of {@code malloc}
 * when every recovery has failed (CCA:1258-1377: the trace's OOM entry, {@code num_ooms}, the
 * state the message reports, and NVML's process list at 984-1039). The policy writes the text.
 */
final class OutOfMemory {
    /**
     * {@code NativeCachingAllocator::allocate}'s front door (CCA:3412-3417): a request of 1 EiB
     * ({@code one_exa_bytes}, 2^60) or more is an OOM before the allocator looks at it.
     */
    static final long ONE_EXA_BYTES = 1L << 60;

    private final CachingAllocator allocator;
    private boolean expected;
    /** The policy writes each error's message from its report, when first read (one writer for all). */
    private final Function<OomReport, String> writer;
    /** The latest report's process list, given to the next report if no process's figures moved. */
    private List<PyTorchOomMessage.ProcessUsage> lastProcesses = List.of();

    OutOfMemory(CachingAllocator allocator) {
        this.allocator = allocator;
        this.writer = report -> allocator.policy().oomMessage(report);
    }

    /** The front door's error: PyTorch refuses 1 EiB and more before it looks at the cache. */
    CudaOutOfMemoryError overOneExaByte(long size) {
        GpuProcess process = allocator.process();
        return new CudaOutOfMemoryError("CUDA out of memory. Tried to allocate more than 1EB memory.",
                new OomReport(size, size, size, PoolKind.LARGE, process.gpu().capacity(),
                        process.memFree(), allocator.allocated(), allocator.reserved(),
                        allocator.largestFreeBlock()));
    }

    /**
     * The caller counts OOMs as results and does not ask where each was thrown (a replay):
     * the errors skip filling in their stack trace.
     */
    void expect(boolean expected) { this.expected = expected; }

    /**
     * {@code malloc}'s error after the recovery failed: counted, traced, and reported. The
     * report is the state now; the policy writes the message from it when it is first read.
     */
    CudaOutOfMemoryError afterRecovery(PoolKind kind, int stream, long rounded, long allocSize, long size) {
        GpuProcess process = allocator.process();
        long free = process.memFree();        // cudaMemGetInfo's figures, with no MemInfo per OOM
        allocator.trace().add(Action.OOM, free, rounded, stream);
        allocator.memoryStats().numOoms++;
        OomReport report = new OomReport(size, rounded, allocSize, kind, process.memTotal(),
                free, allocator.allocated(), allocator.reserved(), allocator.largestFreeBlock(),
                process.gpu().id(), processes(process), allocator.allowedMemory(), 0);
        return new CudaOutOfMemoryError(report, writer, !expected);
    }

    /**
     * NVML's process list now (CCA:984-1039): each process on the device and its memory. A
     * replay that OOMs every dozen events on a full card sees the same figures OOM after OOM,
     * so the previous report's (immutable) list is reused when every entry is unchanged,
     * rather than a new list per error.
     */
    private List<PyTorchOomMessage.ProcessUsage> processes(GpuProcess process) {
        List<GpuProcess> now = process.gpu().processes();
        List<PyTorchOomMessage.ProcessUsage> last = lastProcesses;
        boolean same = last.size() == now.size();
        for (int i = 0; same && i < now.size(); i++) {
            GpuProcess p = now.get(i);
            PyTorchOomMessage.ProcessUsage u = last.get(i);
            same = u.pid() == p.pid() && u.bytes() == p.physicalBytes() && u.isThisProcess() == (p == process);
        }
        if (same) return last;
        PyTorchOomMessage.ProcessUsage[] usages = new PyTorchOomMessage.ProcessUsage[now.size()];
        for (int i = 0; i < usages.length; i++) {
            GpuProcess p = now.get(i);
            usages[i] = new PyTorchOomMessage.ProcessUsage(p.pid(), p.physicalBytes(), p == process);
        }
        return lastProcesses = List.of(usages);
    }
}
