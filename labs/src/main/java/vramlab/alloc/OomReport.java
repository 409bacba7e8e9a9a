package vramlab.alloc;

/**
 * The allocator's state when an allocation fails: what a policy needs to write its message.
 *
 * @param requested       the caller's unrounded size
 * @param rounded         the size after the policy's rounding
 * @param tried           the segment the allocator tried to get from the driver ("Tried to allocate")
 * @param pool            the pool the request belongs to
 * @param deviceTotal     the device's total memory
 * @param deviceFree      the device's free memory, as cudaMemGetInfo reports it
 * @param allocated       bytes in live blocks
 * @param reserved        bytes in segments
 * @param largestFreeBlock the largest cached free block, in either pool
 */
public record OomReport(long requested, long rounded, long tried, PoolKind pool,
                        long deviceTotal, long deviceFree, long allocated, long reserved,
                        long largestFreeBlock) {

    /** Cached bytes no live block uses: {@code reserved - allocated}. */
    public long reservedButUnallocated() { return reserved - allocated; }
}
