package vramlab.driver;

import static vramlab.driver.GpuProcess.hex;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;

import vramlab.gmmu.Access;
import vramlab.gmmu.AddressSpace;
import vramlab.gmmu.PageSize;
import vramlab.units.AddressTable;
import vramlab.units.Bytes;

/**
 * One concept: one process's virtual memory management calls, the steps {@code cudaMalloc} does
 * at once, made one at a time: reserve VA, create physical memory, map it, grant access, and
 * back. The rules and error codes are the CUDA driver API's (Virtual Memory Management,
 * CUDA 12.x: {@code cuMemAddressReserve}, {@code cuMemCreate}, {@code cuMemMap},
 * {@code cuMemSetAccess}, {@code cuMemUnmap}, {@code cuMemRelease}, {@code cuMemAddressFree});
 * where it promises nothing (an invalid handle) the kit's choice says so.
 *
 * <p>Invariants (checked by {@link ProcessCheck}): a handle released and mapped nowhere is gone;
 * {@code handlesBytes} is the sum of the live handles' sizes; mappings lie inside reservations
 * and do not overlap.
 */
final class Vmm {
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

    private final GpuProcess process;
    private final Gpu gpu;
    private final AddressSpace space;
    private long handlesBytes;
    private long nextHandle = 1;
    private final TreeMap<Long, Long> reservations = new TreeMap<>();           // va -> size
    private final AddressTable<Handle> handles = new AddressTable<>();          // live memory, by id (from 1)
    private final TreeMap<Long, Mapping> mappings = new TreeMap<>();

    Vmm(GpuProcess process) {
        this.process = process;
        this.gpu = process.gpu();
        this.space = process.addressSpace();
    }

    /** Bytes of device memory the live handles hold. */
    long handlesBytes() { return handlesBytes; }

    Iterable<Handle> handles() { return handles.valuesInKeyOrder(); }

    /** Whether {@code h} is a live handle of this process. */
    boolean isLive(Handle h) { return handles.get(h.id) == h; }

    /** Bytes of VA the reservations hold. */
    long reservedBytes() {
        long sum = 0;
        for (long size : reservations.values()) sum += size;
        return sum;
    }

    /** See {@link GpuProcess#granularity()}. */
    long granularity() { return Gpu.PAGE; }

    /** See {@link GpuProcess#cuMemAddressReserve(long, long, long)}. */
    long cuMemAddressReserve(long size, long alignment, long addr) {
        if (size <= 0 || size % GpuProcess.HOST_PAGE != 0 || addr % GpuProcess.HOST_PAGE != 0
                || (alignment != 0 && !Bytes.isPowerOfTwo(alignment))) {
            throw new CudaException(CudaError.CUDA_ERROR_INVALID_VALUE, "cuMemAddressReserve(" + size
                    + ", " + alignment + ", " + hex(addr) + "): size and address must be multiples of the "
                    + "host page size " + GpuProcess.HOST_PAGE + ", the alignment a power of two or 0");
        }
        long align = alignment == 0 ? granularity() : Math.max(alignment, GpuProcess.HOST_PAGE);
        long at = process.window().take(size, align, addr);
        if (at < 0) {
            throw new CudaException(CudaError.CUDA_ERROR_OUT_OF_MEMORY, "cuMemAddressReserve(" + size
                    + "): " + process.noRoom());
        }
        reservations.put(at, size);
        count(DriverCall.CU_MEM_ADDRESS_RESERVE, 0);
        return at;
    }

