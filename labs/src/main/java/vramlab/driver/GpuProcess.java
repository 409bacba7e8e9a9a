package vramlab.driver;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import vramlab.gmmu.Access;
import vramlab.gmmu.Aperture;
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
 * layout), its context memory, and the driver calls it makes. A large {@code cudaMalloc} takes
 * 2 MiB frames from the GPU's pool and maps them with 2 MiB PTEs; small ones are packed into
 * shared 2 MiB pages; the VMM calls ({@code cuMem*}) do the steps one at a time, with the real
 * API's rules.
 *
 * <p>VA comes from this process's window of the unified address space ({@link UvaWindow}), 7 TiB
 * per GPU: GPU 0's ends where x86-64 user space ends, {@link #UVA_END}, and a fresh process's
 * first addresses are at {@link #VA_BASE}, 984 GiB below that end (lower addresses are used once
 * those are taken); GPU {@code d}'s window is the 7 TiB just below GPU {@code d - 1}'s, so the
 * contexts of one process on several GPUs never share a VA, as unified addressing promises. The
 * windows are the kit's layout; that the whole of it lies under 128 TiB is the real constraint.
 */
public final class GpuProcess {
    /** Where this process's device allocations start on GPU 0 (a typical CUDA VA on x86-64 Linux). */
    public static final long VA_BASE = 0x7f0a00000000L;

    /** The host's page size: the unit of {@code cuMemAddressReserve}'s size and address. */
    public static final long HOST_PAGE = 4 * Bytes.KiB;

    /**
     * One past the last user address on x86-64 with 4-level paging: {@code TASK_SIZE_MAX =
     * (1 << 47) - PAGE_SIZE} (torvalds/linux arch/x86/include/asm/page_64_types.h). Under UVA
     * no device pointer of the process lies above it, whatever the GMMU could decode.
     */
    public static final long UVA_END = (1L << 47) - HOST_PAGE;

    /**
     * The largest request {@code cudaMalloc} packs into a shared page. Observed, not documented:
     * 1 MiB costs 1 MiB and 1 MiB + 1 B costs 2 MiB (RTX 3090, CUDA 13.1, JustVugg/colibri PR
     * #1244).
     */
    public static final long SMALL_MAX = Bytes.MiB;

    /**
     * The slice size of a packed request. CUDA documents only that allocations are aligned to at
     * least 256 B (CUDA C++ Programming Guide, Device Memory Accesses); back-to-back small
     * allocations were measured 512 B apart (cupy/cupy PR #176, Kepler and Maxwell).
     */
    public static final long SMALL_ALIGN = 512;

    /** TLB entries per context. Illustrative: GPU TLB sizes are not documented. */
    static final int TLB_ENTRIES = 64;

    /** Each device's share of the process's VA (the kit's layout, not the driver's). */
    public static final long WINDOW = 7 * Bytes.TiB;

    /** The most devices one machine may have: their windows must all fit below 128 TiB. */
    static final int MAX_DEVICES = 16;

    /** A cudaMalloc: its VA, its size after rounding, and the frames behind it (or its page). */
    static final class Allocation {
        final long va;
        final long size;
        final SharedPage page;              // null for a large allocation with frames of its own
        long[] chunks;

        Allocation(long va, long size, SharedPage page) {
            this.va = va;
            this.size = size;
            this.page = page;
        }
    }

    /**
     * A 2 MiB page, mapped by one 2M PTE, that holds small cudaMallocs side by side: first fit
     * over its free runs, which merge again on free. The kit gives the page back when its last
     * allocation goes; when the real driver does is not documented.
     */
    static final class SharedPage {
        final long va;
        long[] chunks;
        final TreeMap<Long, Long> free = new TreeMap<>();        // offset -> length
        int live;

        SharedPage(long va) {
            this.va = va;
            free.put(0L, Gpu.PAGE);
        }

