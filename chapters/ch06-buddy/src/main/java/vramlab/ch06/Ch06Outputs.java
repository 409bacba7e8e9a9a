package vramlab.ch06;

import static vramlab.units.Bytes.formatSize;
import static vramlab.units.Bytes.gib;
import static vramlab.units.Bytes.kib;
import static vramlab.units.Bytes.mib;
import static vramlab.units.Bytes.readable;

import java.util.ArrayList;
import java.util.List;

import vramlab.buddy.BuddyAllocator;
import vramlab.buddy.BuddyOutOfMemoryError;
import vramlab.driver.Gpu;
import vramlab.kv.KvBlockPool;
import vramlab.kv.KvCacheManager;

/**
 * The simulator output the chapter's prose discusses: worked examples and the runs that refute
 * its common misconceptions. The site calls each {@code outputXxx()} when it is built and the
 * notes include {@code {generated}/output-xxx.txt}; no number in them is typed in.
 */
public final class Ch06Outputs {
    private Ch06Outputs() {}

    static BuddyAllocator pool16() {
        return BuddyAllocator.upfront(new Gpu(gib(1)).openToyProcess(), mib(16), 20, 24);
    }

    static KvCacheManager paged(int numBlocks) {
        return new KvCacheManager(new KvBlockPool(new Gpu(gib(1)).openToyProcess(), numBlocks,
                KvBlockPool.DEFAULT_BLOCK_SIZE, kib(128) * KvBlockPool.DEFAULT_BLOCK_SIZE));
    }

    /** The KV bytes one token costs for each preset, per 16-token block, and blocks in 1 GiB. */
    public static String outputKvBytes() {
        StringBuilder sb = new StringBuilder(String.format("%-12s %6s %8s %8s %6s %12s %12s %12s%n", "model",
                "layers", "kv heads", "head dim", "bytes", "per token", "per block", "blocks/GiB"));
        for (ModelShape m : ModelShape.PRESETS) {
            long token = m.kvBytesPerToken(), block = token * KvBlockPool.DEFAULT_BLOCK_SIZE;
            sb.append(String.format("%-12s %6d %8d %8d %6d %12s %12s %12d%n", m.name(), m.layers(), m.kvHeads(),
                    m.headDim(), m.dtypeBytes(), formatSize(token), formatSize(block), gib(1) / block));
        }
        return sb.append("per token = 2 (key and value) x layers x kv heads x head dim x bytes per element\n")
                 .toString();
    }

    /** Sixteen 1 MiB blocks, and the eight freed in adjacent pairs that are not buddies. */
    public static String outputNeighboursNotBuddies() {
        BuddyAllocator b = neighboursNotBuddies();
        StringBuilder sb = new StringBuilder("16 x alloc(1 MiB), then free blocks 1,2 5,6 9,10 13,14:\n");
        sb.append(b.map()).append('\n').append(b.buddyinfo());
        sb.append("free ").append(readable(b.freeBytes())).append(", largest free block ")
          .append(readable(b.largestFreeBlock())).append(", unusable index for 2 MiB (order 21): ")
          .append(b.unusableIndex(21)).append("/1000\n");
        try {
            b.alloc(mib(2));
            sb.append("alloc(2 MiB): OK\n");
        } catch (BuddyOutOfMemoryError e) {
            sb.append("alloc(2 MiB): refused\n");
        }
        sb.append("would fit after compaction: ").append(b.fitsAfterCompaction(mib(2))).append('\n');
        return sb.toString();
    }

    /** The pool of {@link #outputNeighboursNotBuddies} (and {@link Ch06Figures#figureCheckerboard}) after its frees. */
    static BuddyAllocator neighboursNotBuddies() {
        BuddyAllocator b = pool16();
        List<Long> at = new ArrayList<>();
        for (int i = 0; i < 16; i++) at.add(b.alloc(mib(1)));
        for (int i : FREED_NEIGHBOURS) b.free(at.get(i));
        b.checkInvariants();
        return b;
    }

