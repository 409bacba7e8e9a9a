package vramlab.driver;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import vramlab.gmmu.Access;
import vramlab.gmmu.AddressSpace;
import vramlab.gmmu.PageSize;
import vramlab.gmmu.PhysicalPool;
import vramlab.gmmu.Pte;
import vramlab.gmmu.Tlb;
import vramlab.gmmu.Translation;
import vramlab.gmmu.Walk;
import vramlab.units.Bytes;

/**
 * One process's context on a GPU: its own virtual address space (page tables in NVIDIA's
 * layout), its context memory, and the driver calls it makes. {@code cudaMalloc} takes 2 MiB
 * frames from the GPU's pool and maps them with 2 MiB PTEs; the VMM calls ({@code cuMem*}) do the
 * same steps one at a time, with the real API's rules.
 *
 * <p>Simplification: VA is handed out by a bump pointer that is never reused, which is safe
 * because a 49-bit space is never the scarce side. Each device's contexts start 1 TiB apart so
 * the contexts of one process on several GPUs never share a VA (as CUDA's unified addressing
 * promises).
 */
public final class GpuProcess {
    /** Where this process's device allocations start (a typical CUDA VA on x86-64 Linux). */
    public static final long VA_BASE = 0x7f0a00000000L;

    /** TLB entries per context. Illustrative: GPU TLB sizes are not documented. */
    static final int TLB_ENTRIES = 64;

    /** A cudaMalloc: its VA, its size after rounding, and the frames behind it. */
    static final class Allocation {
        final long va;
        final long size;
        long[] chunks;

        Allocation(long va, long size) {
            this.va = va;
            this.size = size;
        }
    }

    /** Physical memory from cuMemCreate; freed when released and no longer mapped. */
    static final class Handle {
        final long id;
        final long size;
        long[] chunks;
        int maps;
        boolean released;

        Handle(long id, long size) {
            this.id = id;
            this.size = size;
        }
    }

    /** One cuMemMap: a whole handle at {@code va}. */
    record Mapping(long va, long size, long handle) {
        long end() { return va + size; }
    }

    private final Gpu gpu;
    private final int pid;
    private final String name;
    long contextBytes;
    long contextChunk = -1;
    boolean closed;
    private final AddressSpace space;
    private long nextVa;
    private long mappedBytes;
    private long handlesBytes;
    private long nextHandle = 1;
    private final Map<DriverCall, long[]> calls = new EnumMap<>(DriverCall.class); // {count, pages}
    private final TreeMap<Long, Allocation> mallocs = new TreeMap<>();
    private final TreeMap<Long, Long> reservations = new TreeMap<>();           // va -> size
    private final Map<Long, Handle> handles = new HashMap<>();                  // live memory
    private final TreeMap<Long, Mapping> mappings = new TreeMap<>();
    private final Map<Integer, GpuProcess> peers = new LinkedHashMap<>();      // GPU id -> context
    private final List<GpuProcess> mirrors = new ArrayList<>();               // who maps my mallocs

    GpuProcess(Gpu gpu, int pid, String name) {
        this.gpu = gpu;
        this.pid = pid;
        this.name = name;
        this.space = new AddressSpace(gpu.format(), new Tlb(TLB_ENTRIES));
        this.nextVa = VA_BASE + ((long) gpu.id() << 40);
    }

    public Gpu gpu() { return gpu; }
    public int pid() { return pid; }
    public String name() { return name; }
    public long contextBytes() { return contextBytes; }

    /** This context's page tables on its GPU. */
    public AddressSpace addressSpace() { return space; }

    /** Bytes of device memory this process holds through cudaMalloc and cuMemCreate. */
    public long mappedBytes() { return mappedBytes + handlesBytes; }

    /** What nvidia-smi shows for this process: its allocations plus its context. */
    public long physicalBytes() { return mappedBytes + handlesBytes + contextBytes; }

    public long cudaMallocCalls() { return driverCalls(DriverCall.CUDA_MALLOC); }

    /** How many times this process made {@code call}. */
    public long driverCalls(DriverCall call) { return calls.getOrDefault(call, new long[2])[0]; }

