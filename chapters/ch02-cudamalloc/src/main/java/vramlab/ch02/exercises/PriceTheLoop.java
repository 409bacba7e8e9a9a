package vramlab.ch02.exercises;

import static vramlab.units.Bytes.mib;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import vramlab.driver.CostModel;
import vramlab.driver.DriverCall;
import vramlab.driver.Gpu;
import vramlab.driver.GpuProcess;
import vramlab.kit.Exercise;
import vramlab.units.Bytes;

/**
 * Exercise: a seeded training loop that calls the driver once per tensor; count the calls, the
 * pages they map and unmap, the synchronising frees, and price the loop with the kit's
 * illustrative cost model. The answer runs the loop on the simulator.
 */
public final class PriceTheLoop implements Exercise {
    static final CostModel MODEL = CostModel.ORDER_OF_MAGNITUDE;

    /** The loop of {@code seed}: {@code steps} repetitions of allocating every size, then freeing them. */
    record Loop(int steps, List<Long> sizes) {}

    static Loop of(long seed) {
        Random r = new Random(seed);
        List<Long> sizes = new ArrayList<>();
        int n = 3 + r.nextInt(4);
        for (int i = 0; i < n; i++) {
            sizes.add(r.nextInt(3) == 0 ? 512L * (1 + r.nextInt(2048)) : mib(1) + 1 + r.nextInt((int) mib(9)));
        }
        return new Loop(2 + r.nextInt(4), sizes);
    }

    @Override public String title() { return "Price a loop that calls the driver per tensor"; }

    @Override
    public String prompt(long seed) {
        Loop l = of(seed);
        StringBuilder sb = new StringBuilder("A fresh process on a large card runs " + l.steps() + " steps. Each step calls\n");
        for (long s : l.sizes()) sb.append(String.format("  cudaMalloc(%d)%n", s));
        return sb.append("in that order, then cudaFree on each pointer in the same order.\n")
                 .append("(a) How many cudaMalloc and cudaFree calls, and how many 2 MiB pages do they map and unmap?\n")
                 .append("(b) Price the loop with CostModel.ORDER_OF_MAGNITUDE: 20 us a call, 1 us a page mapped or\n")
                 .append("    unmapped, 100 us for each call that synchronises (cudaFree).").toString();
    }

    @Override
    public String answer(long seed) {
        Loop l = of(seed);
        GpuProcess p = new Gpu(Bytes.GiB * 8).openToyProcess();
        for (int s = 0; s < l.steps(); s++) {
            List<Long> ptrs = new ArrayList<>();
            for (long size : l.sizes()) ptrs.add(p.cudaMalloc(size));
            ptrs.forEach(p::cudaFree);
        }
        long mallocs = p.driverCalls(DriverCall.CUDA_MALLOC), frees = p.driverCalls(DriverCall.CUDA_FREE);
        long mapped = p.driverPages(DriverCall.CUDA_MALLOC), unmapped = p.driverPages(DriverCall.CUDA_FREE);
        return String.format("%d cudaMalloc mapping %d pages, %d cudaFree unmapping %d pages (%d per step each way)%n"
                + "time: %d calls x 20 us + %d pages x 1 us + %d syncs x 100 us = %s",
                mallocs, mapped, frees, unmapped, mapped / l.steps(), mallocs + frees, mapped + unmapped, frees,
                CostModel.format(MODEL.totalMicros(p)));
    }
}
