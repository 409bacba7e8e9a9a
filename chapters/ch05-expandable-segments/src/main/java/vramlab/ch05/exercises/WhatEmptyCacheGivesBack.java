package vramlab.ch05.exercises;

import static vramlab.units.Bytes.gib;
import static vramlab.units.Bytes.mib;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;

import vramlab.alloc.Block;
import vramlab.alloc.CachingAllocator;
import vramlab.alloc.PyTorchPolicy;
import vramlab.driver.Gpu;
import vramlab.kit.Exercise;
import vramlab.units.Bytes;

/**
 * Exercise: under {@code expandable_segments:True}, a seeded run allocates large tensors and
 * frees some of them; predict what {@code empty_cache()} gives back and what stays reserved.
 * The answer replays the run on the reference allocator.
 */
public final class WhatEmptyCacheGivesBack implements Exercise {
    static final long DEVICE = gib(1);

    /** The run: sizes in allocation order, and the indexes freed before empty_cache. */
    record Run(List<Long> sizes, TreeSet<Integer> freed) {}

    /** What empty_cache did. */
    record Outcome(long reservedBefore, long givenBack, long reservedAfter, String before, String after) {}

    @Override public String title() { return "What does empty_cache() give back?"; }

    static Run run(long seed) {
        Random r = new Random(seed);
        List<Long> sizes = new ArrayList<>();
        int n = 5 + r.nextInt(2);
        for (int i = 0; i < n; i++) sizes.add(mib(2 + r.nextInt(59)));
        TreeSet<Integer> freed = new TreeSet<>();
        int k = 2 + r.nextInt(2);
        while (freed.size() < k) freed.add(r.nextInt(n));
        return new Run(sizes, freed);
    }

    @Override
    public String prompt(long seed) {
        Run run = run(seed);
        StringBuilder sb = new StringBuilder("PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True, a fresh process on a "
                + Bytes.readable(DEVICE) + " card, one stream:\n");
        for (int i = 0; i < run.sizes().size(); i++) {
            sb.append("  t").append(i).append(" = alloc(").append(Bytes.readable(run.sizes().get(i))).append(")\n");
        }
        sb.append("  free(");
        sb.append(String.join(", ", run.freed().stream().map(i -> "t" + i).toList()));
        return sb.append(")\n  torch.cuda.empty_cache()\nWhat is reserved before empty_cache(), how much does it give back, ")
                 .append("and what stays\nreserved? Which pages stay mapped, and why?").toString();
    }

    static Outcome outcome(long seed) {
        Run run = run(seed);
        CachingAllocator a = new CachingAllocator(new Gpu(DEVICE).openToyProcess(),
                new PyTorchPolicy("expandable_segments:True"));
        List<Block> blocks = new ArrayList<>();
        for (long s : run.sizes()) blocks.add(a.alloc(s));
        for (int i : run.freed()) a.free(blocks.get(i));
        long before = a.reserved();
        String mapBefore = a.toString();
        long back = a.emptyCache();
        a.checkInvariants();
        return new Outcome(before, back, a.reserved(), mapBefore, a.toString());
    }

    @Override
    public String answer(long seed) {
        Outcome o = outcome(seed);
        return "before: reserved " + Bytes.readable(o.reservedBefore()) + "\n" + o.before()
                + "\nempty_cache() gives back " + Bytes.readable(o.givenBack()) + ": the 20 MiB pages that lie "
                + "wholly inside free blocks\nafter: reserved " + Bytes.readable(o.reservedAfter()) + "\n" + o.after();
    }
}