    /** The 2 MiB pages those calls mapped or unmapped, summed. */
    public long driverPages(DriverCall call) { return calls.getOrDefault(call, new long[2])[1]; }

    /** {@code cudaMemGetInfo}: free and total bytes of the device, as every process sees them. */
    public MemInfo cudaMemGetInfo() { return new MemInfo(gpu.free(), gpu.capacity()); }

    // tag::cudaMalloc[]
    /**
     * {@code cudaMalloc}: 2 MiB frames from the driver's pool, a fresh VA range, one 2M PTE per
     * frame. The size is rounded up to whole pages: 3 MiB + 1 B maps 4 MiB.
     *
     * @return the device pointer
     * @throws CudaException {@code cudaErrorMemoryAllocation} when the pages are not there
     */
    public long cudaMalloc(long size) {
        checkOpen();
        if (size <= 0) throw new CudaException(CudaError.cudaErrorInvalidValue, "cudaMalloc(" + size + ")");
        long bytes = Bytes.alignUp(size, Gpu.PAGE);                       // the rounding tax
        long top = reserveVa(bytes, Gpu.PAGE, "cudaMalloc");            // VA first: never scarce
        Allocation a = new Allocation(top - bytes, bytes);
        a.chunks = gpu.takePages(bytes, a, "cudaMalloc(" + size + ")");   // frames: scarce
        nextVa = top;
        for (int k = 0; k < a.chunks.length; k++) {
            space.map(a.va + k * Gpu.PAGE, Pte.local(PageSize.SIZE_2M, a.chunks[k],
                    Access.READWRITE, gpu.id()));
        }
        mallocs.put(a.va, a);
        mappedBytes += bytes;
        count(DriverCall.CUDA_MALLOC, a.chunks.length);
        for (GpuProcess m : mirrors) m.mapPeer(this, a);
        return a.va;
    }
    // end::cudaMalloc[]

    /** {@code cudaFree}: unmaps the allocation that starts at {@code ptr} and returns its pages. */
    public void cudaFree(long ptr) {
        checkOpen();
        Allocation a = mallocs.remove(ptr);
        if (a == null) {
            throw new CudaException(CudaError.cudaErrorInvalidDevicePointer,
                    "cudaFree(0x" + Long.toHexString(ptr) + "): not an allocation of process " + pid);
        }
        for (GpuProcess m : mirrors) m.unmapPages(a.va, a.size);
        unmapPages(a.va, a.size);
        gpu.givePages(a.chunks);
        mappedBytes -= a.size;
        count(DriverCall.CUDA_FREE, a.chunks.length);
    }

    /** The size cudaMalloc mapped at {@code ptr}, or -1 when {@code ptr} is not an allocation. */
    public long allocationSize(long ptr) {
        Allocation a = mallocs.get(ptr);
        return a == null ? -1 : a.size;
    }

    // --- the GMMU view ---------------------------------------------------------------------

    /** What the GMMU makes of {@code va}: TLB first, then a walk. */
    public Translation translate(long va) { return space.translate(va); }

    /** The page walk for {@code va}, level by level, printable. */
    public Walk walk(long va) { return space.walk(va); }

    // --- peers -----------------------------------------------------------------------------

    // tag::peer[]
    /**
     * {@code cudaDeviceEnablePeerAccess}: from now on this context maps every cudaMalloc of
     * {@code peer} (the same process's context on another GPU) with PEER-aperture PTEs, so a
     * walk here ends in the peer's memory.
     */
    public void cudaDeviceEnablePeerAccess(GpuProcess peer) {
        checkOpen();
        if (peer.gpu == gpu || peer.pid != pid || peer.closed) {
            throw new CudaException(CudaError.cudaErrorInvalidDevice, "cudaDeviceEnablePeerAccess: GPU "
                    + peer.gpu.id() + " is not another device of process " + pid);
        }
        if (peers.containsKey(peer.gpu.id())) {
            throw new CudaException(CudaError.cudaErrorPeerAccessAlreadyEnabled,
                    "cudaDeviceEnablePeerAccess: GPU " + gpu.id() + " -> GPU " + peer.gpu.id());
        }
        gpu.peerSlot(peer.gpu);
        peers.put(peer.gpu.id(), peer);
        peer.mirrors.add(this);
        for (Allocation a : peer.mallocs.values()) mapPeer(peer, a);
    }
    // end::peer[]

