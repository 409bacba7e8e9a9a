package vramlab.ch02.exercises;

import static vramlab.units.Bytes.gib;
import static vramlab.units.Bytes.mib;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import vramlab.driver.Gpu;
import vramlab.driver.GpuProcess;
import vramlab.driver.NvidiaSmi;
import vramlab.kit.Exercise;
import vramlab.units.Bytes;

/**
 * Exercise: a process with a seeded context makes a few cudaMalloc calls and frees one large
 * allocation; predict nvidia-smi's row and cudaMemGetInfo's free figure. The answer replays the
 * calls on the simulator's 80 GiB card.
 */
public final class ReadTheLedger implements Exercise {
    static final long CARD = gib(80);

    /** The case of {@code seed}: reserve, context, sizes in order, and which large one is freed. */
    record Case(long reserve, long context, List<Long> sizes, int freed) {}

    static Case of(long seed) {
        Random r = new Random(seed);
        long reserve = mib(256) * (1 + r.nextInt(4));
        long context = mib(100) * (3 + r.nextInt(6));
        List<Long> sizes = new ArrayList<>();
        int large = -1;
        int n = 4 + r.nextInt(3);
        for (int i = 0; i < n; i++) {
            if (r.nextBoolean()) {
                sizes.add(64L * (1 + r.nextInt(4000)));
            } else {
                sizes.add(mib(2 + r.nextInt(300)) + r.nextInt(2));
                large = i;
            }
        }
        if (large < 0) {
            sizes.add(mib(33) + 1);
            large = sizes.size() - 1;
        }
        return new Case(reserve, context, sizes, large);
    }

    @Override public String title() { return "Read the driver's ledger: nvidia-smi and cudaMemGetInfo"; }

    @Override
    public String prompt(long seed) {
        Case c = of(seed);
        StringBuilder sb = new StringBuilder(String.format("An 80 GiB card whose driver keeps a %s reserve runs one process,%n"
                + "pid 1, with a %s context. It calls, in order:%n", Bytes.readable(c.reserve()), Bytes.readable(c.context())));
        for (int i = 0; i < c.sizes().size(); i++) {
            sb.append(String.format("  p%d = cudaMalloc(%d)%n", i, c.sizes().get(i)));
        }
        sb.append(String.format("  cudaFree(p%d)%n", c.freed()));
        return sb.append("(a) What does nvidia-smi report as the process's used_gpu_memory, in MiB?\n")
                 .append("(b) What does cudaMemGetInfo report as free and as total, in MiB?").toString();
    }

    @Override
    public String answer(long seed) {
        Case c = of(seed);
        Gpu gpu = new Gpu(0, CARD, c.reserve());
        GpuProcess p = gpu.open(1, "python", c.context());
        List<Long> ptrs = new ArrayList<>();
        for (long s : c.sizes()) ptrs.add(p.cudaMalloc(s));
        p.cudaFree(ptrs.get(c.freed()));
        gpu.checkInvariants();
        return String.format("mapped %s (shared pages holding the small requests: %d), context %s%n"
                + "(a) %s%n%s%n(b) cudaMemGetInfo: free %d MiB of %d MiB", Bytes.readable(p.mappedBytes()),
                p.sharedPages(), Bytes.readable(p.contextBytes()), NvidiaSmi.HEADER, NvidiaSmi.row(p),
                p.cudaMemGetInfo().free() / Bytes.MiB, p.cudaMemGetInfo().total() / Bytes.MiB);
    }
}
