package vramlab.ch03.quiz;

import static vramlab.units.Bytes.mib;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import vramlab.alloc.Policy;
import vramlab.alloc.PyTorchPolicy;
import vramlab.alloc.ToyPolicy;
import vramlab.quiz.Blanks;
import vramlab.quiz.Part;
import vramlab.quiz.Question;
import vramlab.quiz.Variant;
import vramlab.units.Bytes;

/**
 * The block size and pool of four requests. The practice variant asks it for PyTorch's
 * policy but answers with the toy's rules (2 MiB steps above 1 MiB), which is the toy's premise,
 * not PyTorch's (PyTorch rounds every block to 512 B: round_size, CCA:2026-2037). So the kit asks
 * it once per policy, with the same requests: {@link Toy} (q3.1) and {@link PyTorch} (q3.6).
 */
public abstract class PredictTheBlock implements Question {
    private final String id;
    private final String policyName;
    private final Supplier<Policy> policy;
    private final String premise;

    protected PredictTheBlock(String id, String policyName, Supplier<Policy> policy, String premise) {
        this.id = id;
        this.policyName = policyName;
        this.policy = policy;
        this.premise = premise;
    }

    /** The toy policy chapter 3 starts from ({@code ToyPolicy}). */
    public static final class Toy extends PredictTheBlock {
        public Toy() {
            super("q3.1", "the toy policy", ToyPolicy::new,
                    "This asks about the toy policy (vramlab.alloc.ToyPolicy), not PyTorch's real\n"
                    + "rules; q3.6 asks the same for PyTorch.");
        }

        @Override public String notesSection() { return "Rule 1: the rounding ladder"; }
    }

    /** PyTorch's real rules ({@code PyTorchPolicy}, default {@code PYTORCH_CUDA_ALLOC_CONF}). */
    public static final class PyTorch extends PredictTheBlock {
        public PyTorch() {
            super("q3.6", "PyTorch's real policy", PyTorchPolicy::new,
                    "This asks about PyTorch's real rules (round_size and get_pool in\n"
                    + "c10/cuda/CUDACachingAllocator.cpp, default PYTORCH_CUDA_ALLOC_CONF), for q3.1's requests.");
        }

        @Override public String notesSection() { return "Where the toy simplifies"; }
    }

    @Override public String id() { return id; }
    @Override public String title() { return "Predict the block: size and pool under " + policyName; }

    /** The four requests: the practice variant's (100 B, 300,000 B, 1.5 MiB, 2.4 MiB), or this student's. */
    static long[] requests(Variant v) {
        if (v.isSeed()) return new long[] {100, 300_000, mib(3) / 2, 2_516_582};
        return new long[] {
            v.between("tiny", 1, 4095),
            v.between("small", 4097, mib(1)),
            v.between("just-large", mib(1) + 1, mib(2) - 1),
            v.between("large", mib(2) + 1, mib(12)),
        };
    }

    @Override
    public String prompt(Variant v) {
        long[] r = requests(v);
        return premise + "\nA caching allocator with " + policyName + " receives four requests. For each, give the\n"
                + "size of the block it is rounded to and the pool (SMALL or LARGE) it is served from:\n"
                + "(a) " + Bytes.readable(r[0]) + "   (b) " + Bytes.readable(r[1]) + "\n"
                + "(c) " + Bytes.readable(r[2]) + "   (d) " + Bytes.readable(r[3]);
    }

    @Override
    public List<Part> parts(Variant v) {
        Policy p = policy.get();
        long[] r = requests(v);
        List<Part> parts = new ArrayList<>();
        for (int i = 0; i < r.length; i++) {
            String label = String.valueOf((char) ('a' + i));
            long block = p.roundSize(r[i]);
            parts.add(Part.of(label, 1,
                    Blanks.size(id + "." + label + ".size", block, Bytes::parse),
                    Blanks.choice(id + "." + label + ".pool", p.poolFor(block))));
        }
        return parts;
    }
}