    private void mapPeer(GpuProcess owner, Allocation a) {
        int slot = gpu.peerSlot(owner.gpu);
        for (int k = 0; k < a.chunks.length; k++) {
            space.map(a.va + k * Gpu.PAGE, Pte.peer(PageSize.SIZE_2M, slot, a.chunks[k],
                    Access.READWRITE, owner.gpu.id()));
        }
    }

    // --- the VMM calls ---------------------------------------------------------------------

    /** The VMM granularity {@code cuMemGetAllocationGranularity} reports: 2 MiB. */
    public long granularity() { return Gpu.PAGE; }

    /** {@code cuMemAddressReserve}: VA only, no physical memory and no page tables. */
    public long cuMemAddressReserve(long size) {
        checkOpen();
        requireGranular("cuMemAddressReserve", size);
        long va = Bytes.alignUp(nextVa, granularity());
        nextVa = reserveVa(size, granularity(), "cuMemAddressReserve");
        reservations.put(va, size);
        count(DriverCall.CU_MEM_ADDRESS_RESERVE, 0);
        return va;
    }

    /** {@code cuMemCreate}: physical memory, not yet mapped anywhere. */
    public long cuMemCreate(long size) {
        checkOpen();
        requireGranular("cuMemCreate", size);
        Handle h = new Handle(nextHandle, size);
        try {
            h.chunks = gpu.takePages(size, h, "cuMemCreate(" + size + ")");
        } catch (CudaException e) {
            throw new CudaException(CudaError.CUDA_ERROR_OUT_OF_MEMORY, e.getMessage());
        }
        nextHandle++;
        handles.put(h.id, h);
        handlesBytes += size;
        count(DriverCall.CU_MEM_CREATE, h.chunks.length);
        return h.id;
    }

    // tag::cuMemMap[]
    /**
     * {@code cuMemMap}: maps the whole of {@code handle} at {@code va}, inside a reservation.
     * The PTEs are written with no access: {@code cuMemSetAccess} must follow.
     */
    public void cuMemMap(long va, long size, long handle) {
        checkOpen();
        Handle h = handles.get(handle);
        if (h == null || h.released) {
            throw new CudaException(CudaError.CUDA_ERROR_INVALID_HANDLE, "cuMemMap: handle " + handle);
        }
        if (h.size != size) {
            throw new CudaException(CudaError.CUDA_ERROR_INVALID_VALUE,
                    "cuMemMap: size " + size + " is not the handle's size " + h.size);
        }
        if (va % granularity() != 0 || !insideReservation(va, size)) {
            throw new CudaException(CudaError.CUDA_ERROR_INVALID_VALUE, "cuMemMap(" + hex(va) + ", "
                    + size + "): not a granularity-aligned range inside a reservation");
        }
        Map.Entry<Long, Mapping> before = mappings.lowerEntry(va + size);
        if (before != null && before.getValue().end() > va) {
            throw new CudaException(CudaError.CUDA_ERROR_ALREADY_MAPPED, "cuMemMap(" + hex(va)
                    + "): overlaps the mapping at " + hex(before.getKey()));
        }
        for (int k = 0; k < h.chunks.length; k++) {
            space.map(va + k * Gpu.PAGE, Pte.local(PageSize.SIZE_2M, h.chunks[k], Access.NONE, gpu.id()));
        }
        mappings.put(va, new Mapping(va, size, handle));
        h.maps++;
        count(DriverCall.CU_MEM_MAP, h.chunks.length);
    }
    // end::cuMemMap[]

    // tag::setAccess[]
    /**
     * {@code cuMemSetAccess} for this device: the range must be fully mapped; every PTE in it
     * gets {@code access} (and becomes valid unless the access is NONE).
     */
    public void cuMemSetAccess(long va, long size, Access access) {
        checkOpen();
        throw new vramlab.lab.Todo("2.2", "Grant access to a mapped range", "ch02 \"The VMM calls\"", "labs/src/main/java/vramlab/driver/GpuProcess.java");
    }
    // end::setAccess[]

