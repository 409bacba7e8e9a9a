package vramlab.ch05.exercises;

import static vramlab.units.Bytes.gib;
import static vramlab.units.Bytes.mib;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import vramlab.alloc.CachingAllocator;
import vramlab.alloc.PyTorchPolicy;
import vramlab.driver.Gpu;
import vramlab.kit.Exercise;
import vramlab.units.Bytes;

/**
 * Exercise: one seeded list of large requests under PyTorch's defaults and under
 * {@code expandable_segments:True}; predict the reserved bytes and the segments each ends with.
 * The answer runs both reference allocators.
 */
public final class DefaultsOrExpandable implements Exercise {
    static final long DEVICE = gib(1);

    /** What one policy ended with. */
    record Outcome(long reserved, int segments, String map) {}

    @Override public String title() { return "Defaults or expandable: predict reserved"; }

    static List<Long> sizes(long seed) {
        Random r = new Random(seed);
        List<Long> sizes = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            sizes.add(r.nextBoolean() ? mib(2 + r.nextInt(8)) : mib(10 + r.nextInt(21)) + (r.nextBoolean() ? mib(1) / 2 : 0));
        }
        return sizes;
    }

    @Override
    public String prompt(long seed) {
        StringBuilder sb = new StringBuilder("A fresh process on a " + Bytes.readable(DEVICE)
                + " card, one stream, allocates (and frees nothing):\n");
        int i = 0;
        for (long s : sizes(seed)) sb.append("  t").append(i++).append(" = alloc(").append(Bytes.readable(s)).append(")\n");
        return sb.append("What is reserved at the end, and how many segments are there, (a) with PyTorch's\n")
                 .append("defaults and (b) with PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True?").toString();
    }

    static Outcome run(long seed, boolean expandable) {
        CachingAllocator a = new CachingAllocator(new Gpu(DEVICE).openToyProcess(),
                expandable ? new PyTorchPolicy("expandable_segments:True") : new PyTorchPolicy());
        for (long s : sizes(seed)) a.alloc(s);
        a.checkInvariants();
        return new Outcome(a.reserved(), a.segments().size(), a.toString());
    }

    @Override
    public String answer(long seed) {
        Outcome d = run(seed, false), e = run(seed, true);
        return "(a) defaults:   reserved " + Bytes.readable(d.reserved()) + " in " + d.segments() + " segment(s)\n"
                + d.map() + "\n(b) expandable: reserved " + Bytes.readable(e.reserved()) + " in " + e.segments()
                + " segment(s)\n" + e.map();
    }
}
