package vramlab.ch04.causes;

import static vramlab.ch04.causes.Rig.size;
import static vramlab.units.Bytes.GiB;
import static vramlab.units.Bytes.MiB;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import vramlab.alloc.Block;
import vramlab.alloc.CudaOutOfMemoryError;
import vramlab.alloc.Policy;
import vramlab.triage.Cause;

/**
 * Cause 1, fragmentation by interleaved lifetimes: each layer keeps an activation for the
 * backward pass and frees a temporary, so every segment ends up [kept][hole][kept][hole]. The
 * holes add up to gigabytes, none is big enough for the next large tensor, and the card has no
 * room for a new segment.
 */
public final class InterleavedLifetimes implements Scenario {
    @Override public String name() { return "interleaved-lifetimes"; }
    @Override public Cause cause() { return Cause.FRAGMENTATION; }
    @Override public String title() {
        return "fragmentation: kept activations fence freed temporaries";
    }

    // tag::interleaved[]
    @Override
    public Outcome run(Policy policy, long seed) {
        Random rnd = new Random(seed);
        Rig rig = Rig.card((3 + rnd.nextInt(3)) * GiB, (300 + rnd.nextInt(400)) * MiB,
                (300 + rnd.nextInt(300)) * MiB, policy);
        long kept = 5 * MiB + 1 + rnd.nextInt((int) (MiB / 2));  // a layer's saved activation
        long temp = 3 * MiB + 1 + rnd.nextInt((int) (MiB / 2));  // its scratch, freed at once
        List<Block> blocks = new ArrayList<>();
        int[] turn = {0};
        rig.fill(rig.torch, () -> turn[0]++ % 2 == 0 ? kept : temp, blocks);
        rig.say("Forward: " + blocks.size() / 2 + " layers, each keeping " + size(kept)
                + " and using " + size(temp) + " of scratch; reserved "
                + size(rig.torch.reserved()) + ".");
        for (int i = 1; i < blocks.size(); i += 2) rig.free(rig.torch, blocks.get(i));
        rig.say("Scratch freed: " + size(rig.torch.freeBytes()) + " cached in holes, the "
                + "largest " + size(rig.torch.largestFreeBlock()) + "; empty_cache() releases "
                + size(rig.torch.emptyCache()) + " (every segment holds a kept block).");
        long big = (64 + 32L * rnd.nextInt(6)) * MiB;              // the loss head's logits
        try {
            rig.alloc(rig.torch, big);
            throw new IllegalStateException(name() + ": " + size(big) + " fit");
        } catch (CudaOutOfMemoryError e) {
            rig.say("The head asks for " + size(big) + ": no hole fits, no segment can be made.");
            return rig.outcome(name(), cause(), e, List.of(
                    "Traceback (most recent call last):",
                    "  File \"train.py\", line 57, in <module>",
                    "    loss = criterion(head(features), labels)"));
        }
    }
    // end::interleaved[]
}