    // tag::cuMemUnmap[]
    /**
     * {@code cuMemUnmap}: the range must be made of whole earlier mappings, never a piece of
     * one. Afterwards it is a plain reservation again; a released handle's memory is freed.
     */
    public void cuMemUnmap(long va, long size) {
        checkOpen();
        List<Mapping> whole = new ArrayList<>();
        for (long at = va; at < va + size; ) {
            Mapping m = mappings.get(at);
            if (m == null || m.end() > va + size) {
                throw new CudaException(CudaError.CUDA_ERROR_INVALID_VALUE, "cuMemUnmap(" + hex(va)
                        + ", " + size + "): not whole mappings (a sub-range of a mapping cannot be unmapped)");
            }
            whole.add(m);
            at = m.end();
        }
        if (whole.isEmpty()) throw new CudaException(CudaError.CUDA_ERROR_INVALID_VALUE, "cuMemUnmap: size " + size);
        for (Mapping m : whole) {
            mappings.remove(m.va());
            unmapPages(m.va(), m.size());
            Handle h = handles.get(m.handle());
            h.maps--;
            if (h.released && h.maps == 0) freeHandle(h);
        }
        count(DriverCall.CU_MEM_UNMAP, size / Gpu.PAGE);
    }
    // end::cuMemUnmap[]

    /**
     * {@code cuMemRelease}: drops the handle. The memory goes back to the driver now if nothing
     * maps it, else at the last {@code cuMemUnmap}.
     */
    public void cuMemRelease(long handle) {
        checkOpen();
        Handle h = handles.get(handle);
        if (h == null || h.released) throw new CudaException(CudaError.CUDA_ERROR_INVALID_HANDLE, "cuMemRelease: " + handle);
        h.released = true;
        if (h.maps == 0) freeHandle(h);
        count(DriverCall.CU_MEM_RELEASE, 0);
    }

    /** {@code cuMemAddressFree}: releases a whole reservation that nothing is mapped in. */
    public void cuMemAddressFree(long va, long size) {
        checkOpen();
        Long s = reservations.get(va);
        if (s == null || s != size) {
            throw new CudaException(CudaError.CUDA_ERROR_INVALID_VALUE,
                    "cuMemAddressFree(" + hex(va) + ", " + size + "): not a reservation");
        }
        Map.Entry<Long, Mapping> live = mappings.ceilingEntry(va);
        if (live != null && live.getKey() < va + size) {
            throw new CudaException(CudaError.CUDA_ERROR_INVALID_VALUE, "cuMemAddressFree(" + hex(va)
                    + "): the mapping at " + hex(live.getKey()) + " is still live; cuMemUnmap it first");
        }
        reservations.remove(va);
        count(DriverCall.CU_MEM_ADDRESS_FREE, 0);
    }

    /** Whether {@code va} maps a page this process can use, without counting a TLB access. */
    public boolean isMapped(long va) { return space.walk(va).found(); }

    // --- bookkeeping -------------------------------------------------------------------------

    private void freeHandle(Handle h) {
        handles.remove(h.id);
        gpu.givePages(h.chunks);
        handlesBytes -= h.size;
    }

    private void unmapPages(long va, long size) {
        for (long p = va; p < va + size; p += Gpu.PAGE) space.unmap(p, PageSize.SIZE_2M);
    }

    private boolean insideReservation(long va, long size) {
        Map.Entry<Long, Long> r = reservations.floorEntry(va);
        return r != null && va + size <= r.getKey() + r.getValue();
    }

    /** Moves the bump pointer past {@code size} bytes at the next aligned VA; returns the new top. */
    private long reserveVa(long size, long alignment, String call) {
        long start = Bytes.alignUp(nextVa, alignment);
        if (start + size > gpu.format().vaLimit() || start + size < start) {
            throw new CudaException(call.startsWith("cuda") ? CudaError.cudaErrorMemoryAllocation
                    : CudaError.CUDA_ERROR_OUT_OF_MEMORY, call + "(" + size + "): the "
                    + gpu.format().vaBits() + "-bit VA space is exhausted");
        }
        return start + size;
    }

    private void count(DriverCall call, long pages) {
        long[] c = calls.computeIfAbsent(call, k -> new long[2]);
        c[0]++;
        c[1] += pages;
    }

