package vramlab.ch04.quiz;

import static vramlab.units.Bytes.mib;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;

import vramlab.alloc.Block;
import vramlab.alloc.CachingAllocator;
import vramlab.alloc.ToyPolicy;
import vramlab.driver.Gpu;
import vramlab.driver.GpuProcess;
import vramlab.quiz.Blanks;
import vramlab.quiz.Part;
import vramlab.quiz.Question;
import vramlab.quiz.Variant;
import vramlab.units.Bytes;

/**
 * Seed question 3: the tensors sum to less than nvidia-smi's number for the process. Which
 * terms make up the gap, and how large is each for this student's workload?
 */
public final class NvidiaSmiGap implements Question {
    /** Terms that may or may not belong to the gap between tensor sum and nvidia-smi's number. */
    public enum Term { ROUNDING_TAX, CACHED_BUT_UNALLOCATED, CUDA_CONTEXT, OTHER_PROCESSES, DRIVER_RESERVE, HOST_MEMORY }

    static final long DEVICE = mib(1024);

    /** {context MiB, then request sizes; every second request is freed}. */
    static long[] workload(Variant v) {
        if (v.isSeed()) return new long[] {300, mib(3) + 1, mib(5) + 1, mib(3) + 1, mib(5) + 1, 100_000, mib(12)};
        long[] w = new long[7];
        w[0] = v.between("context", 250, 600);
        for (int i = 1; i < w.length; i++) w[i] = v.between("t" + i, 1000, mib(14));
        return w;
    }

    @Override public String id() { return "q4.2"; }
    @Override public String title() { return "Where nvidia-smi's extra memory comes from"; }

    @Override
    public String prompt(Variant v) {
        long[] w = workload(v);
        StringBuilder sb = new StringBuilder("A process with a CUDA context runs the toy allocator on a "
                + Bytes.toyMiB(DEVICE) + " device.\nIt allocates, in order:");
        for (int i = 1; i < w.length; i++) sb.append(i == 1 ? " " : ", ").append(Show.size(w[i])).append(i % 2 == 0 ? " (freed)" : "");
        sb.append("\nand frees the ones marked (freed) right after allocating them. nvidia-smi then shows ")
          .append(Bytes.toyMiB(nvidiaSmi(v))).append(" for it.\n")
          .append("(a) which terms make up the gap between the live tensors' sum and nvidia-smi's number?\n")
          .append("(b) the live tensors' sum in bytes (requested); (c) the rounding tax (allocated - requested);\n")
          .append("(d) the cached but unallocated bytes; (e) the CUDA context's size.");
        return sb.toString();
    }

    private record Run(GpuProcess process, CachingAllocator allocator) {}

    static long nvidiaSmi(Variant v) { return run(v).process().physicalBytes(); }

    private static Run run(Variant v) {
        long[] w = workload(v);
        GpuProcess p = new Gpu(0, DEVICE, 0).open(4242, "train.py", mib(w[0]));
        CachingAllocator a = new CachingAllocator(p, new ToyPolicy());
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
                Part.of("a", 1, Blanks.choices("q4.2.a.terms",
                        EnumSet.of(Term.ROUNDING_TAX, Term.CACHED_BUT_UNALLOCATED, Term.CUDA_CONTEXT), Term.class)),
                Part.of("b", 1, Blanks.number("q4.2.b.requested", a.requested())),
                Part.of("c", 1, Blanks.size("q4.2.c.tax", a.allocated() - a.requested(), Bytes::parse)),
                Part.of("d", 1, Blanks.size("q4.2.d.cached", a.reserved() - a.allocated(), Bytes::parse)),
                Part.of("e", 1, Blanks.size("q4.2.e.context",
                        r.process().physicalBytes() - r.process().mappedBytes(), Bytes::parse)));
    }
}