        /** The offset of a free run of {@code bytes}, now taken; -1 when none is long enough. */
        long take(long bytes) {
            for (Map.Entry<Long, Long> run : free.entrySet()) {
                if (run.getValue() < bytes) continue;
                long off = run.getKey();
                free.remove(off);
                if (run.getValue() > bytes) free.put(off + bytes, run.getValue() - bytes);
                live++;
                return off;
            }
            return -1;
        }

        /** Gives {@code bytes} at {@code off} back, merged with the free runs on either side. */
        void give(long off, long bytes) {
            Map.Entry<Long, Long> before = free.floorEntry(off);
            if (before != null && before.getKey() + before.getValue() == off) {
                off = before.getKey();
                bytes += before.getValue();
            }
            Long after = free.remove(off + bytes);
            free.put(off, after == null ? bytes : bytes + after);
            live--;
        }

        long freeBytes() {
            long sum = 0;
            for (long len : free.values()) sum += len;
            return sum;
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
    private final UvaWindow va;
    private long mappedBytes;
    private long handlesBytes;
    private long nextHandle = 1;
    private final Map<DriverCall, long[]> calls = new EnumMap<>(DriverCall.class); // {count, pages}
    private final TreeMap<Long, Allocation> mallocs = new TreeMap<>();
    private final TreeMap<Long, SharedPage> pages = new TreeMap<>();           // va -> page
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
        this.va = window(gpu);
    }

    /** GPU {@code d}'s window: the {@link #WINDOW} below GPU {@code d - 1}'s, first addresses at {@code VA_BASE - d WINDOW}. */
    static UvaWindow window(Gpu gpu) {
        int d = gpu.id();
        if (d < 0 || d >= MAX_DEVICES) {
            throw new IllegalArgumentException("GPU id " + d + ": the kit lays out windows for ids 0.."
                    + (MAX_DEVICES - 1));
        }
        long end = UVA_END - d * WINDOW;
        return new UvaWindow(end - WINDOW, VA_BASE - d * WINDOW, Math.min(end, gpu.format().vaLimit()));
    }

    /** Where a fresh process's VA on its GPU starts. */
    public long vaBase() { return va.base(); }

    /** The lowest address of this process's VA window on its GPU. */
    public long vaFloor() { return va.floor(); }

    /** One past the end of this process's VA window on its GPU. */
    public long vaEnd() { return va.end(); }

    /** The window itself, for the tests that count its steps. */
    UvaWindow window() { return va; }

    public Gpu gpu() { return gpu; }
    public int pid() { return pid; }
    public String name() { return name; }
    public long contextBytes() { return contextBytes; }

    /** This context's page tables on its GPU. */
    public AddressSpace addressSpace() { return space; }

    /** Bytes of device memory this process holds through cudaMalloc and cuMemCreate. */
    public long mappedBytes() { return mappedBytes + handlesBytes; }

    /** What nvidia-smi's used_gpu_memory shows for this process: its allocations plus its context. */
    public long physicalBytes() { return mappedBytes + handlesBytes + contextBytes; }

    public long cudaMallocCalls() { return driverCalls(DriverCall.CUDA_MALLOC); }

    /** How many times this process made {@code call}. */
    public long driverCalls(DriverCall call) { return calls.getOrDefault(call, new long[2])[0]; }

    /** The 2 MiB pages those calls mapped or unmapped, summed (0 for a slice of a shared page). */
    public long driverPages(DriverCall call) { return calls.getOrDefault(call, new long[2])[1]; }

    /**
     * {@code cudaMemGetInfo}: free and total bytes of the device, as every process sees them.
     * The total is {@link Gpu#totalMemory()}: the driver reserve is already left out of it, and
     * free is what is left of it after every process's context and allocations.
     */
    public MemInfo cudaMemGetInfo() { return new MemInfo(gpu.free(), gpu.totalMemory()); }

    /** Shared pages that small cudaMallocs live in now. */
    public int sharedPages() { return pages.size(); }

