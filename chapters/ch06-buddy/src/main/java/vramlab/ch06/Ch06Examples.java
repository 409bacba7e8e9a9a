package vramlab.ch06;

import static vramlab.units.Bytes.gib;
import static vramlab.units.Bytes.kib;
import static vramlab.units.Bytes.mib;
import static vramlab.units.Bytes.readable;

import vramlab.buddy.BuddyAllocator;
import vramlab.driver.Gpu;
import vramlab.figures.ExampleTable;
import vramlab.kv.KvBlockPool;
import vramlab.kv.KvCacheManager;

/**
 * The worked example of each of chapter 06's graded steps, computed by the reference when the
 * site is built (the notes include {@code {generated}/step-6.N.adoc}).
 */
public final class Ch06Examples {
    private Ch06Examples() {}

    /** The mechanics pool of the notes: 16 MiB, blocks of 1 MiB (order 20) to 16 MiB (order 24). */
    static BuddyAllocator pool() {
        return BuddyAllocator.upfront(new Gpu(gib(1)).openToyProcess(), mib(16), 20, 24);
    }

    /** Step 6.1: the order a size gets. */
    public static String example6_1() {
        BuddyAllocator b = pool();
        ExampleTable t = ExampleTable.of("6.1", "orderFor on a pool of orders 20 (1 MiB) to 24 (16 MiB)",
                "size", "order", "block");
        for (long s : new long[] {1, kib(700), mib(1), mib(1) + 1, mib(3), mib(16)}) {
            int o = b.orderFor(s);
            t.row(readable(s), o, readable(1L << o));
        }
        String refused;
        try {
            b.orderFor(mib(16) + 1);
            refused = "accepted";
        } catch (IllegalArgumentException e) {
            refused = e.getMessage();
        }
        return t.then("The smallest power of two that holds the size, never below the smallest block. "
                + "Larger than the largest block is refused: `" + refused + "`.").toString();
    }

    /** Step 6.2: buddies, one bit apart. */
    public static String example6_2() {
        ExampleTable t = ExampleTable.of("6.2", "buddyOf(offset, order), offsets from the pool's base",
                "offset", "order", "buddy");
        for (long[] c : new long[][] {{0, 20}, {mib(1), 20}, {mib(2), 21}, {mib(4), 21}, {mib(8), 23}, {mib(12), 22}}) {
            t.row(readable(c[0]), c[1], readable(BuddyAllocator.buddyOf(c[0], (int) c[1])));
        }
        return t.then("The buddy of a block of order o differs from it in bit o of its offset, and only "
                + "there.").toString();
    }

    /** Step 6.3: allocations split the pool down. */
    public static String example6_3() {
        BuddyAllocator b = pool();
        ExampleTable t = ExampleTable.of("6.3", "allocations in a fresh 16 MiB pool", "call", "returns offset",
                "buddyinfo after (free blocks per order, 1 MiB up)");
        t.row("=(fresh)", "", b.buddyinfo().trim());
        for (long s : new long[] {mib(3), mib(1), mib(2)}) {
            long a = b.alloc(s);
            t.row("alloc(" + readable(s) + ")", "+" + readable(a - b.base()), b.buddyinfo().trim());
        }
        return t.then("A request splits the smallest free block that holds it, keeping the lower half at "
                + "each step and putting the upper half on the free list of its order.").toString();
    }

    /** Step 6.4: frees merge back up. */
    public static String example6_4() {
        BuddyAllocator b = pool();
        long x = b.alloc(mib(3));
        long y = b.alloc(mib(1));
        long z = b.alloc(mib(2));
        ExampleTable t = ExampleTable.of("6.4", "frees after allocating 3, 1 and 2 MiB", "call",
                "buddyinfo after (free blocks per order, 1 MiB up)");
        t.row("=(the three blocks live)", b.buddyinfo().trim());
        for (long[] c : new long[][] {{y, 1}, {x, 3}, {z, 2}}) {
            b.free(c[0]);
            t.row("free(+" + readable(c[0] - b.base()) + ")  (the " + c[1] + " MiB request)", b.buddyinfo().trim());
        }
        return t.then("A freed block merges with its buddy while the buddy is free and of the same order, one "
                + "order at a time; after the last free, the pool is one 16 MiB block again.").toString();
    }

    /** Step 6.5: buddyinfo's line. */
    public static String example6_5() {
        BuddyAllocator b = pool();
        b.alloc(mib(1));
        ExampleTable t = ExampleTable.of("6.5", "buddyinfo after one 1 MiB allocation", "call", "returns");
        t.row("buddyinfo()", b.buddyinfo().trim());
        return t.then("One count per order, smallest first, as /proc/buddyinfo prints nr_free for each "
                + "order of a zone.").toString();
    }

    static KvCacheManager kv(int blocks) {
        return new KvCacheManager(new KvBlockPool(new Gpu(gib(1)).openToyProcess(), blocks,
                KvBlockPool.DEFAULT_BLOCK_SIZE, kib(64)));
    }

    /** Step 6.6: blocks for n tokens. */
    public static String example6_6() {
        KvCacheManager m = kv(8);
        ExampleTable t = ExampleTable.of("6.6", "blocksNeeded with 16 tokens a block", "tokens", "blocks");
        for (long n : new long[] {0, 1, 16, 17, 32, 100}) t.row(n, m.blocksNeeded(n));
        return t.then("ceil(tokens / 16): the last block is partly empty unless the count is a multiple of "
                + "16.").toString();
    }

    /** Step 6.7: all the blocks or none. */
    public static String example6_7() {
        KvCacheManager m = kv(8);
        ExampleTable t = ExampleTable.of("6.7", "allocateSlots on a pool of 7 usable blocks", "call", "returns",
                "blocks held by the request", "free blocks after");
        Object[][] calls = {{"a", 20L}, {"a", 12L}, {"b", 70L}, {"b", 40L}};
        for (Object[] c : calls) {
            boolean ok = m.allocateSlots((String) c[0], (Long) c[1]);
            t.row("allocateSlots(\"" + c[0] + "\", " + c[1] + ")", ok, m.blocks((String) c[0]).toString(),
                    m.pool().numFreeBlocks());
        }
        return t.then("A call allocates only the blocks the request's new total needs beyond those it holds "
                + "(20 then 12 more tokens: 2 blocks, then none). A request that needs more blocks than are free "
                + "gets none, and nothing changes.").toString();
    }

    /** Step 6.8: blocks go back in reverse. */
    public static String example6_8() {
        KvCacheManager m = kv(8);
        m.allocateSlots("a", 40);
        String held = m.blocks("a").toString();
        int freeAfterA = m.pool().numFreeBlocks();
        m.allocateSlots("c", 64);
        String c = m.blocks("c").toString();
        int freeAfterC = m.pool().numFreeBlocks();
        m.free("a");
        m.allocateSlots("b", 16);
        ExampleTable t = ExampleTable.of("6.8", "free, then the next allocation, on 7 usable blocks", "call",
                "blocks of the request", "free blocks after");
        t.row("allocateSlots(\"a\", 40)", held, freeAfterA);
        t.row("allocateSlots(\"c\", 64)", c, freeAfterC);
        t.row("free(\"a\"), then allocateSlots(\"b\", 16)", m.blocks("b").toString(), m.pool().numFreeBlocks());
        return t.then("Request a's blocks go back to the free queue in reverse order, last block first: with "
                + "nothing else free, the next request is served the block a filled last.").toString();
    }
}
