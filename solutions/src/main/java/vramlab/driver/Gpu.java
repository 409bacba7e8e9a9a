package vramlab.driver;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import vramlab.gmmu.LocalPtes;
import vramlab.gmmu.MmuFormat;
import vramlab.gmmu.PhysicalPool;
import vramlab.gmmu.Pte;
import vramlab.units.Bytes;

/**
 * One GPU: its physical memory, owned by the driver and shared by every process on it.
 *
 * <p>The memory is a {@link PhysicalPool}: the driver reserve (ECC, display, driver structures)
 * is taken from it at boot, each process's context when the process opens, and every cudaMalloc
 * or cuMemCreate takes 2 MiB chunks. Each process maps its chunks through its own page tables.
 *
 * <p>Three totals, as NVIDIA's interfaces report them:
 * <ul>
 *   <li>{@link #capacity()}: the board's memory, NVML's {@code total} ("Total physical device
 *       memory", {@code nvmlMemory_v2_t}) and nvidia-smi's {@code memory.total};
 *   <li>{@link #driverReserve()}: NVML's {@code reserved} ("reserved for system use (driver or
 *       firmware)") and nvidia-smi's {@code memory.reserved};
 *   <li>{@link #totalMemory()}: the capacity less the reserve, what {@code cuDeviceTotalMem},
 *       {@code cudaDeviceProp.totalGlobalMem} and {@code cudaMemGetInfo}'s {@code total}
 *       report. That CUDA's total leaves out the reserve is observed, not documented: a 96 GiB
 *       card shows 95.59 GiB in NVML and 94.97 GiB in {@code cuDeviceTotalMem}
 *       (ollama/ollama PR #18201). The kit uses one figure, the reserve, for both gaps.
 * </ul>
 *
 * <p>Invariants ({@link #checkInvariants()}): {@code driverReserve + sum(process.physicalBytes())
 * == capacity - free()} and {@code free() >= 0}; every chunk in the pool belongs to the reserve,
 * to one process's context, or to exactly one of a process's allocations or handles; every
 * process's address space holds (see {@link GpuProcess#checkInvariants()}).
 */
public final class Gpu {
    /** cudaMalloc's physical granularity on Ampere/Hopper with CUDA 12.x: 2 MiB pages. */
    public static final long PAGE = 2 * Bytes.MiB;

    /** The owner of the reserve's chunk in the pool. */
    static final String DRIVER_RESERVE = "driver reserve";

    private final int id;
    private final long capacity;
    private final long driverReserve;
    private final MmuFormat format;
    private final PhysicalPool pool;
    private final LocalPtes ptes;                                           // 2M PTEs, one per page
    private long taken;
    private final List<GpuProcess> processes = new ArrayList<>();
    private final List<GpuProcess> processesView = Collections.unmodifiableList(processes);
    private final Map<Integer, Integer> peerSlots = new LinkedHashMap<>();   // peer GPU id -> slot
    private final Map<Integer, PeerLink> links = new LinkedHashMap<>();      // peer GPU id -> link
    private final FrameArrays frameArrays = new FrameArrays();              // takePages' arrays, reused

    /** A toy GPU: device 0 with {@code capacity} bytes, no driver reserve. */
    public Gpu(long capacity) { this(0, capacity, 0); }

    public Gpu(int id, long capacity, long driverReserve) {
        this(id, capacity, driverReserve, MmuFormat.VER2);
    }

    /** A GPU whose processes get page tables in {@code format} (VER2, or Hopper's VER3). */
    public Gpu(int id, long capacity, long driverReserve, MmuFormat format) {
        if (capacity <= 0) throw new IllegalArgumentException("Gpu: capacity must be positive, was " + capacity);
        if (driverReserve < 0 || driverReserve > capacity) {
            throw new IllegalArgumentException("Gpu: driver reserve " + driverReserve
                    + " must be between 0 and the capacity " + capacity);
        }
        this.id = id;
        this.capacity = capacity;
        this.driverReserve = driverReserve;
        this.format = format;
        this.pool = new PhysicalPool(id, capacity);
        this.ptes = new LocalPtes(id, capacity);
        if (driverReserve > 0 && grab(driverReserve, DRIVER_RESERVE) < 0) {
            throw new IllegalArgumentException("Gpu: the driver reserve does not fit in whole frames");
        }
    }

