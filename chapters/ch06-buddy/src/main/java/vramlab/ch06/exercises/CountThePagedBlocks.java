package vramlab.ch06.exercises;

import static vramlab.units.Bytes.gib;
import static vramlab.units.Bytes.kib;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import vramlab.driver.Gpu;
import vramlab.kit.Exercise;
import vramlab.kv.KvBlockPool;
import vramlab.kv.KvCacheManager;

/**
 * Exercise: seeded requests ask a paged KV pool for their prompts' blocks, all or nothing, in
 * arrival order; predict the blocks each takes, which are refused, and the slots left unfilled.
 * The answer replays the requests on the reference KV cache manager.
 */
public final class CountThePagedBlocks implements Exercise {
    /** What the pool did with the requests. */
    record Outcome(List<Integer> blocks, List<Boolean> admitted, long tokensHeld, long slotsHeld, int freeLeft) {}

    @Override public String title() { return "Count the paged KV blocks"; }

    static int numBlocks(long seed) { return 14 + new Random(seed).nextInt(11); }

    static List<Long> prompts(long seed) {
        Random r = new Random(seed * 31 + 7);
        List<Long> tokens = new ArrayList<>();
        int n = 5 + r.nextInt(3);
        for (int i = 0; i < n; i++) tokens.add(r.nextBoolean() ? 1L + r.nextInt(40) : 16L * (1 + r.nextInt(8)) + r.nextInt(3));
        return tokens;
    }

    @Override
    public String prompt(long seed) {
        StringBuilder sb = new StringBuilder("A paged KV pool of " + numBlocks(seed) + " blocks of "
                + KvBlockPool.DEFAULT_BLOCK_SIZE + " tokens (vLLM's layout: block 0 is the null block).\n"
                + "Requests arrive in this order and each asks allocate_slots for its whole prompt:\n");
        List<Long> p = prompts(seed);
        for (int i = 0; i < p.size(); i++) sb.append("  r").append(i).append(": ").append(p.get(i)).append(" tokens\n");
        return sb.append("How many blocks does each take, which requests are refused (all or nothing),\n")
                 .append("how many token slots of the held blocks are unfilled, and how many blocks stay free?")
                 .toString();
    }

    static Outcome outcome(long seed) {
        KvCacheManager m = new KvCacheManager(new KvBlockPool(new Gpu(gib(1)).openToyProcess(), numBlocks(seed),
                KvBlockPool.DEFAULT_BLOCK_SIZE, kib(2048)));
        List<Integer> blocks = new ArrayList<>();
        List<Boolean> admitted = new ArrayList<>();
        List<Long> p = prompts(seed);
        for (int i = 0; i < p.size(); i++) {
            boolean ok = m.allocateSlots("r" + i, p.get(i));
            admitted.add(ok);
            blocks.add(ok ? m.blocks("r" + i).size() : 0);
        }
        m.checkInvariants();
        return new Outcome(blocks, admitted, m.tokensHeld(), m.slotsHeld(), m.pool().numFreeBlocks());
    }

    @Override
    public String answer(long seed) {
        Outcome o = outcome(seed);
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < o.blocks().size(); i++) {
            sb.append("r").append(i).append(": ").append(o.admitted().get(i) ? o.blocks().get(i) + " block(s)" : "refused")
              .append('\n');
        }
        return sb.append("tokens held ").append(o.tokensHeld()).append(" in ").append(o.slotsHeld())
                 .append(" slots: ").append(o.slotsHeld() - o.tokensHeld()).append(" unfilled; ")
                 .append(o.freeLeft()).append(" block(s) free").toString();
    }
}
