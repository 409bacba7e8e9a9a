package vramlab.ch03.exercises;

import static vramlab.units.Bytes.kib;
import static vramlab.units.Bytes.mib;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import vramlab.alloc.Policy;
import vramlab.alloc.PyTorchPolicy;
import vramlab.alloc.ToyPolicy;
import vramlab.kit.Exercise;
import vramlab.units.Bytes;

/**
 * Exercise: five seeded request sizes; for each, the block it rounds to, its pool and the
 * segment a cold cache would cudaMalloc for it, under the toy policy and under PyTorch's
 * default rules. The answer asks both policies.
 */
public final class RoundAndPool implements Exercise {
    /** What one policy does with one request. */
    record Cost(long block, String pool, long segment) {}

    @Override public String title() { return "Round a request, pick its pool, size its segment"; }

    /** Five sizes: one small, one at the 1 MiB edge, two between 1 and 10 MiB, one larger. */
    static long[] sizes(long seed) {
        Random r = new Random(seed);
        return new long[] {
            1 + r.nextInt((int) kib(900)),
            mib(1) - 1024 + r.nextInt(2048),
            mib(1) + 1 + r.nextInt((int) mib(4)),
            mib(4) + r.nextInt((int) mib(6)),
            mib(10) + r.nextInt((int) mib(30))};
    }

    static Cost cost(Policy p, long size) {
        long block = p.roundSize(size);
        return new Cost(block, p.poolFor(block).name().toLowerCase(), p.segmentSize(block));
    }

    @Override
    public String prompt(long seed) {
        StringBuilder sb = new StringBuilder("A program asks the caching allocator for, in bytes:\n ");
        for (long n : sizes(seed)) sb.append(' ').append(n);
        return sb.append("\nFor each request give (a) the block size it rounds to, (b) its pool, and (c) the size\n")
                 .append("of the segment a cold cache would cudaMalloc for it: first under the toy policy,\n")
                 .append("then under PyTorch's default rules (round_size, get_pool, get_allocation_size).")
                 .toString();
    }

    @Override
    public String answer(long seed) {
        List<String> lines = new ArrayList<>();
        lines.add(String.format("%-12s %-34s %-34s", "request (B)", "toy: block / pool / segment",
                "PyTorch: block / pool / segment"));
        for (long n : sizes(seed)) {
            lines.add(String.format("%-12d %-34s %-34s", n, cell(cost(new ToyPolicy(), n)),
                    cell(cost(new PyTorchPolicy(), n))));
        }
        lines.add("The toy rounds above 1 MiB to 2 MiB steps; PyTorch rounds every block to 512 B and only");
        lines.add("its segments to 2 MiB, with a 20 MiB segment for a block under 10 MiB.");
        return String.join("\n", lines);
    }

    private static String cell(Cost c) {
        return c.block() + " / " + c.pool() + " / " + Bytes.readable(c.segment());
    }
}
