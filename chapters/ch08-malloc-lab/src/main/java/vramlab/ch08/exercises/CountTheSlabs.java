package vramlab.ch08.exercises;

import vramlab.contest.SegregatedFits;
import vramlab.driver.DriverCall;
import vramlab.driver.Gpu;
import vramlab.driver.GpuProcess;
import vramlab.kit.Exercise;
import vramlab.units.Bytes;
import vramlab.units.SeededRandom;

/**
 * Exercise: a fresh segregated-fits entry serves a seeded run of small requests and frees none.
 * How many {@code cudaMalloc} calls does it make, and how much does it hold from the driver?
 * The answer runs the reference on a 1 GiB card.
 */
public final class CountTheSlabs implements Exercise {
    /** Requests of a few classes: {count, size} pairs. */
    static long[][] requests(long seed) {
        SeededRandom r = new SeededRandom(seed);
        long[][] q = new long[3][];
        for (int i = 0; i < q.length; i++) {
            int c = 3 + r.nextInt(9);                                 // 4 KiB .. 1 MiB classes
            long size = SegregatedFits.classSize(c) - r.nextLong(0, SegregatedFits.classSize(c) / 2);
            q[i] = new long[] {1 + r.nextInt(600 >> (c - 3)), size};
        }
        return q;
    }

    @Override public String title() { return "Count the slabs"; }

    @Override
    public String prompt(long seed) {
        StringBuilder p = new StringBuilder("A fresh segregated-fits entry (2 MiB slabs, classes of 512 B x 2^c) is asked, freeing nothing:\n");
        for (long[] q : requests(seed)) p.append("  ").append(q[0]).append(" x alloc(").append(q[1]).append(")\n");
        return p.append("How many cudaMalloc calls does it make, and how many bytes does it hold from the driver?\n").toString();
    }

    @Override
    public String answer(long seed) {
        GpuProcess p = new Gpu(Bytes.GiB).openToyProcess();
        SegregatedFits f = new SegregatedFits(p);
        for (long[] q : requests(seed)) for (long i = 0; i < q[0]; i++) f.alloc(q[1], 0);
        return p.driverCalls(DriverCall.CUDA_MALLOC) + " cudaMalloc calls, " + p.mappedBytes() + " B ("
                + Bytes.readable(p.mappedBytes()) + ") held\n";
    }
}
