package vramlab.ch03.quiz;

import static vramlab.units.Bytes.mib;

import java.util.List;
import java.util.function.Supplier;

import vramlab.alloc.Block;
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
 * Split on alloc, merge on free: three allocations, then the middle and the first freed. Asked
 * for the toy policy (q3.2, the no-argument constructor) and again, with the same sizes,
 * for PyTorch's real rules ({@link PyTorch}, q3.8): blocks round to 512 B, not 2 MiB, and a
 * large block splits only when more than 1 MiB remains, not 2 MiB or more (CCA:2026-2037,
 * 2478-2486). For the practice variant's whole-MiB sizes both give the same answers; students' sizes differ.
 */
public class SplitAndMerge implements Question {
    static final long DEVICE = mib(64);

    private final String id;
    private final String policyName;
    private final Supplier<Policy> policy;
    private final String premise;

    /** The question under the toy policy. */
    public SplitAndMerge() {
        this("q3.2", "the toy policy", ToyPolicy::new,
                "This asks about the toy policy (vramlab.alloc.ToyPolicy), not PyTorch's real rules;\n"
                + "q3.8 asks the same for PyTorch.");
    }

    protected SplitAndMerge(String id, String policyName, Supplier<Policy> policy, String premise) {
        this.id = id;
        this.policyName = policyName;
        this.policy = policy;
        this.premise = premise;
    }

    /** The same calls under PyTorch's real rules ({@code PyTorchPolicy}, default config). */
    public static final class PyTorch extends SplitAndMerge {
        public PyTorch() {
            super("q3.8", "PyTorch's real policy", PyTorchPolicy::new,
                    "This asks about PyTorch's real rules (round_size, get_allocation_size, should_split and\n"
                    + "try_merge_blocks in c10/cuda/CUDACachingAllocator.cpp, default PYTORCH_CUDA_ALLOC_CONF), for q3.2's calls.");
        }

        @Override public String notesSection() { return "Where the toy simplifies"; }
    }

    @Override public String id() { return id; }
    @Override public String notesSection() { return "Rule 4: split only into a legal remainder"; }
    @Override public String title() { return "Split and merge under " + policyName + ": the counters after five calls"; }

    static long[] sizes(Variant v) {
        if (v.isSeed()) return new long[] {mib(4), mib(6), mib(4)};
        return new long[] {
            v.between("x", mib(1) + 1, mib(6)), v.between("y", mib(1) + 1, mib(6)), v.between("z", mib(1) + 1, mib(6)),
        };
    }

    @Override
    public String prompt(Variant v) {
        long[] s = sizes(v);
        return premise + "\nOn a fresh Sim of " + Bytes.toyMiB(DEVICE) + " with " + policyName + ":\n"
                + "  a = alloc(" + s[0] + "); b = alloc(" + s[1] + "); c = alloc(" + s[2] + "); free(b); free(a);\n"
                + "  (a: " + Bytes.readable(s[0]) + ", b: " + Bytes.readable(s[1]) + ", c: " + Bytes.readable(s[2]) + ")\n"
                + "(a) reserved and allocated now; (b) requested now, in bytes;\n"
                + "(c) the largest free block; (d) how many blocks segment 0 holds now.";
    }

    /** Replays the five calls on the reference simulator. */
    Sim replay(Variant v) {
        long[] s = sizes(v);
        Sim sim = new Sim(DEVICE, policy.get());
        Block a = sim.alloc(s[0]);
        Block b = sim.alloc(s[1]);
        sim.alloc(s[2]);
        sim.free(b);
        sim.free(a);
        return sim;
    }

    @Override
    public List<Part> parts(Variant v) {
        Sim sim = replay(v);
        int blocks = sim.allocator().segments().iterator().next().blocks().size();
        return List.of(
                Part.of("a", 1, Blanks.size(id + ".a.reserved", sim.reserved(), Bytes::parse),
                        Blanks.size(id + ".a.allocated", sim.allocated(), Bytes::parse)),
                Part.of("b", 1, Blanks.number(id + ".b.requested", sim.requested())),
                Part.of("c", 1, Blanks.size(id + ".c.largest", sim.largestFreeBlock(), Bytes::parse)),
                Part.of("d", 1, Blanks.number(id + ".d.blocks", blocks)));
    }
}
