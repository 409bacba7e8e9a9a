package vramlab.ch04.causes;

import static vramlab.ch04.causes.Rig.size;
import static vramlab.units.Bytes.GiB;
import static vramlab.units.Bytes.KiB;
import static vramlab.units.Bytes.MiB;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import vramlab.alloc.Block;
import vramlab.alloc.CudaOutOfMemoryError;
import vramlab.alloc.Policy;
import vramlab.triage.Cause;

/**
 * Cause 1 again, the ratchet of the seed's quiz question 6: every batch has a different length,
 * so every step asks for different sizes and splits the 20 MiB segments differently; a tensor
 * kept from each step (a per-step result left on the GPU) lands in one of those splits and
 * pins its segment, and the next steps' odd sizes leave holes around it that no later request
 * fits. empty_cache() after every batch releases only segments with nothing live in them, so
 * reserved climbs faster than the kept bytes, and at the OOM the stranded holes exceed the
 * request. (The kept tensors are a slow leak; the ratchet is how much reserved it drags along.)
 */
public final class VariableBatchRatchet implements Scenario {
    @Override public String name() { return "variable-batch-ratchet"; }
    @Override public Cause cause() { return Cause.FRAGMENTATION; }
    @Override public String title() {
        return "fragmentation: variable batch lengths ratchet reserved upward";
    }

    // tag::ratchet[]
    @Override
    public Outcome run(Policy policy, long seed) {
        Random rnd = new Random(seed);
        Rig rig = Rig.card(2 * GiB + rnd.nextInt(4) * 256 * MiB,
                (200 + rnd.nextInt(200)) * MiB, (300 + rnd.nextInt(200)) * MiB, policy);
        List<Block> kept = new ArrayList<>();
        for (int step = 1; step <= 100_000; step++) {
            int tokens = 160 + rnd.nextInt(417);                     // this batch's length
            List<Block> acts = new ArrayList<>();
            try {
                for (int layer = 0; layer < 12; layer++) {
                    acts.add(rig.alloc(rig.torch, tokens * 16L * KiB * (1 + layer % 3)));
                    if (layer == 5) kept.add(rig.alloc(rig.torch, 3 * MiB + 1));  // "for later"
                }
            } catch (CudaOutOfMemoryError e) {
                rig.say("Step " + step + " (" + tokens + " tokens): reserved "
                        + size(rig.torch.reserved()) + "; the " + kept.size()
                        + " kept tensors use " + size(kept.size() * kept.get(0).size()) + ".");
                return rig.outcome(name(), cause(), e, List.of(
                        "  File \"finetune.py\", line 133, in train_step",
                        "    hidden = block(hidden, attention_mask)"));
            }
            acts.forEach(b -> rig.free(rig.torch, b));
            long released = rig.torch.emptyCache();                 // "to be safe", every batch
            rig.check();
            if (step % 100 == 0) {
                rig.say("Step " + step + ": reserved " + size(rig.torch.reserved()) + ", live "
                        + size(rig.torch.allocated()) + ", empty_cache() released "
                        + size(released) + ".");
            }
        }
        throw new IllegalStateException(name() + ": no OOM in 100000 steps");
    }
    // end::ratchet[]
}