    // tag::cudaMalloc[]
    /**
     * {@code cudaMalloc}. A large request (over {@link #SMALL_MAX}) is rounded up to whole 2 MiB
     * pages, takes frames of its own and a fresh VA range, one 2M PTE per frame: 3 MiB + 1 B maps
     * 4 MiB. A small one takes a {@link #SMALL_ALIGN}-byte-aligned slice of a shared page, and
     * maps a new page only when no shared page has room. Both rules are observed, not documented.
     *
     * @return the device pointer
     * @throws CudaException {@code cudaErrorMemoryAllocation} when the pages or the VA are not there
     */
    public long cudaMalloc(long size) {
        checkOpen();
        if (size <= 0) throw new CudaException(CudaError.cudaErrorInvalidValue, "cudaMalloc(" + size + ")");
        if (size <= SMALL_MAX) return packed(size);
        long bytes = Bytes.alignUp(size, Gpu.PAGE);                       // the rounding tax
        long at = takeVa(bytes, "cudaMalloc", size);                      // VA first
        Allocation a = new Allocation(at, bytes, null);
        try {
            a.chunks = gpu.takePages(bytes, a, "cudaMalloc", size);         // frames: scarce
        } catch (CudaException e) {
            va.cancel(at);
            throw e;
        }
        mapLocal(a.va, a.chunks);
        mallocs.put(a.va, a);
        mappedBytes += bytes;
        count(DriverCall.CUDA_MALLOC, a.chunks.length);
        for (GpuProcess m : mirrors) m.mapPeer(this, a.va, a.chunks);
        return a.va;
    }

    /** A small request: a slice of the first shared page with room, or of a new one. */
    private long packed(long size) {
        long bytes = Bytes.alignUp(size, SMALL_ALIGN);
        for (SharedPage page : pages.values()) {
            long off = page.take(bytes);
            if (off >= 0) return slice(page, off, bytes, 0);
        }
        SharedPage page = newSharedPage(size);
        return slice(page, page.take(bytes), bytes, 1);
    }
    // end::cudaMalloc[]

    private long slice(SharedPage page, long off, long bytes, long newPages) {
        Allocation a = new Allocation(page.va + off, bytes, page);
        mallocs.put(a.va, a);
        count(DriverCall.CUDA_MALLOC, newPages);
        return a.va;
    }

    /** A new shared page, for {@code cudaMalloc(size)}. */
    private SharedPage newSharedPage(long size) {
        SharedPage page = new SharedPage(takeVa(Gpu.PAGE, "cudaMalloc", size));
        try {
            page.chunks = gpu.takePages(Gpu.PAGE, page, "cudaMalloc", size);
        } catch (CudaException e) {
            va.cancel(page.va);
            throw e;
        }
        mapLocal(page.va, page.chunks);
        pages.put(page.va, page);
        mappedBytes += Gpu.PAGE;
        for (GpuProcess m : mirrors) m.mapPeer(this, page.va, page.chunks);
        return page;
    }

    /**
     * {@code cudaFree}: unmaps the allocation that starts at {@code ptr} and returns its pages (a
     * slice goes back to its shared page, and the page to the driver when it is empty).
     * {@code cudaFree(0)} does nothing, as CUDA documents ("If devPtr is 0, no operation is
     * performed").
     *
     * @throws CudaException {@code cudaErrorInvalidValue} when {@code ptr} is not an allocation of
     *     this process, the code current CUDA documents for cudaFree (CUDA Runtime API,
     *     cudaFree; CUDA 3.x-4.x documented {@code cudaErrorInvalidDevicePointer}, deprecated
     *     since CUDA 10.1)
     */
    public void cudaFree(long ptr) {
        checkOpen();
        if (ptr == 0) return;
        Allocation a = mallocs.remove(ptr);
        if (a == null) {
            throw new CudaException(CudaError.cudaErrorInvalidValue,
                    "cudaFree(0x" + Long.toHexString(ptr) + "): not an allocation of process " + pid);
        }
        if (a.page != null) {
            a.page.give(a.va - a.page.va, a.size);
            boolean last = a.page.live == 0;
            if (last) dropSharedPage(a.page);
            count(DriverCall.CUDA_FREE, last ? 1 : 0);
            return;
        }
        for (GpuProcess m : mirrors) m.unmapPages(a.va, a.size);
        unmapPages(a.va, a.size);
        gpu.givePages(a.chunks);
        va.release(a.va);
        mappedBytes -= a.size;
        count(DriverCall.CUDA_FREE, a.chunks.length);
    }