    /** {@code count} identical GPUs, ids 0..count-1, as one machine's devices. */
    public static List<Gpu> machine(int count, long capacity, long driverReserve) {
        List<Gpu> gpus = new ArrayList<>();
        for (int i = 0; i < count; i++) gpus.add(new Gpu(i, capacity, driverReserve));
        return List.copyOf(gpus);
    }

    public int id() { return id; }

    /** The board's memory: NVML's and nvidia-smi's total. */
    public long capacity() { return capacity; }

    /** Memory the driver and firmware keep from boot: NVML's {@code reserved}. */
    public long driverReserve() { return driverReserve; }

    /**
     * What CUDA calls the device's total ({@code cuDeviceTotalMem}, {@code cudaMemGetInfo}'s
     * {@code total}, the "total capacity" of PyTorch's OOM message): the capacity less the
     * driver reserve.
     */
    public long totalMemory() { return capacity - driverReserve; }

    public MmuFormat format() { return format; }

    /** The driver's physical pool: who owns which frames. */
    public PhysicalPool pool() { return pool; }

    /** The 2M PTEs of this GPU's pages that its processes' page tables share (see {@link LocalPtes}). */
    LocalPtes ptes() { return ptes; }

    /** Memory no process holds and the driver has not reserved: {@code cudaMemGetInfo}'s free. */
    public long free() { return capacity - driverReserve - taken; }

    /** Page-table memory of every process on this GPU (counted, not charged: see the notes). */
    public long pageTableBytes() {
        long sum = 0;
        for (GpuProcess p : processes) sum += p.addressSpace().pageTableBytes();
        return sum;
    }

    /** Opens a process on this GPU, taking its context's memory first (CUDA creates it eagerly). */
    public GpuProcess open(int pid, String name, long contextBytes) {
        GpuProcess p = new GpuProcess(this, pid, name);
        if (contextBytes > 0) {
            if (contextBytes > free()) throw overBudget("context of process " + pid, contextBytes);
            taken += contextBytes;
            long chunk = grab(contextBytes, p);
            if (chunk < 0) {
                give(contextBytes);
                throw new CudaException(CudaError.cudaErrorMemoryAllocation, "context of process "
                        + pid + ": no run of " + contextBytes + " bytes is free on GPU " + id);
            }
            p.contextBytes = contextBytes;
            p.contextChunk = chunk;
        }
        processes.add(p);
        return p;
    }

    /** A process with no context: what the toy policy's chapters run on. */
    public GpuProcess openToyProcess() { return open(1, "toy", 0); }

    /** The open processes: a read-only view, made once (an OOM message asks on every refusal). */
    public List<GpuProcess> processes() { return processesView; }

    /** Closes a process: its mappings and context go back to the free pool. */
    public void close(GpuProcess p) {
        if (!processes.contains(p)) throw new IllegalArgumentException("close: process " + p.pid() + " is not open");
        p.teardown();
        processes.remove(p);
        give(p.contextBytes);
        p.closed = true;
    }

    /**
     * Declares how {@code a} and {@code b} reach each other's memory (both ways). Without a
     * declaration two GPUs are peers over PCIe through the PEER aperture.
     */
    public static void link(Gpu a, Gpu b, PeerLink link) {
        if (a == b) throw new IllegalArgumentException("link: GPU " + a.id + " with itself");
        a.links.put(b.id, link);
        b.links.put(a.id, link);
    }

    /** How this GPU reaches {@code peer}'s memory. */
    public PeerLink linkTo(Gpu peer) { return links.getOrDefault(peer.id, PeerLink.PCIE); }

