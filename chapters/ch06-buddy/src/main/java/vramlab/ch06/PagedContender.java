package vramlab.ch06;

import vramlab.driver.Gpu;
import vramlab.kv.KvBlockPool;
import vramlab.kv.KvCacheManager;

/**
 * vLLM's answer: the budget cut into equal blocks of {@code blockSize} tokens, one cudaMalloc
 * at start-up, block tables per sequence. A sequence grows one block at a time, anywhere.
 */
final class PagedContender implements KvContender {
    private final String name;
    private final Setup setup;
    private final KvCacheManager kv;

    PagedContender(String name, Setup setup, int blockSize) {
        this.name = name;
        this.setup = setup;
        long blockBytes = blockSize * setup.bytesPerToken();
        int numBlocks = (int) (setup.budgetBytes() / blockBytes);
        this.kv = new KvCacheManager(new KvBlockPool(new Gpu(setup.budgetBytes()).openToyProcess(),
                numBlocks, blockSize, blockBytes));
    }

    KvCacheManager manager() { return kv; }

    @Override public String name() { return name; }
    @Override public boolean admit(int seq, long n) { return kv.allocateSlots(key(seq), n); }
    @Override public boolean grow(int seq, long n) { return kv.allocateSlots(key(seq), n - kv.tokens(key(seq))); }
    @Override public void release(int seq) { kv.free(key(seq)); }
    @Override public long requestedBytes() { return kv.tokensHeld() * setup.bytesPerToken(); }
    @Override public long allocatedBytes() { return kv.slotsHeld() * setup.bytesPerToken(); }
    @Override public long reservedBytes() { return kv.pool().reserved(); }

    /** Free blocks only: the null block is neither free nor live. */
    @Override public long freeBytes() { return (long) kv.pool().numFreeBlocks() * kv.pool().blockBytes(); }

    @Override public long largestServableTokens() { return kv.largestServableTokens(); }
    @Override public long maxSequenceTokens() { return (long) kv.pool().usableBlocks() * kv.blockSize(); }
    @Override public void checkInvariants() { kv.checkInvariants(); }

    private static String key(int seq) { return "s" + seq; }
}
