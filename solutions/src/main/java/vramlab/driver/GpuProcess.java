package vramlab.driver;

import java.util.Collection;
import java.util.EnumMap;
import java.util.Map;

import vramlab.gmmu.Access;
import vramlab.gmmu.AddressSpace;
import vramlab.gmmu.Tlb;
import vramlab.gmmu.Translation;
import vramlab.gmmu.Walk;
import vramlab.units.AddressTable;
import vramlab.units.Bytes;

/**
 * One concept: one process's context on a GPU, and the driver calls it makes there. The context
 * owns its virtual address space (page tables in NVIDIA's layout), its context memory and its
 * large {@code cudaMalloc}s: each takes 2 MiB frames from the GPU's pool and maps them with 2 MiB
 * PTEs, as the CUDA Runtime API's {@code cudaMalloc} and {@code cudaFree} (Memory Management)
 * allocate and free device memory; the page sizes are observed, not documented. The other calls
 * are delegated, one concept a class: small requests packed into shared pages
 * ({@link SharedPages}), the VMM calls ({@code cuMem*}, {@link Vmm}), peer access
 * ({@link PeerAccess}) and the checker ({@link ProcessCheck}). The public methods here are the
 * stable API the chapters and the allocators call.
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
        final SharedPages.Page page;        // null for a large allocation with frames of its own
        long[] chunks;

        Allocation(long va, long size, SharedPages.Page page) {
            this.va = va;
            this.size = size;
            this.page = page;
        }
    }

    /** What {@link #forEachMalloc} hands each mapped cudaMalloc range: its VA and its frames. */
    interface MappedRange {
        void at(long va, long[] chunks);
    }

    private final Gpu gpu;
    private final int pid;
    private final String name;
    long contextBytes;
    long contextChunk = -1;
    boolean closed;
    private final AddressSpace space;
    private final UvaWindow va;
    private long mappedBytes;                    // large cudaMallocs and shared pages
    private final Map<DriverCall, long[]> calls = new EnumMap<>(DriverCall.class); // {count, pages}
    private final AddressTable<Allocation> mallocs = new AddressTable<>();   // by VA
    private final SharedPages shared;
    private final Vmm vmm;
    private final PeerAccess peerAccess;

    GpuProcess(Gpu gpu, int pid, String name) {
        this.gpu = gpu;
        this.pid = pid;
        this.name = name;
        this.space = new AddressSpace(gpu.format(), new Tlb(TLB_ENTRIES), gpu.ptes());
        this.va = window(gpu);
        this.shared = new SharedPages(this);
        this.vmm = new Vmm(this);
        this.peerAccess = new PeerAccess(this);
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

    private boolean oomsExpected;

    /**
     * Says whether the caller takes running out of memory as an answer it expects, tens of
     * thousands of times (a replay): the driver's refusals for want of memory are then made
     * without a stack trace, and their text is put together only when read ({@link CudaException}).
     * The same refusals, the same state after them.
     */
    public void expectOoms(boolean expected) { oomsExpected = expected; }

    boolean oomsExpected() { return oomsExpected; }

    /** Bytes of device memory this process holds through cudaMalloc and cuMemCreate. */
    public long mappedBytes() { return mappedBytes + vmm.handlesBytes(); }

    /** What nvidia-smi's used_gpu_memory shows for this process: its allocations plus its context. */
    public long physicalBytes() { return mappedBytes() + contextBytes; }

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

    /** {@link #cudaMemGetInfo}'s free bytes, with no {@link MemInfo} made (an OOM report, one per failed alloc). */
    public long memFree() { return gpu.free(); }

    /** {@link #cudaMemGetInfo}'s total bytes, with no {@link MemInfo} made. */
    public long memTotal() { return gpu.totalMemory(); }

    /** Shared pages that small cudaMallocs live in now. */
    public int sharedPages() { return shared.count(); }

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
        if (size <= SMALL_MAX) return shared.packed(size);
        long bytes = Bytes.alignUp(size, Gpu.PAGE);                       // the rounding tax
        long at = takeVa(bytes, "cudaMalloc", size);                      // VA first
        Allocation a = new Allocation(at, bytes, null);
        try {
            a.chunks = gpu.takePages(bytes, a, "cudaMalloc", size);         // frames: scarce
        } catch (CudaException e) {
            va.cancel(at);
            throw e;
        }
        mapEverywhere(a.va, a.chunks);
        mallocs.put(a.va, a);
        count(DriverCall.CUDA_MALLOC, a.chunks.length);
        return a.va;
    }
    // end::cudaMalloc[]

    /**
     * {@link #cudaMalloc} for a caller that takes running out as an answer, not a failure: the
     * pointer, or 0 where cudaMalloc throws {@code cudaErrorMemoryAllocation}. The real
     * {@code cudaMalloc} returns its error code, and PyTorch's {@code alloc_block} reads it and
     * clears it with {@code cudaGetLastError()} (c10/cuda/CUDACachingAllocator.cpp, 2024 main,
     * CCA:2630-2722); the caching allocator calls this. The same call, the same state after
     * it: only a request the device's budget cannot hold is answered before its VA range is
     * taken (and given back), and no exception, text or stack trace is made for it, which a
     * replay that runs out tens of thousands of times would otherwise pay for each time.
     */
    public long tryCudaMalloc(long size) {
        checkOpen();
        if (size > SMALL_MAX && Bytes.alignUp(size, Gpu.PAGE) > gpu.free()) return 0;
        try {
            return cudaMalloc(size);
        } catch (CudaException e) {
            if (!e.isOutOfMemory()) throw e;
            return 0;
        }
    }

    /** Books a slice of {@code page} as a cudaMalloc; {@code newPages} is 1 when the page is new. */
    long slice(SharedPages.Page page, long off, long bytes, long newPages) {
        Allocation a = new Allocation(page.va + off, bytes, page);
        mallocs.put(a.va, a);
        count(DriverCall.CUDA_MALLOC, newPages);
        return a.va;
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
            count(DriverCall.CUDA_FREE, shared.give(a.page, a.va, a.size));
            return;
        }
        int pages = a.chunks.length;
        unmapEverywhere(a.va, a.size);
        gpu.givePages(a.chunks);
        a.chunks = null;                                 // the GPU reuses the array
        va.release(a.va);
        count(DriverCall.CUDA_FREE, pages);
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

    /** Whether {@code va} maps a page this process can use, without counting a TLB access. */
    public boolean isMapped(long va) { return space.walk(va).found(); }

    // --- peers: see PeerAccess -------------------------------------------------------------

    /**
     * {@code cudaDeviceEnablePeerAccess}: from now on this context maps every cudaMalloc of
     * {@code peer} (the same process's context on another GPU); see {@link PeerAccess}.
     */
    public void cudaDeviceEnablePeerAccess(GpuProcess peer) {
        checkOpen();
        peerAccess.enable(peer);
    }

    // --- the VMM calls: see Vmm ------------------------------------------------------------

    /**
     * The VMM granularity {@code cuMemGetAllocationGranularity} reports: 2 MiB (PyTorch's Note
     * [Expandable Segments]; a 2 MiB minimum is reported on GB200). {@code cuMemCreate}'s size
     * and {@code cuMemMap}'s address and size must be multiples of it; a reservation need not be.
     */
    public long granularity() { return vmm.granularity(); }

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
        return vmm.cuMemAddressReserve(size, alignment, addr);
    }

    /** {@code cuMemCreate}: physical memory, not yet mapped anywhere. */
    public long cuMemCreate(long size) {
        checkOpen();
        return vmm.cuMemCreate(size);
    }

    /**
     * {@code cuMemMap}: maps the whole of {@code handle} at {@code va}, inside a reservation.
     * The PTEs are written with no access: {@code cuMemSetAccess} must follow.
     */
    public void cuMemMap(long va, long size, long handle) {
        checkOpen();
        vmm.cuMemMap(va, size, handle);
    }

    /**
     * {@code cuMemSetAccess} for this device: the range must be fully mapped; every PTE in it
     * gets {@code access} (and becomes valid unless the access is NONE).
     */
    public void cuMemSetAccess(long va, long size, Access access) {
        checkOpen();
        vmm.cuMemSetAccess(va, size, access);
    }

    /** {@code cuMemUnmap}: whole earlier mappings only; a released handle's memory is freed. */
    public void cuMemUnmap(long va, long size) {
        checkOpen();
        vmm.cuMemUnmap(va, size);
    }

    /**
     * {@code cuMemRelease}: drops the handle. The memory goes back to the driver now if nothing
     * maps it, else at the last {@code cuMemUnmap}. For a handle that is not valid CUDA promises
     * nothing ("the behavior is undefined"); the kit refuses it with
     * {@code CUDA_ERROR_INVALID_HANDLE}, its own choice.
     */
    public void cuMemRelease(long handle) {
        checkOpen();
        vmm.cuMemRelease(handle);
    }

    /** {@code cuMemAddressFree}: releases a whole reservation that nothing is mapped in. */
    public void cuMemAddressFree(long va, long size) {
        checkOpen();
        vmm.cuMemAddressFree(va, size);
    }

    // --- for the classes this one delegates to ---------------------------------------------

    SharedPages shared() { return shared; }
    Vmm vmm() { return vmm; }
    PeerAccess peerAccess() { return peerAccess; }

    /** Every live cudaMalloc, large ones and slices, in address order. */
    Collection<Allocation> allocations() { return mallocs.valuesInKeyOrder(); }

    /** The cudaMalloc that starts at {@code ptr}, or null. */
    Allocation allocation(long ptr) { return mallocs.get(ptr); }

    /** Every range cudaMalloc mapped with frames of its own, then every shared page. */
    void forEachMalloc(MappedRange action) {
        for (Allocation a : mallocs.valuesInKeyOrder()) {
            if (a.page == null) action.at(a.va, a.chunks);
        }
        for (SharedPages.Page page : shared.all()) action.at(page.va, page.chunks);
    }

    /**
     * A 2 MiB-aligned range of {@code size} bytes from this process's window, for the driver call
     * {@code call(arg)}: the error names it (made only then, not on every call).
     */
    long takeVa(long size, String call, long arg) {
        long at = va.take(size, Gpu.PAGE, 0);
        if (at < 0) throw new CudaException(CudaError.cudaErrorMemoryAllocation, call + "(" + arg + "): " + noRoom());
        return at;
    }

    String noRoom() {
        return "no free range that large is left in this process's VA window [" + hex(va.base()) + ", "
                + hex(va.end()) + ") (x86-64 user space ends at 128 TiB; the GMMU's "
                + gpu.format().vaBits() + " bits are not the limit)";
    }

    /** Maps {@code chunks} at {@code at} here, read-write, and in every peer that mirrors this context. */
    void mapEverywhere(long at, long[] chunks) {
        space.map2M(at, chunks, Access.READWRITE, gpu.id());          // a 2M PTE a frame
        mappedBytes += chunks.length * Gpu.PAGE;
        peerAccess.mirror(at, chunks);
    }

    /** Unmaps {@code [at, at + size)}, mapped by {@link #mapEverywhere}, from every peer and here. */
    void unmapEverywhere(long at, long size) {
        peerAccess.unmirror(at, size);
        unmapPages(at, size);
        mappedBytes -= size;
    }

    void unmapPages(long va, long size) {
        space.unmap2M(va, (int) ((size + Gpu.PAGE - 1) / Gpu.PAGE));
    }

    void count(DriverCall call, long pages) {
        long[] c = calls.computeIfAbsent(call, k -> new long[2]);
        c[0]++;
        c[1] += pages;
    }

    private void checkOpen() {
        if (closed) throw new IllegalStateException("process " + pid + " is closed");
    }

    static String hex(long va) { return "0x" + Long.toHexString(va); }

    /** Frees everything at exit: peers' views of my memory, my memory, my context. */
    void teardown() {
        peerAccess.dropAll();
        for (Allocation a : mallocs.valuesInKeyOrder()) cudaFree(a.va);
        vmm.teardown();
        if (contextChunk >= 0) gpu.pool().release(contextChunk);
        contextChunk = -1;
    }

    /**
     * Checks this context's page tables against its books ({@link ProcessCheck}).
     *
     * @return the number of pool chunks this process owns on its GPU
     */
    int checkInvariants() { return new ProcessCheck(this).run(); }

    @Override public String toString() { return "process " + pid + " (" + name + ") on GPU " + gpu.id(); }

    /** {@code cudaMemGetInfo}'s answer. */
    public record MemInfo(long free, long total) {
        /** {@code free 79.01 GiB of 80.00 GiB}, as the notes print cudaMemGetInfo. */
        @Override public String toString() { return "free " + Bytes.formatSize(free) + " of " + Bytes.formatSize(total); }
    }
}
