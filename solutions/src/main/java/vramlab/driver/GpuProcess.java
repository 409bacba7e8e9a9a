package vramlab.driver;

import java.util.HashMap;
import java.util.Map;

import vramlab.units.Bytes;

/**
 * One process's view of a GPU: its own virtual address space, its context, and the driver
 * calls it makes. {@code cudaMalloc} reserves VA and maps physical pages at 2 MiB granularity;
 * the VMM calls ({@code cuMem*}) do the same steps one at a time.
 *
 * <p>Simplification (until the GMMU sits below): VA is handed out by a bump pointer that is
 * never reused, which is safe because a 49-bit space is never the scarce side.
 */
public final class GpuProcess {
    /** Where this process's device allocations start (a typical CUDA VA on x86-64 Linux). */
    public static final long VA_BASE = 0x7f0a00000000L;

    private final Gpu gpu;
    private final int pid;
    private final String name;
    long contextBytes;
    boolean closed;
    private long nextVa = VA_BASE;
    private long mappedBytes;
    private long handlesBytes;
    private long nextHandle = 1;
    private long cudaMallocCalls;
    private final Map<Long, Long> mallocs = new HashMap<>();          // ptr -> size mapped
    private final Map<Long, Long> reservations = new HashMap<>();     // va -> size
    private final Map<Long, Long> handles = new HashMap<>();          // handle -> size
    private final Map<Long, long[]> mappings = new HashMap<>();       // va -> {size, handle}

    GpuProcess(Gpu gpu, int pid, String name) {
        this.gpu = gpu;
        this.pid = pid;
        this.name = name;
    }

    public Gpu gpu() { return gpu; }
    public int pid() { return pid; }
    public String name() { return name; }
    public long contextBytes() { return contextBytes; }

    /** Bytes of device memory this process holds through cudaMalloc and cuMemCreate. */
    public long mappedBytes() { return mappedBytes + handlesBytes; }

    /** What nvidia-smi shows for this process: its allocations plus its context. */
    public long physicalBytes() { return mappedBytes + handlesBytes + contextBytes; }

    public long cudaMallocCalls() { return cudaMallocCalls; }

    /** {@code cudaMemGetInfo}: free and total bytes of the device, as every process sees them. */
    public MemInfo cudaMemGetInfo() { return new MemInfo(gpu.free(), gpu.capacity()); }

    /**
     * {@code cudaMalloc}: a fresh VA range backed by physical pages, rounded up to 2 MiB.
     *
     * @return the device pointer
     * @throws CudaException {@code cudaErrorMemoryAllocation} when the pages are not there
     */
    public long cudaMalloc(long size) {
        checkOpen();
        if (size <= 0) throw new CudaException(CudaError.cudaErrorInvalidValue, "cudaMalloc(" + size + ")");
        long pages = Bytes.alignUp(size, Gpu.PAGE);
        gpu.take(pages, "cudaMalloc(" + size + ")");
        long ptr = nextVa;
        nextVa += pages;
        mallocs.put(ptr, pages);
        mappedBytes += pages;
        cudaMallocCalls++;
        return ptr;
    }

    /** {@code cudaFree}: unmaps the allocation that starts at {@code ptr} and returns its pages. */
    public void cudaFree(long ptr) {
        checkOpen();
        Long pages = mallocs.remove(ptr);
        if (pages == null) {
            throw new CudaException(CudaError.cudaErrorInvalidDevicePointer,
                    "cudaFree(0x" + Long.toHexString(ptr) + "): not an allocation of process " + pid);
        }
        mappedBytes -= pages;
        gpu.give(pages);
    }

    /** The size cudaMalloc mapped at {@code ptr}, or -1 when {@code ptr} is not an allocation. */
    public long allocationSize(long ptr) {
        Long s = mallocs.get(ptr);
        return s == null ? -1 : s;
    }

    /** The VMM granularity {@code cuMemGetAllocationGranularity} reports: 2 MiB. */
    public long granularity() { return Gpu.PAGE; }

    /** {@code cuMemAddressReserve}: VA only, no physical memory. */
    public long cuMemAddressReserve(long size) {
        checkOpen();
        requireGranular("cuMemAddressReserve", size);
        long va = nextVa;
        nextVa += size;
        reservations.put(va, size);
        return va;
    }

    /** {@code cuMemCreate}: physical memory, not yet mapped anywhere. */
    public long cuMemCreate(long size) {
        checkOpen();
        requireGranular("cuMemCreate", size);
        try {
            gpu.take(size, "cuMemCreate(" + size + ")");
        } catch (CudaException e) {
            throw new CudaException(CudaError.CUDA_ERROR_OUT_OF_MEMORY, e.getMessage());
        }
        long h = nextHandle++;
        handles.put(h, size);
        handlesBytes += size;
        return h;
    }

    /** {@code cuMemMap}: maps the whole of {@code handle} at {@code va}, inside a reservation. */
    public void cuMemMap(long va, long size, long handle) {
        checkOpen();
        Long hs = handles.get(handle);
        if (hs == null) throw new CudaException(CudaError.CUDA_ERROR_INVALID_HANDLE, "cuMemMap: handle " + handle);
        if (hs != size) {
            throw new CudaException(CudaError.CUDA_ERROR_INVALID_VALUE,
                    "cuMemMap: size " + size + " is not the handle's size " + hs);
        }
        if (mappings.containsKey(va)) {
            throw new CudaException(CudaError.CUDA_ERROR_ALREADY_MAPPED, "cuMemMap: 0x" + Long.toHexString(va));
        }
        mappings.put(va, new long[] {size, handle});
    }

    /** {@code cuMemUnmap}: removes the mapping that starts at {@code va}, which must match whole. */
    public void cuMemUnmap(long va, long size) {
        checkOpen();
        long[] m = mappings.get(va);
        if (m == null || m[0] != size) {
            throw new CudaException(CudaError.CUDA_ERROR_INVALID_VALUE,
                    "cuMemUnmap(0x" + Long.toHexString(va) + ", " + size + "): not one whole mapping");
        }
        mappings.remove(va);
    }

    /** {@code cuMemRelease}: gives the physical memory of {@code handle} back to the driver. */
    public void cuMemRelease(long handle) {
        checkOpen();
        Long size = handles.remove(handle);
        if (size == null) throw new CudaException(CudaError.CUDA_ERROR_INVALID_HANDLE, "cuMemRelease: " + handle);
        handlesBytes -= size;
        gpu.give(size);
    }

    /** {@code cuMemAddressFree}: releases a VA reservation. */
    public void cuMemAddressFree(long va, long size) {
        checkOpen();
        Long s = reservations.get(va);
        if (s == null || s != size) {
            throw new CudaException(CudaError.CUDA_ERROR_INVALID_VALUE,
                    "cuMemAddressFree(0x" + Long.toHexString(va) + ", " + size + "): not a reservation");
        }
        reservations.remove(va);
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

    /** {@code cudaMemGetInfo}'s answer. */
    public record MemInfo(long free, long total) {}
}
