package vramlab.contest;

/**
 * The capstone's seam (chapter 8, the GPU malloc lab): a device allocator the contest replays
 * workloads through. It gets its memory only from the kit's simulated driver, the
 * {@link vramlab.driver.GpuProcess} it was made on ({@code cudaMalloc}/{@code cudaFree}, or the
 * VMM calls {@code cuMemAddressReserve}, {@code cuMemCreate}, {@code cuMemMap},
 * {@code cuMemSetAccess}, {@code cuMemUnmap}, {@code cuMemRelease}), and hands out device
 * addresses, as CS:APP's malloc lab asks of {@code mm_malloc}/{@code mm_free}.
 *
 * <p>The contest checks every call from the outside (the GMMU's page tables, the driver's
 * counters): an entry is never asked to report on itself, except {@link #blockSize}, which the
 * checker holds to the rules (at least the request, inside driver memory, overlapping no other).
 */
// tag::seam[]
public interface DeviceAllocator {
    /** Every block's address and size are multiples of this (the kit's cudaMalloc slice, 512 B). */
    long ALIGNMENT = 512;

    /** The name the leaderboard shows. */
    String name();

    /**
     * A block of at least {@code size} bytes for {@code stream}, {@link #ALIGNMENT}-aligned, in
     * memory this allocator got from the driver and overlapping no live block.
     *
     * @return the block's device address
     * @throws RuntimeException when the card cannot serve it: the driver's
     *     {@link vramlab.driver.CudaException} (out of memory) propagated, or the kit's own
     *     {@link vramlab.alloc.CudaOutOfMemoryError} or {@link vramlab.buddy.BuddyOutOfMemoryError}
     */
    long alloc(long size, int stream);

    /** Gives back the live block at {@code address} (an address {@link #alloc} returned). */
    void free(long address);

    /** The size of the live block at {@code address}: what it set aside, at least its request. */
    long blockSize(long address);

    /**
     * {@code torch.cuda.empty_cache()}: gives every cached byte no live block needs back to the
     * driver.
     *
     * @return the bytes given back
     */
    long emptyCache();
}
// end::seam[]
