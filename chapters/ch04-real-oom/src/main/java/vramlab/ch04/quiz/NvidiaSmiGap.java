package vramlab.ch04.quiz;

import static vramlab.units.Bytes.mib;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import vramlab.alloc.Block;
import vramlab.alloc.CachingAllocator;
import vramlab.alloc.Policy;
import vramlab.alloc.PyTorchPolicy;
import vramlab.alloc.ToyPolicy;
import vramlab.driver.Gpu;
import vramlab.driver.GpuProcess;
import vramlab.quiz.Blanks;
import vramlab.quiz.Part;
import vramlab.quiz.Question;
import vramlab.quiz.Variant;
import vramlab.units.Bytes;

/**
 * The tensors sum to less than nvidia-smi's number for the process. Which
 * terms make up the gap, and how large is each for this student's workload?
 *
 * <p>The practice numbers rest on the toy's rounding (large blocks in 2 MiB steps), so it is asked
 * for the toy (q4.2, the no-argument constructor) and again, with the same workload, for
 * PyTorch's real rules ({@link PyTorch}, q4.8), where every block rounds to 512 B
 * (CCA:2026-2037) and the rounding tax shrinks to bytes.
 */
public class NvidiaSmiGap implements Question {
    /** Terms that may or may not belong to the gap between tensor sum and nvidia-smi's number. */
    public enum Term { ROUNDING_TAX, CACHED_BUT_UNALLOCATED, CUDA_CONTEXT, OTHER_PROCESSES, DRIVER_RESERVE, HOST_MEMORY }

    static final long DEVICE = mib(1024);

    private final String id;
    private final String policyName;
    private final Supplier<Policy> policy;
    private final String premise;

    /** The question under the toy policy. */
    public NvidiaSmiGap() {
        this("q4.2", "the toy policy", ToyPolicy::new,
                "This asks about the toy policy (vramlab.alloc.ToyPolicy), not PyTorch's real rules;\n"
                + "q4.8 asks the same for PyTorch.");
    }

    protected NvidiaSmiGap(String id, String policyName, Supplier<Policy> policy, String premise) {
        this.id = id;
        this.policyName = policyName;
        this.policy = policy;
        this.premise = premise;
    }

    /** The same workload under PyTorch's real rules ({@code PyTorchPolicy}, default config). */
    public static final class PyTorch extends NvidiaSmiGap {
        public PyTorch() {
            super("q4.8", "PyTorch's real policy", PyTorchPolicy::new,
                    "This asks about PyTorch's real rules (round_size, get_allocation_size and should_split in\n"
                    + "c10/cuda/CUDACachingAllocator.cpp, default PYTORCH_CUDA_ALLOC_CONF), for q4.2's workload.");
        }
    }

    /** {context MiB, then request sizes; every second request is freed}. */
    static long[] workload(Variant v) {
        if (v.isSeed()) return new long[] {300, mib(3) + 1, mib(5) + 1, mib(3) + 1, mib(5) + 1, 100_000, mib(12)};
        long[] w = new long[7];
        w[0] = v.between("context", 250, 600);
        for (int i = 1; i < w.length; i++) w[i] = v.between("t" + i, 1000, mib(14));
        return w;
    }

    @Override public String id() { return id; }
    @Override public String notesSection() { return "Where the gigabytes go: nvidia-smi against your tensors"; }
    @Override public String title() { return "Where nvidia-smi's extra memory comes from, under " + policyName; }

    @Override
    public String prompt(Variant v) {
        long[] w = workload(v);
        StringBuilder sb = new StringBuilder(premise + "\nA process with a CUDA context runs a caching allocator with " + policyName + " on a "
                + Bytes.toyMiB(DEVICE) + " device.\nIt allocates, in order:");
        for (int i = 1; i < w.length; i++) sb.append(i == 1 ? " " : ", ").append(Bytes.readable(w[i])).append(i % 2 == 0 ? " (freed)" : "");
        sb.append("\nand frees the ones marked (freed) right after allocating them. nvidia-smi then shows ")
          .append(Bytes.toyMiB(nvidiaSmi(v))).append(" for it.\n")
          .append("(a) which terms make up the gap between the live tensors' sum and nvidia-smi's number?\n")
          .append("(b) the live tensors' sum in bytes (requested); (c) the rounding tax (allocated - requested);\n")
          .append("(d) the cached but unallocated bytes; (e) the CUDA context's size.");
        return sb.toString();
    }

    private record Run(GpuProcess process, CachingAllocator allocator) {}

    long nvidiaSmi(Variant v) { return run(v).process().physicalBytes(); }

    private Run run(Variant v) {
        long[] w = workload(v);
        GpuProcess p = new Gpu(0, DEVICE, 0).open(4242, "train.py", mib(w[0]));
        CachingAllocator a = new CachingAllocator(p, policy.get());
        List<Block> live = new ArrayList<>();
        for (int i = 1; i < w.length; i++) {
            Block b = a.alloc(w[i]);
            if (i % 2 == 0) a.free(b); else live.add(b);
            a.checkInvariants();
        }
        return new Run(p, a);
    }

    @Override
    public List<Part> parts(Variant v) {
        Run r = run(v);
        CachingAllocator a = r.allocator();
        return List.of(
                Part.of("a", 1, Blanks.choices(id + ".a.terms", Term.class)),
                Part.of("b", 1, Blanks.number(id + ".b.requested", a.requested())),
                Part.of("c", 1, Blanks.size(id + ".c.tax", a.allocated() - a.requested(), Bytes::parse)),
                Part.of("d", 1, Blanks.size(id + ".d.cached", a.reserved() - a.allocated(), Bytes::parse)),
                Part.of("e", 1, Blanks.size(id + ".e.context",
                        r.process().physicalBytes() - r.process().mappedBytes(), Bytes::parse)));
    }
}
