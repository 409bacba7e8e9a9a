package vramlab.ch04.quiz;

import static vramlab.units.Bytes.mib;

import java.util.List;

import vramlab.alloc.Block;
import vramlab.alloc.Sim;
import vramlab.quiz.Blanks;
import vramlab.quiz.Part;
import vramlab.quiz.Question;
import vramlab.quiz.Variant;
import vramlab.units.Bytes;

/**
 * A loop with a different batch size every step calls empty_cache() after each
 * batch, and reserved still ratchets up. A small tensor kept from every step (a logged loss, a
 * cached mask) lands in the segment the batch just used and pins it.
 */
public final class VariableBatchRatchet implements Question {
    /** Why empty_cache() cannot stop the ratchet. */
    public enum Why { EVERY_SEGMENT_HOLDS_A_LIVE_BLOCK, IT_RUNS_ONLY_AT_EXIT, IT_FREES_LIVE_TENSORS, IT_IS_ASYNCHRONOUS }

    /** Candidate fixes. */
    public enum Fix { EXPANDABLE_SEGMENTS, PAD_TO_A_FEW_FIXED_SHAPES, EMPTY_CACHE_TWICE_PER_BATCH, LARGER_BATCHES, CUDNN_BENCHMARK }

    static final long DEVICE = mib(1024);

    /** {kept bytes, then the batch sizes in order}. */
    static long[] steps(Variant v) {
        if (v.isSeed()) return new long[] {mib(2) + 1, mib(9), mib(14), mib(23), mib(11), mib(30), mib(17)};
        long[] s = new long[7];
        s[0] = v.between("kept", mib(1) + 1, mib(3));
        for (int i = 1; i < s.length; i++) s[i] = v.between("batch" + i, mib(4), mib(40));
        return s;
    }

    @Override public String id() { return "q4.5"; }
    @Override public String notesSection() { return "Common misconceptions"; }
    @Override public String title() { return "The variable-batch ratchet"; }

    @Override
    public String prompt(Variant v) {
        long[] s = steps(v);
        StringBuilder sb = new StringBuilder("On a fresh Sim of " + Bytes.toyMiB(DEVICE) + " with the toy policy (vramlab.alloc.ToyPolicy,\n"
                + "not PyTorch's real rules; q4.9 asks about the same loop for PyTorch), each step does\n"
                + "  act = alloc(batch); keep = alloc(" + s[0] + "); free(act); emptyCache();\n"
                + "(keep is never freed) with batch, step by step:");
        for (int i = 1; i < s.length; i++) sb.append(i == 1 ? " " : ", ").append(Bytes.readable(s[i]));
        return sb.append(".\n(keep: ").append(Bytes.readable(s[0])).append(")\n(a) the cause, as ./vramlab triage names it; (b) reserved after the last step;\n")
                 .append("(c) why empty_cache() cannot stop it; (d) the two fixes that can.").toString();
    }

    @Override
    public List<Part> parts(Variant v) {
        long[] s = steps(v);
        Sim sim = new Sim(DEVICE);
        for (int i = 1; i < s.length; i++) {
            Block act = sim.alloc(s[i]);
            sim.alloc(s[0]);
            sim.free(act);
            sim.emptyCache();
        }
        return List.of(
                Part.of("a", 1, CauseChoice.of("q4.5.a.cause")),
                Part.of("b", 1, Blanks.size("q4.5.b.reserved", sim.reserved(), Bytes::parse)),
                Part.of("c", 1, Blanks.choice("q4.5.c.why", Why.class)),
                Part.of("d", 1, Blanks.choices("q4.5.d.fixes", Fix.class)));
    }
}
