package vramlab.ch04.exercises;

import static vramlab.units.Bytes.kib;
import static vramlab.units.Bytes.mib;

import java.util.Random;

import vramlab.alloc.CachingAllocator;
import vramlab.alloc.CudaOutOfMemoryError;
import vramlab.alloc.PyTorchPolicy;
import vramlab.driver.Gpu;
import vramlab.driver.GpuProcess;
import vramlab.kit.Exercise;
import vramlab.units.Bytes;

/**
 * Exercise: plan by peak reserved, not by the tensor sum. A seeded model keeps some large
 * tensors and many small ones live at its peak, on a card with a driver reserve and a CUDA
 * context. Predict requested, allocated, reserved and what nvidia-smi shows, and whether it
 * fits. The answer runs it on the kit's GPU, process and allocator under PyTorch's rules.
 */
public final class PlanTheCapacity implements Exercise {
    /** The seeded model and card. */
    record Plan(long capacity, long reserve, long context, long[] large, long smallSize, int smallCount) {}

    /** The counters at the peak, what the driver holds for the process, and whether it fitted. */
    record Peak(long requested, long allocated, long reserved, long nvidiaSmi, boolean fits) {}

    @Override public String title() { return "Plan by peak reserved: will the model fit?"; }

    static Plan plan(long seed) {
        Random r = new Random(seed);
        long[] large = new long[3 + r.nextInt(4)];
        for (int i = 0; i < large.length; i++) large[i] = mib(10 + r.nextInt(60)) + 1 + r.nextInt((int) mib(1));
        long smallSize = kib(1 + r.nextInt(64)) + r.nextInt(512);
        int smallCount = 50 + r.nextInt(400);
        long capacity = mib(256 + 64L * r.nextInt(5));
        return new Plan(capacity, mib(16 + r.nextInt(32)), mib(64 + r.nextInt(128)), large, smallSize, smallCount);
    }

    @Override
    public String prompt(long seed) {
        Plan p = plan(seed);
        StringBuilder sb = new StringBuilder("A card of " + Bytes.readable(p.capacity()) + " keeps "
                + Bytes.readable(p.reserve()) + " for the driver; the process's CUDA context takes "
                + Bytes.readable(p.context()) + ".\nAt its peak the model holds, allocated in this order and "
                + "none freed, these large tensors (bytes):\n ");
        for (long n : p.large()) sb.append(' ').append(n);
        return sb.append("\nthen ").append(p.smallCount()).append(" small tensors of ").append(p.smallSize())
                 .append(" B each.\nUnder PyTorch's default rules: (a) requested, (b) allocated, (c) reserved,\n")
                 .append("(d) what nvidia-smi shows for the process, (e) does it fit, and by how much?").toString();
    }

    static Peak run(long seed) {
        Plan p = plan(seed);
        Gpu gpu = new Gpu(0, p.capacity(), p.reserve());
        GpuProcess proc = gpu.open(4242, "train.py", p.context());
        CachingAllocator a = new CachingAllocator(proc, new PyTorchPolicy());
        boolean fits = true;
        try {
            for (long n : p.large()) a.alloc(n);
            for (int i = 0; i < p.smallCount(); i++) a.alloc(p.smallSize());
        } catch (CudaOutOfMemoryError e) {
            fits = false;
        }
        return new Peak(a.requested(), a.allocated(), a.reserved(), proc.physicalBytes(), fits);
    }

    @Override
    public String answer(long seed) {
        Plan p = plan(seed);
        Peak k = run(seed);
        long budget = p.capacity() - p.reserve();
        if (!k.fits()) {
            return "It does not fit: the allocator runs out of memory before the peak. At the OOM:\n"
                    + "  requested " + Bytes.readable(k.requested()) + ", allocated " + Bytes.readable(k.allocated())
                    + ", reserved " + Bytes.readable(k.reserved()) + ", nvidia-smi " + Bytes.readable(k.nvidiaSmi())
                    + "\n  of a budget of " + Bytes.readable(budget) + " (the card less the driver's reserve).";
        }
        return "(a) requested " + Bytes.readable(k.requested()) + "\n(b) allocated " + Bytes.readable(k.allocated())
                + " (each block rounded to 512 B; a large block keeps a tail of 1 MiB or less\n"
                + "    of its segment, since should_split needs more than 1 MiB to remain)\n(c) reserved " + Bytes.readable(k.reserved())
                + " (each large tensor of 10 MiB or more gets a segment of its own, rounded to 2 MiB;\n"
                + "    the small ones share 2 MiB segments)\n(d) nvidia-smi " + Bytes.readable(k.nvidiaSmi())
                + " (reserved plus the context)\n(e) it fits, with " + Bytes.readable(budget - k.nvidiaSmi())
                + " to spare of " + Bytes.readable(budget) + " (the card less the driver's reserve)";
    }
}
