package vramlab.ch03.exercises;

import static vramlab.units.Bytes.mib;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import vramlab.alloc.Block;
import vramlab.alloc.PyTorchPolicy;
import vramlab.alloc.Sim;
import vramlab.kit.Exercise;
import vramlab.units.Bytes;

/**
 * Exercise: one segment cut into free holes of seeded sizes, fenced by live 2 MiB blocks; two
 * requests arrive. Which hole serves each (best fit), is it split under PyTorch's rule, and
 * what free block is left? The answer replays it under {@code PyTorchPolicy}.
 */
public final class BestFitAndSplit implements Exercise {
    static final long DEVICE = mib(256);
    static final long FENCE = mib(2);

    /** What one request got: its rounded size, the block's offset and size, whether it was split. */
    record Served(long rounded, int segment, long offset, long block, boolean split) {}

    @Override public String title() { return "Best fit, then split or hand over whole (PyTorch's rules)"; }

    /**
     * The holes' sizes, in address order: 3 to 5 holes of 2 to 9 MiB, adding up with the fences
     * to a multiple of 2 MiB, so the segment (rounded to 2 MiB, get_allocation_size) has no tail.
     */
    static long[] holes(long seed) {
        Random r = new Random(seed);
        long[] h = new long[3 + r.nextInt(3)];
        long total = FENCE * (h.length - 1);
        for (int i = 0; i < h.length; i++) {
            h[i] = mib(2 + r.nextInt(8));
            total += h[i];
        }
        int last = h.length - 1;                         // a segment is a multiple of 2 MiB: so is the total
        if (total % mib(2) != 0) h[last] += h[last] == mib(9) ? -mib(1) : mib(1);
        return h;
    }

    /** Two requests: each at most one of the holes, some within 1 MiB of it so no split follows. */
    static long[] requests(long seed) {
        Random r = new Random(seed ^ 0x5DEECE66DL);
        long[] h = holes(seed);
        long[] q = new long[2];
        for (int i = 0; i < q.length; i++) {
            long hole = h[r.nextInt(h.length)];
            long below = r.nextBoolean() ? 1 + r.nextInt((int) mib(1)) : mib(1) + r.nextInt((int) mib(1));
            q[i] = Math.max(mib(1) + 1, hole - below);
        }
        return q;
    }

    /** The segment: holes fenced by live 2 MiB blocks, the holes freed. */
    static Sim layout(long seed) {
        long[] h = holes(seed);
        long total = 0;
        for (long x : h) total += x;
        total += FENCE * (h.length - 1);
        Sim sim = new Sim(DEVICE, new PyTorchPolicy());
        sim.free(sim.alloc(total));                      // one free segment of exactly that size
        List<Block> free = new ArrayList<>();
        for (int i = 0; i < h.length; i++) {
            free.add(sim.alloc(h[i]));
            if (i < h.length - 1) sim.alloc(FENCE);
        }
        free.forEach(sim::free);
        return sim;
    }

    static List<Served> served(long seed) {
        Sim sim = layout(seed);
        List<Served> out = new ArrayList<>();
        for (long q : requests(seed)) {
            Block b = sim.alloc(q);
            long rounded = new PyTorchPolicy().roundSize(q);
            out.add(new Served(rounded, b.segment().id(), b.offset(), b.size(), b.size() == rounded
                    && b.next() != null && !b.next().isAllocated()));
        }
        return out;
    }

    @Override
    public String prompt(long seed) {
        long[] h = holes(seed);
        StringBuilder sb = new StringBuilder("Under PyTorch's default rules, segment 0 holds, in address order:\n ");
        for (int i = 0; i < h.length; i++) {
            sb.append(" [").append(Bytes.readable(h[i])).append(" free]");
            if (i < h.length - 1) sb.append(" [2 MiB live]");
        }
        sb.append("\nThen, in order:");
        int i = 0;
        for (long q : requests(seed)) sb.append("\n  r").append(i++).append(" = alloc(").append(q).append(" B)");
        return sb.append("\nFor each request: (a) its rounded size, (b) the offset and size of the block it gets,\n")
                 .append("(c) whether that block is split, and if so the free block left behind.").toString();
    }

    @Override
    public String answer(long seed) {
        StringBuilder sb = new StringBuilder();
        int i = 0;
        for (Served s : served(seed)) {
            sb.append("r").append(i++).append(": rounds to ").append(s.rounded()).append(" B; segment ")
              .append(s.segment()).append(" at +").append(Bytes.readable(s.offset())).append(", a block of ")
              .append(Bytes.readable(s.block()));
            if (s.segment() != 0) {
                sb.append(": no cached block fits, so a new segment is cudaMalloc'd and split");
            } else if (s.split()) {
                sb.append("; split: a free tail of ").append(Bytes.readable(tail(seed, s)))
                  .append(" stays in the pool");
            } else if (s.block() == s.rounded()) {
                sb.append("; an exact fit, nothing to split");
            } else {
                sb.append("; not split: ").append(Bytes.readable(s.block() - s.rounded()))
                  .append(" of it is allocated but unused");
            }
            sb.append('\n');
        }
        return sb.append("The smallest free block that fits wins (the lowest address among equals); a large block\n")
                 .append("is split only when more than 1 MiB would remain (should_split).\n")
                 .append(layoutAfter(seed)).toString();
    }

    /** The free block right after a split block, as the split left it. */
    private static long tail(long seed, Served s) {
        Sim sim = layout(seed);
        for (long q : requests(seed)) {
            Block b = sim.alloc(q);
            if (b.offset() == s.offset() && b.segment().id() == s.segment()) return b.next().size();
        }
        throw new IllegalStateException("no such block");
    }

    private static String layoutAfter(long seed) {
        Sim sim = layout(seed);
        for (long q : requests(seed)) sim.alloc(q);
        return sim.map();
    }
}