    /** The PTE peer slot (0-7) through which this GPU reaches {@code peer}'s memory. */
    int peerSlot(Gpu peer) {
        Integer slot = peerSlots.get(peer.id());
        if (slot != null) return slot;
        if (peerSlots.size() == Pte.MAX_PEERS) {
            throw new CudaException(CudaError.cudaErrorTooManyPeers, "GPU " + id + " already has "
                    + Pte.MAX_PEERS + " peers");
        }
        peerSlots.put(peer.id(), peerSlots.size());
        return peerSlots.size() - 1;
    }

    /**
     * Takes {@code bytes} of the budget for the driver call {@code call(arg)}, which the error
     * names (put together only then, not on every call).
     */
    void take(long bytes, String call, long arg) {
        if (bytes > free()) throw overBudget(call + "(" + arg + ")", bytes);
        taken += bytes;
    }

    private CudaException overBudget(String what, long bytes) {
        return new CudaException(CudaError.cudaErrorMemoryAllocation, overBudgetDetail(what, bytes));
    }

    /** What the refusal of {@code bytes} for {@code what} says after its error code. */
    String overBudgetDetail(String what, long bytes) { return overBudgetDetail(what, bytes, free()); }

    /** The same, with the free bytes as they were at the refusal (for a message written later). */
    String overBudgetDetail(String what, long bytes, long free) {
        return what + " needs " + bytes + " bytes but GPU " + id + " has " + free + " free";
    }

    void give(long bytes) {
        taken -= bytes;
        if (taken < 0) throw new IllegalStateException("Gpu " + id + ": gave back more than was taken");
    }

    /**
     * Takes {@code bytes} (a multiple of {@link #PAGE}) as 2 MiB-aligned chunks for {@code owner},
     * in the driver call {@code call(arg)} that an error names.
     *
     * @return the chunks' physical addresses, in an array that may be one {@link #givePages} had
     *     back (every element written)
     * @throws CudaException cudaErrorMemoryAllocation when the budget or the frames run out
     */
    long[] takePages(long bytes, Object owner, String call, long arg) {
        take(bytes, call, arg);
        long[] chunks = frameArrays.take((int) (bytes / PAGE));
        int got = pool.allocatePages(chunks, owner);        // each the lowest free 2 MiB run
        if (got < chunks.length) {
            pool.releasePages(Arrays.copyOf(chunks, got));
            frameArrays.give(chunks);
            give(bytes);
            throw new CudaException(CudaError.cudaErrorMemoryAllocation, call + "(" + arg + ")"
                    + ": no free 2 MiB frame run is left on GPU " + id);
        }
        return chunks;
    }

    /**
     * Gives back chunks that {@link #takePages} handed out. The array comes back too: the caller
     * must drop it, since a later {@code takePages} may hand it out again.
     */
    void givePages(long[] chunks) {
        pool.releasePages(chunks);
        give(chunks.length * PAGE);
        frameArrays.give(chunks);
    }

    /** One chunk of whole 64 KiB frames for the reserve or a context; -1 when none fits. */
    private long grab(long bytes, Object owner) {
        long frames = Math.min(Bytes.alignUp(bytes, PhysicalPool.FRAME),
                capacity / PhysicalPool.FRAME * PhysicalPool.FRAME);
        return pool.allocate(frames, PhysicalPool.FRAME, owner);
    }

    public void checkInvariants() {
        long sum = 0;
        for (GpuProcess p : processes) sum += p.physicalBytes();
        if (sum != taken || free() < 0) {
            throw new IllegalStateException("Gpu " + id + ": processes hold " + sum
                    + " bytes but the pool says " + taken + " are taken; free=" + free());
        }
        pool.checkInvariants();
        int owned = driverReserve > 0 ? 1 : 0;
        for (GpuProcess p : processes) owned += p.checkInvariants();
        if (owned != pool.chunkCount()) {
            throw new IllegalStateException("Gpu " + id + ": the pool has " + pool.chunkCount()
                    + " chunks but the reserve and processes own " + owned);
        }
    }

    @Override public String toString() {
        return "GPU " + id + " (" + Bytes.formatSize(capacity) + ", " + processes.size()
                + (processes.size() == 1 ? " process, " : " processes, ")
                + Bytes.formatSize(free()) + " free)";
    }
}
