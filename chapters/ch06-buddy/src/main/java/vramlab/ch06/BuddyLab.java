package vramlab.ch06;

import static vramlab.units.Bytes.gib;
import static vramlab.units.Bytes.mib;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

import vramlab.buddy.BuddyAllocator;
import vramlab.buddy.BuddyOutOfMemoryError;
import vramlab.driver.Gpu;
import vramlab.kit.Scenario;
import vramlab.kv.KvBlockPool;
import vramlab.kv.KvCacheManager;
import vramlab.units.Bytes;

/**
 * The chapter's lab: buddy mechanics on a small pool, the buddy's guarantee and its counterexample,
 * compaction, the reference points and the side-by-side comparison. Every number printed is
 * the simulators'.
 *
 * <p>Run it three ways: {@code ./vramlab lab buddy}, this class's {@code main}, or step by
 * step in {@code ./vramlab jshell buddy}.
 */
public final class BuddyLab {
    private BuddyLab() {}

    public static void main(String[] args) { run(System.out); }

    public static void run(PrintStream out) { Scenario.runAll(out, scenarios()); }

    /** The lab's scenarios, in the notes' order; each runs on its own (see {@link Scenario}). */
    public static List<Scenario> scenarios() {
        return List.of(
                new Scenario("Buddy mechanics: a 16 MiB pool of 1 MiB minimum blocks", BuddyLab::mechanics),
                new Scenario("The buddy's guarantee, and half a pool free that cannot serve 128 MiB",
                        BuddyLab::counterexample),
                new Scenario("Paged blocks can share: 64 requests with one 1024-token system prompt",
                        BuddyLab::prefixSharing),
                new Scenario("Monitoring the buddy's free blocks per order while it serves", BuddyLab::monitoring),
                new Scenario("Reference points: measured beside expected",
                        out -> ReferencePoints.measure(1).forEach(out::println)),
                new Scenario("The same workload, four ways (seed 1)", out -> {
                    Comparison c = Comparison.standard(1);
                    List<Result> results = c.run(false);
                    out.print(c.table(results));
                    out.print(Comparison.legend());
                    out.print(c.timeline(results, 72));
                }),
                Scenario.afterword(BuddyLab::whatToNotice));
    }

    // tag::mechanics[]
    /** Three allocations and two frees on a 16 MiB pool, with the map and buddyinfo after each. */
    public static BuddyAllocator mechanics(PrintStream out) {
        BuddyAllocator b = BuddyAllocator.upfront(new Gpu(gib(1)).openToyProcess(), mib(16), 20, 24);
        out.print("start         " + b.map() + "   " + b.buddyinfo());
        long x = b.alloc(mib(3));                       // 3 MiB -> an order-22 (4 MiB) block
        out.print("alloc 3 MiB   " + b.map() + "   " + b.buddyinfo());
        long y = b.alloc(mib(1));                       // takes the lowest 1 MiB piece
        out.print("alloc 1 MiB   " + b.map() + "   " + b.buddyinfo());
        long z = b.alloc(mib(2));
        out.print("alloc 2 MiB   " + b.map() + "   " + b.buddyinfo());
        b.free(x);                                      // its buddy is split: no merge
        out.print("free 3 MiB    " + b.map() + "   " + b.buddyinfo());
        b.free(y);
        b.free(z);                                      // merges all the way up
        out.print("free the rest " + b.map() + "   " + b.buddyinfo());
        return b;
    }
    // end::mechanics[]

    // tag::counterexample[]
    /**
     * Sixteen 64 MiB sequences fill a 1 GiB buddy pool; every other one finishes. Half the
     * pool is free, the largest free block is 64 MiB, and a 128 MiB sequence is refused: the
     * guarantee "any request up to the largest free block" is true and says nothing. Paged blocks
     * on the same budget serve it; compaction serves it too, after copying every live sequence.
     */
    public static void counterexample(PrintStream out) {
        BuddyAllocator b = BuddyAllocator.upfront(new Gpu(gib(2)).openToyProcess(), gib(1), 21, 30);
        List<Long> seqs = new ArrayList<>();
        for (int i = 0; i < 16; i++) seqs.add(b.alloc(mib(64)));
        for (int i = 0; i < 16; i += 2) b.free(seqs.get(i));
        out.println("buddy: free " + Bytes.formatSize(b.freeBytes()) + ", largest free block "
                + Bytes.formatSize(b.largestFreeBlock()) + ", unusable index for 128 MiB "
                + b.unusableIndex(27) / 1000.0);
        out.print("buddyinfo (2 MiB pages): " + b.buddyinfo());
        try {
            b.alloc(mib(128));
        } catch (BuddyOutOfMemoryError e) {
            out.println("buddy: 128 MiB refused with " + Bytes.formatSize(b.freeBytes()) + " free");
        }
        KvCacheManager paged = pagedTwin();
        out.println("paged: " + paged.pool().numFreeBlocks() + " free blocks of 2 MiB; 128 MiB = 64 blocks"
                + " -> "
                + (paged.allocateSlots("long", 64 * 16) ? "admitted" : "refused"));
        BuddyAllocator.Compaction c = b.compact();
        out.println("buddy after compaction (" + Bytes.formatSize(c.bytesMoved()) + " copied): largest free "
                + Bytes.formatSize(b.largestFreeBlock()) + " -> 128 MiB at +"
                + Bytes.formatSize(b.alloc(mib(128)) - b.base()));
    }
    // end::counterexample[]

