package vramlab.ch05.exercises;

import static vramlab.units.Bytes.gib;
import static vramlab.units.Bytes.kib;
import static vramlab.units.Bytes.mib;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import vramlab.alloc.Block;
import vramlab.alloc.CachingAllocator;
import vramlab.alloc.PoolKind;
import vramlab.alloc.PyTorchPolicy;
import vramlab.alloc.Segment;
import vramlab.driver.Gpu;
import vramlab.kit.Exercise;
import vramlab.units.Bytes;

/**
 * Exercise: a seeded run of allocations, small and large, under {@code expandable_segments:True};
 * predict how many pages each pool maps and what {@code reserved} is. The answer replays the run
 * on the reference allocator.
 */
public final class PredictThePages implements Exercise {
    static final long DEVICE = gib(1);

    /** What the run left mapped. */
    record Pages(long reserved, long smallPages, long largePages, List<String> crossing, String map) {}

    @Override public String title() { return "Predict the pages each pool maps"; }

    static List<Long> sizes(long seed) {
        Random r = new Random(seed);
        List<Long> sizes = new ArrayList<>();
        int n = 5 + r.nextInt(3);
        for (int i = 0; i < n; i++) {
            sizes.add(r.nextInt(3) == 0 ? kib(1 + r.nextInt(1024)) : mib(2 + r.nextInt(29)));
        }
        return sizes;
    }

    @Override
    public String prompt(long seed) {
        StringBuilder sb = new StringBuilder("PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True, a fresh process on a "
                + Bytes.readable(DEVICE) + " card, one stream. A program allocates, frees nothing:\n");
        int i = 0;
        for (long s : sizes(seed)) sb.append("  t").append(i++).append(" = alloc(").append(Bytes.readable(s)).append(")\n");
        return sb.append("How many pages does the small pool map, how many the large pool, and what is\n")
                 .append("reserved at the end? Which of the blocks cross a page boundary?").toString();
    }

    static Pages run(long seed) {
        CachingAllocator a = new CachingAllocator(new Gpu(DEVICE).openToyProcess(),
                new PyTorchPolicy("expandable_segments:True"));
        List<String> crossing = new ArrayList<>();
        int i = 0;
        for (long s : sizes(seed)) {
            Block b = a.alloc(s);
            long page = b.segment().pages().pageSize();
            if (b.offset() / page != (b.offset() + b.size() - 1) / page) crossing.add("t" + i);
            i++;
        }
        a.checkInvariants();
        long small = 0, large = 0;
        for (Segment s : a.segments()) {
            long pages = s.pages().mappedBytes() / s.pages().pageSize();
            if (s.pool() == PoolKind.SMALL) small += pages; else large += pages;
        }
        return new Pages(a.reserved(), small, large, crossing, a.toString());
    }

    @Override
    public String answer(long seed) {
        Pages p = run(seed);
        return "small pool: " + p.smallPages() + " page(s) of 2 MiB; large pool: " + p.largePages()
                + " page(s) of 20 MiB\nreserved: " + Bytes.readable(p.reserved())
                + "\nblocks across a page boundary: " + (p.crossing().isEmpty() ? "none" : String.join(", ", p.crossing()))
                + "\n(each pool packs its blocks from offset 0 and maps whole pages behind them)\n" + p.map();
    }
}
