package vramlab.ch03.quiz;

import static vramlab.units.Bytes.mib;

import java.util.List;
import java.util.function.Supplier;

import vramlab.alloc.Policy;
import vramlab.alloc.PyTorchPolicy;
import vramlab.alloc.Sim;
import vramlab.alloc.ToyPolicy;
import vramlab.quiz.Blanks;
import vramlab.quiz.Part;
import vramlab.quiz.Question;
import vramlab.quiz.Variant;
import vramlab.units.Bytes;

/**
 * requested &lt;= allocated &lt;= reserved: the practice variant's alternating fill, with this student's sizes.
 * The notes derive it under the toy's rules (large blocks in 2 MiB steps, a split only when 2 MiB
 * remain), so it is asked for the toy (q3.3, this class) and again, with the same sizes, for
 * PyTorch's real rules ({@link PyTorch}, q3.7): 512 B blocks, and a large block
 * split only when more than 1 MiB remains (CCA:2026-2037, 2478-2486), so a tail of 1 MiB or less
 * stays inside the block and counts as allocated.
 */
public class RoundingTax implements Question {
    static final long DEVICE = mib(256);

    private final String id;
    private final String policyName;
    private final Supplier<Policy> policy;
    private final String premise;

    /** The question under the toy policy. */
    public RoundingTax() {
        this("q3.3", "the toy policy", ToyPolicy::new,
                "This asks about the toy policy (vramlab.alloc.ToyPolicy), not PyTorch's real rules;\n"
                + "q3.7 asks the same for PyTorch.");
    }

    protected RoundingTax(String id, String policyName, Supplier<Policy> policy, String premise) {
        this.id = id;
        this.policyName = policyName;
        this.policy = policy;
        this.premise = premise;
    }

    /** The same fill under PyTorch's real rules ({@code PyTorchPolicy}, default config). */
    public static final class PyTorch extends RoundingTax {
        public PyTorch() {
            super("q3.7", "PyTorch's real policy", PyTorchPolicy::new,
                    "This asks about PyTorch's real rules (round_size, get_allocation_size and should_split in\n"
                    + "c10/cuda/CUDACachingAllocator.cpp, default PYTORCH_CUDA_ALLOC_CONF), for q3.3's fill.");
        }

        @Override public String notesSection() { return "Where the toy simplifies"; }
    }

    @Override public String id() { return id; }
    @Override public String notesSection() { return "Three numbers, one order"; }
    @Override public String title() { return "The rounding tax under " + policyName + ": requested, allocated, reserved after a fill"; }

    /** {count, size of the first kind, size of the second kind}. */
    static long[] fill(Variant v) {
        if (v.isSeed()) return new long[] {4, mib(3) + 1, mib(5) + 1};
        return new long[] {v.between("count", 3, 6), v.between("s1", mib(1) + 1, mib(5)), v.between("s2", mib(1) + 1, mib(7))};
    }

    @Override
    public String prompt(Variant v) {
        long[] f = fill(v);
        return premise + "\n"
                + "On a fresh Sim of " + Bytes.toyMiB(DEVICE) + " with " + policyName + ", alternate " + f[0] + " times:\n"
                + "  alloc(" + f[1] + "); alloc(" + f[2] + ");   (" + Bytes.readable(f[1]) + ", " + Bytes.readable(f[2]) + ")\n"
                + "and free nothing. (a) allocated; (b) reserved; (c) how many segments (cudaMalloc calls).";
    }

    @Override
    public List<Part> parts(Variant v) {
        long[] f = fill(v);
        Sim sim = new Sim(DEVICE, policy.get());
        for (int i = 0; i < f[0]; i++) {
            sim.alloc(f[1]);
            sim.alloc(f[2]);
        }
        return List.of(
                Part.of("a", 1, Blanks.size(id + ".a.allocated", sim.allocated(), Bytes::parse)),
                Part.of("b", 1, Blanks.size(id + ".b.reserved", sim.reserved(), Bytes::parse)),
                Part.of("c", 1, Blanks.number(id + ".c.segments", sim.allocator().segments().size())));
    }
}