    /**
     * {@code cuMemCreate}: physical memory, not yet mapped anywhere. A size over the device's
     * free memory is refused here, with the message {@code takePages}' refusal has under
     * {@code CUDA_ERROR_OUT_OF_MEMORY}, rather than by catching that refusal and making a second
     * exception of it: expandable segments call this a page at a time, and a replay that runs
     * out does so hundreds of thousands of times (issue 38).
     */
    long cuMemCreate(long size) {
        requireGranular("cuMemCreate", size);
        if (size > gpu.free()) throw overBudget(size);
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

    /** cuMemCreate's refusal of {@code size} over the budget: cheap when the process expects it ({@link CudaException}). */
    private CudaException overBudget(long size) {
        long free = gpu.free();
        Supplier<String> detail = () -> CudaError.cudaErrorMemoryAllocation.name() + ": "
                + gpu.overBudgetDetail("cuMemCreate(" + size + ")", size, free);
        return process.oomsExpected() ? new CudaException(CudaError.CUDA_ERROR_OUT_OF_MEMORY, detail, false)
                : new CudaException(CudaError.CUDA_ERROR_OUT_OF_MEMORY, detail.get());
    }

    // tag::cuMemMap[]
    /**
     * {@code cuMemMap}: maps the whole of {@code handle} at {@code va}, inside a reservation.
     * The PTEs are written with no access: {@code cuMemSetAccess} must follow.
     */
    void cuMemMap(long va, long size, long handle) {
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
        for (int k = 0; k < h.chunks.length; k++) {     // Pte.local(SIZE_2M, frame, NONE, gpu), kept per page
            space.map(va + k * Gpu.PAGE, gpu.ptes().get(h.chunks[k], Access.NONE));
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
    void cuMemSetAccess(long va, long size, Access access) {
        // lab:begin 2.2 "Grant access to a mapped range" see ch02 "The VMM calls"
        if (size <= 0 || va % granularity() != 0 || size % granularity() != 0) {
            throw new CudaException(CudaError.CUDA_ERROR_INVALID_VALUE, "cuMemSetAccess(" + hex(va)
                    + ", " + size + "): not granularity-aligned");
        }
        for (long p = va; p < va + size; p += Gpu.PAGE) {
            if (space.find(p, PageSize.SIZE_2M) == null) {
                throw new CudaException(CudaError.CUDA_ERROR_INVALID_VALUE, "cuMemSetAccess("
                        + hex(va) + ", " + size + "): " + hex(p) + " is not mapped");
            }
        }
        for (long p = va; p < va + size; p += Gpu.PAGE) space.protect(p, PageSize.SIZE_2M, access);
        count(DriverCall.CU_MEM_SET_ACCESS, size / Gpu.PAGE);
        // lab:end
    }
    // end::setAccess[]

    // tag::cuMemUnmap[]
    /**
     * {@code cuMemUnmap}: the range must be made of whole earlier mappings, never a piece of
     * one. Afterwards it is a plain reservation again; a released handle's memory is freed. The
     * call is synchronous (the driver API's note on cuMemUnmap), which the cost model charges.
     */
    void cuMemUnmap(long va, long size) {
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
            process.unmapPages(m.va(), m.size());
            Handle h = handles.get(m.handle());
            h.maps--;
            if (h.released && h.maps == 0) freeHandle(h);
        }
        count(DriverCall.CU_MEM_UNMAP, size / Gpu.PAGE);
    }
    // end::cuMemUnmap[]

    /** See {@link GpuProcess#cuMemRelease(long)}. */
    void cuMemRelease(long handle) {
        Handle h = handles.get(handle);
        if (h == null || h.released) throw new CudaException(CudaError.CUDA_ERROR_INVALID_HANDLE, "cuMemRelease: " + handle);
        h.released = true;
        if (h.maps == 0) freeHandle(h);
        count(DriverCall.CU_MEM_RELEASE, 0);
    }

    /** {@code cuMemAddressFree}: releases a whole reservation that nothing is mapped in. */
    void cuMemAddressFree(long va, long size) {
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
        process.window().release(va);
        count(DriverCall.CU_MEM_ADDRESS_FREE, 0);
    }

    /** At exit: every mapping unmapped, every handle released (reservations go with the window). */
    void teardown() {
        for (Mapping m : new ArrayList<>(mappings.values())) cuMemUnmap(m.va(), m.size());
        for (Handle h : handles.valuesInKeyOrder()) {
            if (!h.released) cuMemRelease(h.id);
        }
    }

    private void freeHandle(Handle h) {
        handles.remove(h.id);
        gpu.givePages(h.chunks);
        h.chunks = null;                                 // the GPU reuses the array
        handlesBytes -= h.size;
    }

    private boolean insideReservation(long va, long size) {
        Map.Entry<Long, Long> r = reservations.floorEntry(va);
        return r != null && va + size <= r.getKey() + r.getValue();
    }

    private void requireGranular(String call, long size) {
        if (size <= 0 || size % granularity() != 0) {
            throw new CudaException(CudaError.CUDA_ERROR_INVALID_VALUE, call + "(" + size
                    + "): size must be a positive multiple of the granularity " + granularity());
        }
    }

    private void count(DriverCall call, long pages) { process.count(call, pages); }
}
