package vramlab.ch06;

import java.util.HashMap;
import java.util.Map;

import vramlab.alloc.Block;
import vramlab.alloc.CachingAllocator;
import vramlab.alloc.CudaOutOfMemoryError;
import vramlab.alloc.Policy;
import vramlab.driver.Gpu;
import vramlab.units.Bytes;

/**
 * Each sequence's KV cache as one contiguous tensor from a caching allocator, on a GPU whose
 * memory is the budget. When a sequence outgrows its tensor, a larger one is allocated (to
 * the next multiple of {@code growTokens}) and the old one freed after the copy, as a
 * framework that concatenates its cache does.
 *
 * <p>Simplification: all layers' KV of a sequence in one tensor; real frameworks keep one or
 * two per layer, which makes more, smaller allocations of the same pattern.
 */
final class CachingContender implements KvContender {
    private final String name;
    private final Setup setup;
    private final long growTokens;
    private final Gpu gpu;
    private final CachingAllocator allocator;
    private final Map<Integer, Block> blocks = new HashMap<>();
    private final Map<Integer, Long> tokens = new HashMap<>();
    private long liveTokens;

    CachingContender(String name, Policy policy, Setup setup, long growTokens) {
        this.name = name;
        this.setup = setup;
        this.growTokens = growTokens;
        this.gpu = new Gpu(setup.budgetBytes());
        this.allocator = new CachingAllocator(gpu.openToyProcess(), policy);
    }

    @Override public String name() { return name; }

    @Override
    public boolean admit(int seq, long n) {
        Block b = tryAlloc(n);
        if (b == null) return false;
        blocks.put(seq, b);
        tokens.put(seq, n);
        liveTokens += n;
        return true;
    }

    @Override
    public boolean grow(int seq, long n) {
        Block old = blocks.get(seq);
        if (n * setup.bytesPerToken() > old.requested()) {
            Block bigger = tryAlloc(n);                 // both live during the copy
            if (bigger == null) return false;
            allocator.free(old);
            blocks.put(seq, bigger);
        }
        liveTokens += n - tokens.put(seq, n);
        return true;
    }

    /**
     * PyTorch, when cudaMalloc fails, releases its cached free segments and tries once more
     * before raising ({@code release_cached_blocks} in {@code CUDACachingAllocator.cpp}); the
     * toy allocator leaves that to its caller, so this contender does it.
     */
    private Block tryAlloc(long n) {
        long bytes = Bytes.alignUp(n, growTokens) * setup.bytesPerToken();
        try {
            return allocator.alloc(bytes);
        } catch (CudaOutOfMemoryError e) {
            if (allocator.emptyCache() == 0) return null;
        }
        try {
            return allocator.alloc(bytes);
        } catch (CudaOutOfMemoryError e) {
            return null;
        }
    }

    @Override
    public void release(int seq) {
        allocator.free(blocks.remove(seq));
        liveTokens -= tokens.remove(seq);
    }

    @Override public long requestedBytes() { return liveTokens * setup.bytesPerToken(); }
    @Override public long allocatedBytes() { return allocator.allocated(); }
    @Override public long reservedBytes() { return allocator.reserved(); }
    @Override public long freeBytes() { return setup.budgetBytes() - allocator.allocated(); }

    /** A cached block, or a new segment from what the driver has left (approximately: rounding aside). */
    @Override
    public long largestServableTokens() {
        return Math.max(allocator.largestFreeBlock(), gpu.free()) / setup.bytesPerToken();
    }

    /** About half the budget: regrowing needs the old tensor and the new one live at once. */
    @Override
    public long maxSequenceTokens() { return setup.budgetBytes() / 2 / setup.bytesPerToken() - growTokens; }

    @Override
    public void checkInvariants() {
        allocator.checkInvariants();
        gpu.checkInvariants();
    }
}
