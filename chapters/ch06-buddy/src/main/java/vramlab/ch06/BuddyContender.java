package vramlab.ch06;

import java.util.HashMap;
import java.util.Map;

import vramlab.buddy.BuddyAllocator;
import vramlab.buddy.BuddyOutOfMemoryError;
import vramlab.driver.Gpu;

/**
 * The buddy proposal: each sequence's KV cache in one buddy block, a power of two; when a
 * sequence outgrows it, a block of the next order is allocated and the old one freed after
 * the copy. The pool is the budget, one cudaMalloc at start-up.
 *
 * <p>With a compaction threshold (in thousandths, as Linux's unusable index), an admission
 * that fails while enough bytes are free, with the index at or above the threshold, first
 * compacts the pool (every live sequence is moved, largest first) and then retries: the
 * proposal's "compaction by reordering sequences", with the bytes a real copy would move counted.
 */
final class BuddyContender implements KvContender {
    private final String name;
    private final Setup setup;
    private final int compactAt;
    private final BuddyAllocator buddy;
    private final Map<Integer, Long> address = new HashMap<>();
    private final Map<Integer, Long> tokens = new HashMap<>();
    private long liveTokens;
    private int compactions;
    private long bytesMoved;

    BuddyContender(String name, Setup setup, long minBlockTokens, int compactAt) {
        this(name, setup, minBlockTokens, compactAt, false);
    }

    /** With {@code onDemand}, the pool's pages are committed as live blocks first touch them. */
    BuddyContender(String name, Setup setup, long minBlockTokens, int compactAt, boolean onDemand) {
        this.name = name;
        this.setup = setup;
        this.compactAt = compactAt;
        int maxOrder = 63 - Long.numberOfLeadingZeros(setup.budgetBytes());
        int minOrder = 64 - Long.numberOfLeadingZeros(minBlockTokens * setup.bytesPerToken() - 1);
        long pool = setup.budgetBytes() / (1L << maxOrder) * (1L << maxOrder);
        var process = new Gpu(setup.budgetBytes()).openToyProcess();
        int min = Math.min(minOrder, maxOrder);
        this.buddy = onDemand ? BuddyAllocator.onDemand(process, pool, min, maxOrder)
                              : BuddyAllocator.upfront(process, pool, min, maxOrder);
    }

    BuddyAllocator allocator() { return buddy; }
    int compactions() { return compactions; }
    long bytesMoved() { return bytesMoved; }

    @Override public String name() { return name; }

    @Override
    public boolean admit(int seq, long n) {
        long bytes = n * setup.bytesPerToken();
        if (!buddy.fits(bytes) && shouldCompact(bytes)) compact();
        Long a = tryAlloc(bytes);
        if (a == null) return false;
        address.put(seq, a);
        tokens.put(seq, n);
        liveTokens += n;
        return true;
    }

    private boolean shouldCompact(long bytes) {
        return compactAt >= 0 && buddy.fitsAfterCompaction(bytes)
                && buddy.unusableIndex(buddy.orderFor(bytes)) >= compactAt;
    }

    // tag::compact[]
    private void compact() {
        BuddyAllocator.Compaction c = buddy.compact();
        address.replaceAll((seq, a) -> c.moved().getOrDefault(a, a));
        compactions++;
        bytesMoved += c.bytesMoved();
    }
    // end::compact[]

    @Override
    public boolean grow(int seq, long n) {
        long bytes = n * setup.bytesPerToken();
        long old = address.get(seq);
        if (bytes > 1L << buddy.orderFor(tokens.get(seq) * setup.bytesPerToken())) {
            Long bigger = tryAlloc(bytes);              // both live during the copy
            if (bigger == null) return false;
            buddy.free(old);
            address.put(seq, bigger);
        }
        liveTokens += n - tokens.put(seq, n);
        return true;
    }

    private Long tryAlloc(long bytes) {
        if (bytes > 1L << buddy.maxOrder()) return null;
        try {
            return buddy.alloc(bytes);
        } catch (BuddyOutOfMemoryError e) {
            return null;
        }
    }

    @Override
    public void release(int seq) {
        buddy.free(address.remove(seq));
        liveTokens -= tokens.remove(seq);
    }

    @Override public long requestedBytes() { return liveTokens * setup.bytesPerToken(); }
    @Override public long allocatedBytes() { return buddy.allocated(); }
    @Override public long reservedBytes() { return buddy.reserved(); }
    @Override public long freeBytes() { return buddy.freeBytes(); }
    @Override public long largestServableTokens() { return buddy.largestFreeBlock() / setup.bytesPerToken(); }
    /** Half the largest block: growing into the largest block needs the old half live too. */
    @Override public long maxSequenceTokens() { return (1L << buddy.maxOrder() - 1) / setup.bytesPerToken(); }

    @Override
    public void checkInvariants() {
        buddy.checkInvariants();
        if (buddy.liveBlocks() != address.size()) {
            throw new IllegalStateException(name + ": " + address.size() + " sequences but "
                    + buddy.liveBlocks() + " live blocks\n" + buddy.map());
        }
    }

    @Override
    public String notes() {
        return compactAt < 0 ? "" : compactions + " compactions moved " + bytesMoved / (1L << 20) + " MiB";
    }
}