    private void dropSharedPage(SharedPage page) {
        for (GpuProcess m : mirrors) m.unmapPages(page.va, Gpu.PAGE);
        unmapPages(page.va, Gpu.PAGE);
        pages.remove(page.va);
        gpu.givePages(page.chunks);
        va.release(page.va);
        mappedBytes -= Gpu.PAGE;
    }

    /**
     * What cudaMalloc set aside at {@code ptr}: whole 2 MiB pages for a large request, a
     * 512 B-aligned slice of a shared page for a small one; -1 when {@code ptr} is not an
     * allocation.
     */
    public long allocationSize(long ptr) {
        Allocation a = mallocs.get(ptr);
        return a == null ? -1 : a.size;
    }

    /** Whether {@code ptr} is a small allocation packed into a shared page. */
    public boolean isPacked(long ptr) {
        Allocation a = mallocs.get(ptr);
        return a != null && a.page != null;
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
     * {@code peer} (the same process's context on another GPU), so a walk here ends in the
     * peer's memory. The PTEs are the link's ({@link PeerLink}): PEER-aperture PTEs over PCIe,
     * NVLink and NVSwitch, the last two at the owner's window offset; system-aperture PTEs
     * through the owner's BAR1.
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
        if (gpu.linkTo(peer.gpu).usesPeerSlot()) gpu.peerSlot(peer.gpu);
        peers.put(peer.gpu.id(), peer);
        peer.mirrors.add(this);
        for (Allocation a : peer.mallocs.values()) {
            if (a.page == null) mapPeer(peer, a.va, a.chunks);
        }
        for (SharedPage page : peer.pages.values()) mapPeer(peer, page.va, page.chunks);
    }
    // end::peer[]

    /** Maps {@code owner}'s frames at {@code at} here, as the link between the two GPUs has it. */
    private void mapPeer(GpuProcess owner, long at, long[] chunks) {
        for (int k = 0; k < chunks.length; k++) space.map(at + k * Gpu.PAGE, peerPte(owner, chunks[k]));
    }

    private Pte peerPte(GpuProcess owner, long chunk) {
        PeerLink link = gpu.linkTo(owner.gpu);
        long address = chunk + link.offset(owner.gpu);                  // uvm_gpu_peer_phys_address
        int device = owner.gpu.id();
        return link.usesPeerSlot()
                ? Pte.peer(PageSize.SIZE_2M, gpu.peerSlot(owner.gpu), address, Access.READWRITE, device)
                : Pte.system(PageSize.SIZE_2M, link.aperture(), address, Access.READWRITE, device);
    }

    // --- the VMM calls ---------------------------------------------------------------------

    /**
     * The VMM granularity {@code cuMemGetAllocationGranularity} reports: 2 MiB (PyTorch's Note
     * [Expandable Segments]; a 2 MiB minimum is reported on GB200). {@code cuMemCreate}'s size
     * and {@code cuMemMap}'s address and size must be multiples of it; a reservation need not be.
     */
    public long granularity() { return Gpu.PAGE; }

    /** {@code cuMemAddressReserve(size, 0, 0, 0)}: the driver picks the address. */
    public long cuMemAddressReserve(long size) { return cuMemAddressReserve(size, 0, 0); }

    /**
     * {@code cuMemAddressReserve}: VA only, no physical memory and no page tables. As the CUDA
     * driver API documents it (Virtual Memory Management, CUDA 12.x): {@code size} and
     * {@code addr} are multiples of the host page size, {@code alignment} is a power of two or 0
     * for the default, and a non-zero {@code addr} is only a hint. The default alignment is the
     * kit's choice (the 2 MiB granularity); the documentation does not give one.
     *
     * @throws CudaException {@code CUDA_ERROR_INVALID_VALUE} for a bad size, alignment or
     *     address; {@code CUDA_ERROR_OUT_OF_MEMORY} when no free range that large is left below
     *     the end of the process's VA window
     */
    public long cuMemAddressReserve(long size, long alignment, long addr) {
        checkOpen();
        if (size <= 0 || size % HOST_PAGE != 0 || addr % HOST_PAGE != 0
                || (alignment != 0 && !Bytes.isPowerOfTwo(alignment))) {
            throw new CudaException(CudaError.CUDA_ERROR_INVALID_VALUE, "cuMemAddressReserve(" + size
                    + ", " + alignment + ", " + hex(addr) + "): size and address must be multiples of the "
                    + "host page size " + HOST_PAGE + ", the alignment a power of two or 0");
        }
        long align = alignment == 0 ? granularity() : Math.max(alignment, HOST_PAGE);
        long at = va.take(size, align, addr);
        if (at < 0) {
            throw new CudaException(CudaError.CUDA_ERROR_OUT_OF_MEMORY, "cuMemAddressReserve(" + size
                    + "): " + noRoom());
        }
        reservations.put(at, size);
        count(DriverCall.CU_MEM_ADDRESS_RESERVE, 0);
        return at;
    }

    /** {@code cuMemCreate}: physical memory, not yet mapped anywhere. */
    public long cuMemCreate(long size) {
        checkOpen();
        requireGranular("cuMemCreate", size);
        Handle h = new Handle(nextHandle, size);
        try {
            h.chunks = gpu.takePages(size, h, "cuMemCreate", size);
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
        if (h == null || h.released) {                 // the code is the kit's choice, see CudaError
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
     * one. Afterwards it is a plain reservation again; a released handle's memory is freed. The
     * call is synchronous (the driver API's note on cuMemUnmap), which the cost model charges.
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
     * maps it, else at the last {@code cuMemUnmap}. For a handle that is not valid CUDA promises
     * nothing ("the behavior is undefined"); the kit refuses it with
     * {@code CUDA_ERROR_INVALID_HANDLE}, its own choice.
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
        this.va.release(va);
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

    /**
     * A 2 MiB-aligned range of {@code size} bytes from this process's window, for the driver call
     * {@code call(arg)}: the error names it (made only then, not on every call).
     */
    private long takeVa(long size, String call, long arg) {
        long at = va.take(size, Gpu.PAGE, 0);
        if (at < 0) throw new CudaException(CudaError.cudaErrorMemoryAllocation, call + "(" + arg + "): " + noRoom());
        return at;
    }

    private String noRoom() {
        return "no free range that large is left in this process's VA window [" + hex(va.base()) + ", "
                + hex(va.end()) + ") (x86-64 user space ends at 128 TiB; the GMMU's "
                + gpu.format().vaBits() + " bits are not the limit)";
    }

    private void mapLocal(long at, long[] chunks) {
        for (int k = 0; k < chunks.length; k++) {
            space.map(at + k * Gpu.PAGE, Pte.local(PageSize.SIZE_2M, chunks[k], Access.READWRITE, gpu.id()));
        }
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
        for (Allocation a : owner.mallocs.values()) {
            if (a.page == null) unmapPages(a.va, a.size);
        }
        for (SharedPage page : owner.pages.values()) unmapPages(page.va, Gpu.PAGE);
        owner.mirrors.remove(this);
        peers.remove(owner.gpu.id());
    }

    /**
     * Checks that every PTE points at memory owned exactly once: a local PTE at a chunk of this
     * GPU's pool owned by one of this process's allocations, shared pages or handles; a peer PTE,
     * with the link's aperture and less the link's offset, at a chunk of the peer's pool owned by
     * one of the peer context's; that each shared page's slices and free runs tile it; that the
     * books agree; and that the VA window holds exactly the allocations and reservations.
     *
     * @return the number of pool chunks this process owns on its GPU
     */
    int checkInvariants() {
        space.checkInvariants();
        va.checkInvariants();
        Map<Object, Integer> seen = new HashMap<>();
        space.forEachPte((at, pte) -> {
            boolean local = pte.device() == gpu.id();
            GpuProcess owner = local ? this : peers.get(pte.device());
            PeerLink link = local || owner == null ? null : gpu.linkTo(owner.gpu);
            Aperture expected = local ? Aperture.VIDEO_MEMORY : link == null ? null : link.aperture();
            long address = local || link == null ? pte.address() : pte.address() - link.offset(owner.gpu);
            PhysicalPool.Chunk c = owner == null ? null : owner.gpu.pool().chunkAt(address);
            if (c == null || pte.aperture() != expected || !owner.owns(c.owner(), at)) {
                throw new IllegalStateException("process " + pid + ": " + hex(at) + " -> " + pte
                        + " points at " + c + ", not at memory of " + owner);
            }
            seen.merge(c.owner(), 1, Integer::sum);
        });
        long sumMapped = 0;
        long sumHandles = 0;
        long sumVa = 0;
        int chunks = contextChunk >= 0 ? 1 : 0;
        Map<SharedPage, Long> sliced = new HashMap<>();
        for (Allocation a : mallocs.values()) {
            if (a.page != null) {
                if (pages.get(a.page.va) != a.page) {
                    throw new IllegalStateException("process " + pid + ": slice " + hex(a.va)
                            + " outside a live page");
                }
                sliced.merge(a.page, a.size, Long::sum);
                continue;
            }
            sumMapped += a.size;
            sumVa += a.size;
            chunks += a.chunks.length;
            if (seen.getOrDefault(a, 0) != a.chunks.length) {
                throw new IllegalStateException("process " + pid + ": allocation " + hex(a.va)
                        + " has " + a.chunks.length + " frames but " + seen.getOrDefault(a, 0) + " PTEs");
            }
        }
        for (SharedPage page : pages.values()) {
            long used = sliced.getOrDefault(page, 0L);
            if (page.live <= 0 || used + page.freeBytes() != Gpu.PAGE || seen.getOrDefault(page, 0) != 1) {
                throw new IllegalStateException("process " + pid + ": shared page " + hex(page.va) + " holds "
                        + page.live + " slices of " + used + " B and " + page.freeBytes() + " B free runs");
            }
            sumMapped += Gpu.PAGE;
            sumVa += Gpu.PAGE;
            chunks++;
        }
        for (Handle h : handles.values()) {
            sumHandles += h.size;
            chunks += h.chunks.length;
            if (h.released && h.maps == 0) throw new IllegalStateException("handle " + h.id + " leaked");
        }
        for (long size : reservations.values()) sumVa += size;
        if (sumMapped != mappedBytes || sumHandles != handlesBytes || sumVa != va.takenBytes()) {
            throw new IllegalStateException("process " + pid + ": books say " + mappedBytes + " + "
                    + handlesBytes + " B, allocations sum to " + sumMapped + " + " + sumHandles
                    + "; VA taken " + va.takenBytes() + " B, expected " + sumVa);
        }
        return chunks;
    }

    /** Whether {@code chunkOwner} is my allocation, shared page or handle whose memory may back {@code at}. */
    private boolean owns(Object chunkOwner, long at) {
        if (chunkOwner instanceof Allocation a) {
            return mallocs.get(a.va) == a && at >= a.va && at < a.va + a.size;
        }
        if (chunkOwner instanceof SharedPage p) {
            return pages.get(p.va) == p && at >= p.va && at < p.va + Gpu.PAGE;
        }
        if (chunkOwner instanceof Handle h) return handles.get(h.id) == h;
        return false;
    }

    @Override public String toString() { return "process " + pid + " (" + name + ") on GPU " + gpu.id(); }

    /** {@code cudaMemGetInfo}'s answer. */
    public record MemInfo(long free, long total) {
        /** {@code free 79.01 GiB of 80.00 GiB}, as the notes print cudaMemGetInfo. */
        @Override public String toString() { return "free " + Bytes.formatSize(free) + " of " + Bytes.formatSize(total); }
    }
}