    /** The blocks the misconception frees: adjacent pairs that straddle buddy boundaries. */
    static final int[] FREED_NEIGHBOURS = {1, 2, 5, 6, 9, 10, 13, 14};

    /** Power-of-two rounding: the worst single request, and the average over uniform sizes. */
    public static String outputRoundingWaste() {
        BuddyAllocator b = BuddyAllocator.upfront(new Gpu(gib(1)).openToyProcess(), kib(1), 0, 10);
        StringBuilder sb = new StringBuilder();
        for (long s : new long[] {512, 513, 700, 1000, 1024}) {
            long block = 1L << b.orderFor(s);
            sb.append(String.format("request %5d B -> block %5d B, %5.1f%% of the block wasted%n", s, block,
                    100.0 * (block - s) / block));
        }
        long asked = 0, given = 0;
        for (long s = 1; s <= 1024; s++) {
            asked += s;
            given += 1L << b.orderFor(s);
        }
        sb.append(String.format("every size 1..1024 B once: asked %d B, given %d B, %.2f%% wasted, given/asked %.3f%n",
                asked, given, 100.0 * (given - asked) / given, (double) given / asked));
        return sb.toString();
    }

    /** Paged blocks waste only the last block's tail, which matters for short sequences. */
    public static String outputLastBlockTail() {
        StringBuilder sb = new StringBuilder(String.format("%8s %7s %7s %8s %7s%n", "tokens", "blocks", "slots",
                "unused", "waste"));
        for (long n : new long[] {1, 15, 16, 17, 100, 1000, 4000}) {
            KvCacheManager m = paged(512);
            m.allocateSlots("r", n);
            long slots = m.slotsHeld(), unused = slots - m.tokensHeld();
            sb.append(String.format("%8d %7d %7d %8d %6.1f%%%n", n, m.blocks("r").size(), slots, unused,
                    100.0 * unused / slots));
        }
        return sb.toString();
    }

    /** A pool of 8 blocks serves 7: block 0 is the null block. */
    public static String outputNullBlock() {
        KvCacheManager m = paged(8);
        StringBuilder sb = new StringBuilder("pool of " + m.pool().numBlocks() + " blocks of 16 tokens, "
                + m.pool().numFreeBlocks() + " in the free queue\n");
        sb.append("allocate_slots(a, 128 tokens = 8 blocks): ").append(m.allocateSlots("a", 128)).append('\n');
        sb.append("allocate_slots(a, 112 tokens = 7 blocks): ").append(m.allocateSlots("a", 112))
          .append(", blocks ").append(m.blocks("a")).append('\n');
        sb.append("allocate_slots(b, 1 token): ").append(m.allocateSlots("b", 1)).append('\n');
        return sb.toString();
    }

    /** A freed prompt's blocks stay findable until the queue hands them to someone else. */
    public static String outputFreedPrefixStaysCached() {
        KvCacheManager m = paged(9);
        List<Integer> prompt = new ArrayList<>();
        for (int i = 0; i < 64; i++) prompt.add(1000 + i);
        StringBuilder sb = new StringBuilder("pool of 9 blocks (8 usable); prompt P of 64 tokens = 4 full blocks\n");
        m.allocatePrompt("A", prompt);
        sb.append("A admitted with P: blocks ").append(m.blocks("A")).append('\n');
        m.free("A");
        sb.append("A finished: free queue ").append(m.pool().numFreeBlocks()).append(" blocks, ")
          .append(m.pool().cachedBlocks()).append(" still cached\n");
        m.allocatePrompt("B", prompt);
        sb.append("B admitted with P: blocks ").append(m.blocks("B")).append(", prefix hit ")
          .append(m.prefixHitTokens()).append(" tokens (one block recomputed)\n");
        m.free("B");
        long before = m.prefixHitTokens();
        m.allocateSlots("C", 8 * 16);
        sb.append("C takes all 8 blocks, evicting the cached ones; then C finishes\n");
        m.free("C");
        m.allocatePrompt("D", prompt);
        sb.append("D admitted with P: prefix hit ").append(m.prefixHitTokens() - before).append(" tokens\n");
        m.checkInvariants();
        return sb.toString();
    }
}
