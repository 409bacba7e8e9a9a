package vramlab.alloc;

import java.util.ArrayList;
import java.util.List;

import vramlab.driver.CudaException;
import vramlab.driver.Gpu;
import vramlab.driver.GpuProcess;
import vramlab.gmmu.Access;
import vramlab.units.Bytes;

/**
 * The simplified (toy) sketch of expandable segments: one large VA arena reserved up front; each
 * allocation maps fresh 2 MiB pages at the arena's bump pointer, and each free unmaps them at
 * once, so physical memory goes back to the driver at free time and a later request always
 * finds contiguous VA.
 *
 * <p>Simplifications, all labelled in the notes: VA is never reused (PyTorch reuses the
 * lowest free run), each allocation has pages of its own (PyTorch splits pages between
 * blocks), and the page is 2 MiB for every request (PyTorch: 20 MiB pages in the large pool).
 */
public final class SimExp {
    /**
     * The arena is twice the device. PyTorch reserves 1.125x (ExpandableSegment's constructor in
     * c10/cuda/CUDACachingAllocator.cpp: {@code numSegments(totalGlobalMem + totalGlobalMem / 8)};
     * the kit's {@link ExpandableSegment} does the same). The twin reserves more because it never
     * reuses VA (the first simplification above): its bump pointer passes freed pages, so it needs
     * room for a scenario's whole history, not only for what is mapped at once.
     */
    private static final long ARENA_FACTOR = 2;

    private final GpuProcess process;
    private final long arena;
    private final long arenaSize;
    private final ToyPolicy rounding = new ToyPolicy();
    private long top;                                   // the bump pointer, an offset in the arena

    public SimExp(long device) { this(new Gpu(device).openToyProcess()); }

    public SimExp(GpuProcess process) {
        this.process = process;
        this.arenaSize = Bytes.alignUp(process.gpu().capacity() * ARENA_FACTOR, Gpu.PAGE);
        this.arena = process.cuMemAddressReserve(arenaSize);
    }

    /** One allocation: where it starts in the arena, and the physical pages mapped under it. */
    public record Mapping(long offset, long size, long requested, List<Long> pages) {
        @Override
        public String toString() {
            return "VA +" + Bytes.toyM(offset) + " " + Bytes.toyM(size) + " mapped (" + requested + " B asked)";
        }
    }

    /** {@code SimExp: 24 MiB mapped, next VA at +40M of an 80 MiB arena}. */
    @Override
    public String toString() {
        return "SimExp: " + Bytes.toyMiB(mapped()) + " mapped, next VA at +" + Bytes.toyM(top) + " of a "
                + Bytes.toyMiB(arenaSize) + " arena";
    }

    /** Bytes of physical memory mapped now: the driver's count for this process. */
    public long mapped() { return process.mappedBytes(); }

    // tag::alloc[]
    /**
     * Maps fresh pages for {@code size} bytes at the top of the arena.
     *
     * @throws CudaOutOfMemoryError "physical exhausted" when the driver has no pages left
     */
    public Mapping alloc(long size) {
        // lab:begin 4.2 "SimExp: map pages on demand" see ch04 "The expandable twin"
        long want = Bytes.alignUp(rounding.roundSize(size), Gpu.PAGE);  // the page tax remains
        if (top + want > arenaSize) throw new IllegalStateException("SimExp: arena of " + arenaSize + " B is full");
        List<Long> pages = new ArrayList<>();
        try {
            for (long off = 0; off < want; off += Gpu.PAGE) {
                long page = process.cuMemCreate(Gpu.PAGE);
                pages.add(page);
                process.cuMemMap(arena + top + off, Gpu.PAGE, page);
                process.cuMemSetAccess(arena + top + off, Gpu.PAGE, Access.READWRITE);
            }
        } catch (CudaException e) {
            unmap(top, pages);                              // give back what this call took
            throw new CudaOutOfMemoryError("physical exhausted: " + Bytes.toyMiB(mapped())
                    + " mapped of " + Bytes.toyMiB(process.gpu().capacity()), null);
        }
        Mapping m = new Mapping(top, want, size, pages);
        top += want;                                        // VA bump: contiguous, never scarce
        return m;
        // lab:end
    }
    // end::alloc[]

    // tag::free[]
    /** Unmaps the pages of {@code m} and releases them to the driver now. */
    public void free(Mapping m) {
        // lab:begin 4.3 "SimExp: return pages at free" see ch04 "The expandable twin"
        unmap(m.offset(), m.pages());
        // lab:end
    }
    // end::free[]

    private void unmap(long offset, List<Long> pages) {
        for (int i = 0; i < pages.size(); i++) {
            long va = arena + offset + i * Gpu.PAGE;
            process.cuMemUnmap(va, Gpu.PAGE);
            process.cuMemRelease(pages.get(i));
        }
    }
}