    // tag::prefix-sharing[]
    /**
     * Sixty-four requests whose prompts start with the same 1024-token system prompt and end
     * with 64 tokens of their own, on 16-token blocks of Llama-3-8B: the blocks they hold
     * without prefix caching, and with it. Returns {without, with}.
     */
    public static int[] prefixSharing(PrintStream out) {
        long blockBytes = 16 * ModelShape.LLAMA_3_8B.kvBytesPerToken();
        KvCacheManager plain = new KvCacheManager(new KvBlockPool(new Gpu(gib(80)).openToyProcess(),
                5000, 16, blockBytes));
        KvCacheManager cached = new KvCacheManager(new KvBlockPool(new Gpu(gib(80)).openToyProcess(),
                5000, 16, blockBytes));
        for (int r = 0; r < 64; r++) {
            List<Integer> prompt = new ArrayList<>();
            for (int t = 0; t < 1024; t++) prompt.add(t);                  // the system prompt
            for (int t = 0; t < 64; t++) prompt.add(1_000_000 * (r + 1) + t); // the user's own
            plain.allocateSlots("r" + r, prompt.size());
            cached.allocatePrompt("r" + r, prompt);
        }
        int without = plain.blocksInUse(), with = cached.blocksInUse();
        out.println("without prefix caching: " + without + " blocks = "
                + Bytes.formatSize(without * blockBytes));
        out.println("with prefix caching:    " + with + " blocks = " + Bytes.formatSize(with * blockBytes)
                + " (" + cached.prefixHitTokens() + " prompt tokens from the cache)");
        return new int[] {without, with};
    }
    // end::prefix-sharing[]

    // tag::monitoring[]
    /**
     * Monitoring as Linux does it: the buddy contender serves the standard workload and, every 800
     * steps, prints its buddyinfo (2 MiB minimum blocks, so column k is 2^k x 2 MiB) and Linux's
     * unusable free space index for a 1024-token (128 MiB) sequence.
     */
    public static void monitoring(PrintStream out) {
        Comparison std = Comparison.standard(1);
        long perToken = std.model().kvBytesPerToken();
        BuddyContender c = new BuddyContender("buddy", new KvContender.Setup(std.budget(), perToken), 16, -1);
        int order = c.allocator().orderFor(1024 * perToken);
        Serving.run(std.workload(), c, perToken, false, (step, k) -> {
            if (step % 800 != 0) return;
            BuddyAllocator b = c.allocator();
            out.printf("step %5d free %10s unusable(1024 tok) %.3f  %s", step,
                    Bytes.formatSize(b.freeBytes()), b.unusableIndex(order) / 1000.0, b.buddyinfo());
        });
    }
    // end::monitoring[]

    /** The same fill and finish on paged blocks: 16 tokens x 128 KiB = 2 MiB blocks, 1 GiB. */
    static KvCacheManager pagedTwin() {
        KvCacheManager kv = new KvCacheManager(new KvBlockPool(new Gpu(gib(2)).openToyProcess(),
                513, 16, mib(2)));                      // 512 usable blocks + the null block
        for (int i = 0; i < 16; i++) kv.allocateSlots("s" + i, 32 * 16);
        for (int i = 0; i < 16; i += 2) kv.free("s" + i);
        return kv;
    }

    public static String whatToNotice() {
        return """
                What to notice:
                - the buddy's free memory is in pieces no larger than the largest free block, and a
                  block is only usable whole: half the pool free can still refuse a sequence;
                - 'w/free' counts admissions that waited although enough bytes were free: paged
                  blocks have none by construction, the buddy and the caching allocator have many;
                - the buddy's internal waste sits between the quarter and the third the theory
                  gives for uniform sizes; paged blocks waste only the unfilled tail of each
                  sequence's last block;
                - compaction buys back the buddy's external fragmentation by copying gigabytes.
                """;
    }

    public static String help() {
        return """
                Inference-memory lab: a buddy allocator and paged KV blocks. Try:
                  var b = BuddyAllocator.upfront(new Gpu(gib(1)).openToyProcess(), mib(16), 20, 24);   16 MiB
                  b.alloc(mib(3)); b.map(); b.buddyinfo()   split down, and free blocks per order
                  b.unusableIndex(22); b.checkInvariants()  how much of the free memory a 4 MiB request can use
                  var m = new KvCacheManager(new KvBlockPool(new Gpu(gib(1)).openToyProcess(), 8, 16, kib(64)));
                  m.allocateSlots("a", 17); m.map()        paged blocks: ceil(17 / 16) = 2
                  BuddyLab.mechanics(System.out)            split and merge on a 16 MiB pool
                  BuddyLab.counterexample(System.out)       the buddy's guarantee and half a pool that is useless
                  ReferencePoints.measure(1)                25% buddy waste and < 4% paged waste, measured
                  var c = Comparison.standard(1); System.out.print(c.table(c.run(false)))   four contenders
                  BuddyLab.run(System.out)                  the whole lab, as ./vramlab lab buddy prints it
                Your steps (labs/src/main/java/vramlab/buddy/ and vramlab/kv/):
                  6.1 The order for a size     BuddyAllocator.orderFor
                  6.2 Find the buddy           BuddyAllocator.buddyOf
                  6.3 Split down               BuddyAllocator.splitDown
                  6.4 Merge up                 BuddyAllocator.mergeUp
                  6.5 buddyinfo                BuddyAllocator.buddyinfo
                  6.6 Blocks for n tokens      KvCacheManager.blocksNeeded
                  6.7 Allocate all or nothing  KvCacheManager.allocateSlots
                  6.8 Free in reverse          KvCacheManager.free
                Check one step: ./vramlab check 6.1   the chapter: ./vramlab check 6
                Quiz (outside JShell): ./vramlab quiz 6   your answers: ./vramlab quiz 6 --check labs/answers/ch06.txt
                """;
    }
}
