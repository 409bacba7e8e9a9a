package vramlab.driver;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import vramlab.units.Bytes;

/**
 * One GPU: its physical memory, owned by the driver and shared by every process on it.
 *
 * <p>Invariant: {@code driverReserve + sum(process.physicalBytes()) == capacity - free()}, and
 * {@code free() >= 0}. The reserve (ECC, display, driver structures) is gone before the first
 * process opens; each process's context is taken when it opens.
 */
public final class Gpu {
    /** cudaMalloc's physical granularity on Ampere/Hopper with CUDA 12.x: 2 MiB pages. */
    public static final long PAGE = 2 * Bytes.MiB;

    private final int id;
    private final long capacity;
    private final long driverReserve;
    private long taken;
    private final List<GpuProcess> processes = new ArrayList<>();

    /** A toy GPU: device 0 with {@code capacity} bytes, no driver reserve. */
    public Gpu(long capacity) { this(0, capacity, 0); }

    public Gpu(int id, long capacity, long driverReserve) {
        if (capacity <= 0) throw new IllegalArgumentException("Gpu: capacity must be positive, was " + capacity);
        if (driverReserve < 0 || driverReserve > capacity) {
            throw new IllegalArgumentException("Gpu: driver reserve " + driverReserve
                    + " must be between 0 and the capacity " + capacity);
        }
        this.id = id;
        this.capacity = capacity;
        this.driverReserve = driverReserve;
    }

    public int id() { return id; }

    /** Total memory, what {@code cudaMemGetInfo} reports as total. */
    public long capacity() { return capacity; }

    public long driverReserve() { return driverReserve; }

    /** Memory no process holds and the driver has not reserved: {@code cudaMemGetInfo}'s free. */
    public long free() { return capacity - driverReserve - taken; }

    /** Opens a process on this GPU, taking its context's memory first (CUDA creates it eagerly). */
    public GpuProcess open(int pid, String name, long contextBytes) {
        GpuProcess p = new GpuProcess(this, pid, name);
        if (contextBytes > 0) {
            take(contextBytes, "context of process " + pid);
            p.contextBytes = contextBytes;
        }
        processes.add(p);
        return p;
    }

    /** A process with no context: what the toy of the seed chapter runs on. */
    public GpuProcess openToyProcess() { return open(1, "toy", 0); }

    public List<GpuProcess> processes() { return Collections.unmodifiableList(processes); }

    /** Closes a process: its mappings and context go back to the free pool. */
    public void close(GpuProcess p) {
        if (!processes.remove(p)) throw new IllegalArgumentException("close: process " + p.pid() + " is not open");
        give(p.physicalBytes());
        p.closed = true;
    }

    void take(long bytes, String what) {
        if (bytes > free()) {
            throw new CudaException(CudaError.cudaErrorMemoryAllocation, what + " needs "
                    + bytes + " bytes but GPU " + id + " has " + free() + " free");
        }
        taken += bytes;
    }

    void give(long bytes) {
        taken -= bytes;
        if (taken < 0) throw new IllegalStateException("Gpu " + id + ": gave back more than was taken");
    }

    public void checkInvariants() {
        long sum = 0;
        for (GpuProcess p : processes) sum += p.physicalBytes();
        if (sum != taken || free() < 0) {
            throw new IllegalStateException("Gpu " + id + ": processes hold " + sum
                    + " bytes but the pool says " + taken + " are taken; free=" + free());
        }
    }
}
