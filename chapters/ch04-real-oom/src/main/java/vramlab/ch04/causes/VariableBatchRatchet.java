package vramlab.ch04.causes;

import static vramlab.ch04.causes.Rig.size;
import static vramlab.units.Bytes.KiB;
import static vramlab.units.Bytes.MiB;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

import vramlab.alloc.Block;
import vramlab.alloc.CudaOutOfMemoryError;
import vramlab.alloc.Policy;
import vramlab.triage.Cause;

/**
 * Cause 1 again, the ratchet of quiz question q4.5. Every batch has a different length,
 * so every step asks for different sizes and splits the 20 MiB segments differently. The first
 * time a length is seen, the model builds a small table for it (rotary sin/cos or a mask of
 * that length) and caches it on the GPU for the run. Each table lands in a split of whatever
 * segment was being cut at that moment and pins it: empty_cache() after every batch releases
 * only segments with nothing live in them, so reserved climbs faster than the tables' bytes,
 * and at the OOM the holes stranded between them exceed the request. With the lengths padded to a
 * multiple of {@code bucket} tokens there are only a handful of tables, and it never climbs.
 */
public final class VariableBatchRatchet implements Scenario {
    /** Steps a run may take before it is declared OOM-free. */
    public static final int MAX_STEPS = 5_000;

    private final int bucket;

    /** Batch lengths as they come. */
    public VariableBatchRatchet() { this(1); }

    /** Batch lengths padded up to a multiple of {@code bucket} tokens (1: not padded). */
    public VariableBatchRatchet(int bucket) {
        if (bucket < 1) throw new IllegalArgumentException("bucket must be >= 1, was " + bucket);
        this.bucket = bucket;
    }

    @Override public String name() {
        return bucket == 1 ? "variable-batch-ratchet" : "variable-batch-ratchet-padded-" + bucket;
    }
    @Override public Cause cause() { return Cause.FRAGMENTATION; }
    @Override public String title() {
        return "fragmentation: variable batch lengths ratchet reserved upward";
    }

    /**
     * Runs to the OOM.
     *
     * @throws IllegalStateException when no OOM comes in {@link #MAX_STEPS} steps, which is what
     *         padding the lengths should achieve
     */
    @Override
    public Outcome run(Policy policy, long seed) {
        return run(policy, seed, MAX_STEPS, (step, reserved) -> {});
    }

    /** Told what PyTorch holds reserved after each step's {@code empty_cache()}. */
    @FunctionalInterface
    public interface StepWatcher {
        void afterStep(int step, long reserved);
    }

    /**
     * Runs as {@link #run(Policy, long)} does, for at most {@code maxSteps} steps, telling
     * {@code watcher} the reserved bytes after every step that completed.
     */
    // tag::ratchet[]
    public Outcome run(Policy policy, long seed, int maxSteps, StepWatcher watcher) {
        Random rnd = new Random(seed);
        Rig rig = Rig.card((1536 + 256L * rnd.nextInt(3)) * MiB, (200 + rnd.nextInt(200)) * MiB,
                (300 + rnd.nextInt(200)) * MiB, policy);
        Set<Integer> lengthsSeen = new HashSet<>();
        List<Block> tables = new ArrayList<>();                  // one per length, kept
        for (int step = 1; step <= maxSteps; step++) {
            int tokens = padded(160 + rnd.nextInt(417));
            List<Block> acts = new ArrayList<>();
            try {
                for (int layer = 0; layer < 12; layer++) {
                    acts.add(rig.alloc(rig.torch, tokens * 16L * KiB * (1 + layer % 3)));
                    if (layer == 5 && lengthsSeen.add(tokens)) {
                        tables.add(rig.alloc(rig.torch, 3 * MiB + 1));  // cached for the run
                    }
                }
            } catch (CudaOutOfMemoryError e) {
                rig.say("Step " + step + " (" + tokens + " tokens): reserved "
                        + size(rig.torch.reserved()) + "; the " + tables.size()
                        + " per-length tables hold " + size(bytes(tables)) + ".");
                return rig.outcome(name(), cause(), e, List.of(
                        "  File \"finetune.py\", line 133, in train_step",
                        "    hidden = block(hidden, attention_mask)"));
            }
            acts.forEach(b -> rig.free(rig.torch, b));
            long released = rig.torch.emptyCache();             // "to be safe", every batch
            rig.check();
            watcher.afterStep(step, rig.torch.reserved());
            if (step % 100 == 0) {
                rig.say("Step " + step + ": reserved " + size(rig.torch.reserved()) + ", tables "
                        + size(bytes(tables)) + ", empty_cache() released " + size(released) + ".");
            }
        }
        throw new IllegalStateException(name() + ": no OOM in " + maxSteps + " steps; reserved "
                + size(rig.torch.reserved()) + " for " + tables.size() + " tables");
    }
    // end::ratchet[]

    private int padded(int tokens) { return (tokens + bucket - 1) / bucket * bucket; }

    private static long bytes(List<Block> blocks) {
        long sum = 0;
        for (Block b : blocks) sum += b.size();
        return sum;
    }
}
