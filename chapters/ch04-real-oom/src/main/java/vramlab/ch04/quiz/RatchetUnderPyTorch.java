package vramlab.ch04.quiz;

import java.util.List;

import vramlab.alloc.Block;
import vramlab.alloc.PyTorchPolicy;
import vramlab.alloc.Sim;
import vramlab.quiz.Blanks;
import vramlab.quiz.Part;
import vramlab.quiz.Question;
import vramlab.quiz.Variant;
import vramlab.units.Bytes;

/**
 * q4.5's loop again, under PyTorch's real rules. The toy's ratchet rests on its premise
 * that every large request gets a segment of at least 20 MiB, which leaves room beside the batch
 * for the kept tensor. In PyTorch a request of 10 MiB or more gets a segment of its own size
 * rounded up to 2 MiB (get_allocation_size, CCA:2488-2496), and a remainder of 1 MiB or less is
 * not split off (should_split, CCA:2478-2486): the batch fills its segment, the kept tensor
 * lands in an older segment's hole, and empty_cache() gives the batch's segment back. Whether
 * it ratchets depends on the sizes, so the simulator decides.
 */
public final class RatchetUnderPyTorch implements Question {
    static final long DEVICE = VariableBatchRatchet.DEVICE;

    @Override public String id() { return "q4.9"; }
    @Override public String notesSection() { return "Common misconceptions"; }
    @Override public String title() { return "The variable-batch loop under PyTorch's real policy"; }

    @Override
    public String prompt(Variant v) {
        long[] s = VariableBatchRatchet.steps(v);
        StringBuilder sb = new StringBuilder("This asks about PyTorch's real rules (round_size, get_allocation_size, should_split and\n"
                + "empty_cache in c10/cuda/CUDACachingAllocator.cpp, default PYTORCH_CUDA_ALLOC_CONF), for q4.5's loop.\n"
                + "On a fresh Sim of " + Bytes.toyMiB(DEVICE) + " with PyTorch's real policy, each step does\n"
                + "  act = alloc(batch); keep = alloc(" + s[0] + "); free(act); emptyCache();\n"
                + "(keep is never freed) with batch, step by step:");
        for (int i = 1; i < s.length; i++) sb.append(i == 1 ? " " : ", ").append(Bytes.readable(s[i]));
        return sb.append(".\n(keep: ").append(Bytes.readable(s[0])).append(")\n(a) reserved after the last step;\n")
                 .append("(b) at how many of the steps emptyCache() releases a segment;\n")
                 .append("(c) how many segments are held after the last step.").toString();
    }

    @Override
    public List<Part> parts(Variant v) {
        long[] s = VariableBatchRatchet.steps(v);
        Sim sim = new Sim(DEVICE, new PyTorchPolicy());
        long releasing = 0;
        for (int i = 1; i < s.length; i++) {
            Block act = sim.alloc(s[i]);
            sim.alloc(s[0]);
            sim.free(act);
            if (sim.emptyCache() > 0) releasing++;
        }
        return List.of(
                Part.of("a", 1, Blanks.size("q4.9.a.reserved", sim.reserved(), Bytes::parse)),
                Part.of("b", 1, Blanks.number("q4.9.b.releasing", releasing)),
                Part.of("c", 1, Blanks.number("q4.9.c.segments", sim.allocator().segments().size())));
    }
}