    private void requireGranular(String call, long size) {
        if (size <= 0 || size % granularity() != 0) {
            throw new CudaException(CudaError.CUDA_ERROR_INVALID_VALUE, call + "(" + size
                    + "): size must be a positive multiple of the granularity " + granularity());
        }
    }

    private void checkOpen() {
        if (closed) throw new IllegalStateException("process " + pid + " is closed");
    }

    private static String hex(long va) { return "0x" + Long.toHexString(va); }

    /** Frees everything at exit: peers' views of my memory, my memory, my context. */
    void teardown() {
        for (GpuProcess m : new ArrayList<>(mirrors)) m.dropPeer(this);
        for (GpuProcess p : new ArrayList<>(peers.values())) dropPeer(p);
        for (Allocation a : new ArrayList<>(mallocs.values())) cudaFree(a.va);
        for (Mapping m : new ArrayList<>(mappings.values())) cuMemUnmap(m.va(), m.size());
        for (Handle h : new ArrayList<>(handles.values())) {
            if (!h.released) cuMemRelease(h.id);
        }
        if (contextChunk >= 0) gpu.pool().release(contextChunk);
        contextChunk = -1;
    }

    private void dropPeer(GpuProcess owner) {
        for (Allocation a : owner.mallocs.values()) unmapPages(a.va, a.size);
        owner.mirrors.remove(this);
        peers.remove(owner.gpu.id());
    }

    /**
     * Checks that every PTE points at memory owned exactly once: a local PTE at a chunk of this
     * GPU's pool owned by one of this process's allocations or handles, a peer PTE at a chunk of
     * the peer's pool owned by one of the peer context's allocations; and that the books agree.
     *
     * @return the number of pool chunks this process owns on its GPU
     */
    int checkInvariants() {
        space.checkInvariants();
        Map<Object, Integer> seen = new HashMap<>();
        space.forEachPte((va, pte) -> {
            GpuProcess owner = pte.aperture() == vramlab.gmmu.Aperture.PEER_MEMORY
                    ? peers.get(pte.device()) : this;
            PhysicalPool.Chunk c = owner == null ? null : owner.gpu.pool().chunkAt(pte.address());
            if (c == null || !owner.owns(c.owner(), va)) {
                throw new IllegalStateException("process " + pid + ": " + hex(va) + " -> " + pte
                        + " points at " + c + ", not at memory of " + owner);
            }
            seen.merge(c.owner(), 1, Integer::sum);
        });
        long sumMalloc = 0;
        long sumHandles = 0;
        int chunks = contextChunk >= 0 ? 1 : 0;
        for (Allocation a : mallocs.values()) {
            sumMalloc += a.size;
            chunks += a.chunks.length;
            if (seen.getOrDefault(a, 0) != a.chunks.length) {
                throw new IllegalStateException("process " + pid + ": allocation " + hex(a.va)
                        + " has " + a.chunks.length + " frames but " + seen.getOrDefault(a, 0) + " PTEs");
            }
        }
        for (Handle h : handles.values()) {
            sumHandles += h.size;
            chunks += h.chunks.length;
            if (h.released && h.maps == 0) throw new IllegalStateException("handle " + h.id + " leaked");
        }
        if (sumMalloc != mappedBytes || sumHandles != handlesBytes) {
            throw new IllegalStateException("process " + pid + ": books say " + mappedBytes + " + "
                    + handlesBytes + " B, allocations sum to " + sumMalloc + " + " + sumHandles);
        }
        return chunks;
    }

    /** Whether {@code chunkOwner} is my allocation or handle whose memory may back {@code va}. */
    private boolean owns(Object chunkOwner, long va) {
        if (chunkOwner instanceof Allocation a) return mallocs.get(a.va) == a && va >= a.va && va < a.va + a.size;
        if (chunkOwner instanceof Handle h) return handles.get(h.id) == h;
        return false;
    }

    @Override public String toString() { return "process " + pid + " (" + name + ") on GPU " + gpu.id(); }

    /** {@code cudaMemGetInfo}'s answer. */
    public record MemInfo(long free, long total) {}
}
