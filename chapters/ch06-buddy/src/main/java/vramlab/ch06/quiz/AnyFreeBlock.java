package vramlab.ch06.quiz;

import static vramlab.units.Bytes.gib;

import java.util.ArrayList;
import java.util.List;

import vramlab.driver.Gpu;
import vramlab.kv.KvBlockPool;
import vramlab.kv.KvCacheManager;
import vramlab.quiz.Blanks;
import vramlab.quiz.Part;
import vramlab.quiz.Question;
import vramlab.quiz.Variant;

/**
 * Why a paged pool never makes a request wait while enough bytes are free: a request that fits
 * in the free blocks takes whichever they are, in free-queue order (rules 6 and 7), scattered or
 * not. The choices of reason are the old q6.6's.
 */
public final class AnyFreeBlock implements Question {
    /** Why enough free bytes always suffice in a paged pool. */
    public enum Reason {
        ITS_BLOCKS_ARE_CONTIGUOUS, ANY_FREE_BLOCK_SERVES_ANY_REQUEST, IT_COMPACTS_ON_EVERY_FREE,
        IT_RESERVES_EACH_MAXIMUM_LENGTH
    }

    /** Whether the new request's blocks sit at consecutive addresses, in table order. */
    public enum Contiguous { YES, NO }

    @Override public String id() { return "q6.6"; }
    @Override public String notesSection() { return "Why fixed sizes remove external fragmentation"; }
    @Override public String title() { return "Any free block serves any request"; }

    /** The pool, the admitted requests, which one finishes, and the request that comes next. */
    record Setup(int blocks, int blockSize, List<Integer> lengths, int finished, int next) {}

    static Setup setup(Variant v) {
        if (v.isSeed()) return new Setup(10, 16, List.of(40, 40, 20), 0, 60);
        int size = v.pick("block-size", List.of(8, 16, 32));
        int count = (int) v.between("count", 3, 5);
        List<Integer> lengths = new ArrayList<>();
        int held = 0;
        for (int i = 0; i < count; i++) {
            int n = (int) v.between("length-" + i, 1, 4L * size);
            lengths.add(n);
            held += (n + size - 1) / size;
        }
        int spare = (int) v.between("spare", 0, 3);
        int finished = (int) v.between("finished", 0, count - 1);
        int free = spare + (lengths.get(finished) + size - 1) / size;
        int next = (int) v.between("next", Math.max(1, (free - 1) * size + 1), (long) free * size);
        return new Setup(1 + held + spare, size, lengths, finished, next);
    }

    @Override
    public String prompt(Variant v) {
        Setup s = setup(v);
        StringBuilder admitted = new StringBuilder();
        for (int i = 0; i < s.lengths().size(); i++) {
            admitted.append(i == 0 ? "" : ", ").append("r").append(i + 1).append(" (").append(s.lengths().get(i))
                    .append(" tokens)");
        }
        return "A fresh vLLM-style pool of " + s.blocks() + " blocks (0 to " + (s.blocks() - 1) + ") of " + s.blockSize()
                + " tokens admits,\nin this order, " + admitted + ". Then r" + (s.finished() + 1)
                + " finishes and is freed,\nand r" + (s.lengths().size() + 1) + " of " + s.next()
                + " tokens arrives; every block it needs is free.\n"
                + "(a) Which block is the first entry of r" + (s.lengths().size() + 1) + "'s block table?\n"
                + "(b) Which block is the last entry?\n"
                + "(c) Do its blocks sit at consecutive addresses, in table order (YES or NO)?\n"
                + "(d) Why does a paged pool never make a request wait while enough bytes are free?\n"
                + "    ITS_BLOCKS_ARE_CONTIGUOUS, ANY_FREE_BLOCK_SERVES_ANY_REQUEST, IT_COMPACTS_ON_EVERY_FREE\n"
                + "    or IT_RESERVES_EACH_MAXIMUM_LENGTH.";
    }

    /** The new request's block table, on the reference simulator. */
    static List<Integer> replay(Setup s) {
        KvCacheManager kv = new KvCacheManager(new KvBlockPool(new Gpu(gib(1)).openToyProcess(), s.blocks(),
                s.blockSize(), 1));
        for (int i = 0; i < s.lengths().size(); i++) {
            if (!kv.allocateSlots("r" + (i + 1), s.lengths().get(i))) throw new IllegalStateException("must fit: " + kv.map());
        }
        kv.free("r" + (s.finished() + 1));
        String next = "r" + (s.lengths().size() + 1);
        if (!kv.allocateSlots(next, s.next())) throw new IllegalStateException(next + " must fit: " + kv.map());
        return kv.blocks(next);
    }

    @Override
    public List<Part> parts(Variant v) {
        List<Integer> table = replay(setup(v));
        boolean consecutive = true;
        for (int i = 1; i < table.size(); i++) consecutive &= table.get(i) == table.get(i - 1) + 1;
        return List.of(
                Part.of("a", 1, Blanks.number("q6.6.a.first", table.get(0))),
                Part.of("b", 1, Blanks.number("q6.6.b.last", table.get(table.size() - 1))),
                Part.of("c", 1, Blanks.choice("q6.6.c.contiguous", consecutive ? Contiguous.YES : Contiguous.NO)),
                Part.of("d", 1, Blanks.choice("q6.6.d.reason", Reason.class)));
    }
}
