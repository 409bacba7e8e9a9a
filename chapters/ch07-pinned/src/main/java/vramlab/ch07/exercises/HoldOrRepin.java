package vramlab.ch07.exercises;

import static vramlab.units.Bytes.readable;

import java.util.Random;

import vramlab.ch07.TrainingLoop;
import vramlab.driver.Clock;
import vramlab.driver.CopyEngine;
import vramlab.driver.HostCostModel;
import vramlab.kit.Exercise;

/**
 * Exercise: a training loop with a seeded batch size and number of steps; predict the steady
 * step and the whole run when the pinned batch is held, and when it is freed and re-pinned every
 * step, from the kit's cost model and copy engine.
 */
public final class HoldOrRepin implements Exercise {
    record Workload(long batch, int steps) {}

    @Override public String title() { return "Hold the pinned batch, or re-pin it every step?"; }

    static Workload workload(long seed) {
        Random r = new Random(seed);
        long batch = (16 + r.nextInt(497)) * (1L << 20);
        return new Workload(batch, 3 + r.nextInt(10));
    }

    @Override
    public String prompt(long seed) {
        Workload w = workload(seed);
        HostCostModel c = HostCostModel.DEFAULT;
        CopyEngine e = CopyEngine.PCIE4;
        return String.format("A training loop copies a %s pinned batch to the GPU each step, %d steps. Each step:\n"
                        + "the host fills the batch (%s), one non-blocking copy (%s GB/s, plus %s latency),\n"
                        + "compute (%s), then loss.item() waits for the GPU. Pinning costs %s + %s per MiB\n"
                        + "(of the block, not of the request); cudaFreeHost %s + %s per MiB.\n"
                        + "(a) HOLD: pinned once before the loop. (b) RE-PIN: pinned at the start of every step,\n"
                        + "deleted and empty_host_cache() at its end. What is the steady step of each, how\n"
                        + "long is each whole run, and how many cudaHostAlloc calls does each make?",
                readable(w.batch()), w.steps(), Clock.ms(TrainingLoop.FILL_NANOS), e.bytesPerSecond() / 1_000_000_000.0,
                Clock.ms(e.latencyNanos()), Clock.ms(TrainingLoop.COMPUTE_NANOS), Clock.ms(c.allocBaseNanos()),
                Clock.ms(c.allocNanosPerMiB()), Clock.ms(c.freeBaseNanos()), Clock.ms(c.freeNanosPerMiB()));
    }

    static TrainingLoop.Result run(long seed, TrainingLoop.Strategy s) {
        Workload w = workload(seed);
        return TrainingLoop.run(s, w.steps(), w.batch(), new vramlab.pinned.PinnedSim());
    }

    @Override
    public String answer(long seed) {
        TrainingLoop.Result hold = run(seed, TrainingLoop.Strategy.HOLD);
        TrainingLoop.Result repin = run(seed, TrainingLoop.Strategy.FREE_EVERY_STEP);
        return String.format("HOLD:   steady step %s, whole run %s, cudaHostAlloc x%d%n"
                        + "RE-PIN: steady step %s, whole run %s, cudaHostAlloc x%d%n"
                        + "(the block is the batch rounded up to a power of two: the pin and unpin costs are"
                        + " the block's, the copy is the batch's)",
                Clock.ms(hold.steadyStepNanos()), Clock.ms(hold.totalNanos()), hold.cudaHostAllocCalls(),
                Clock.ms(repin.steadyStepNanos()), Clock.ms(repin.totalNanos()), repin.cudaHostAllocCalls());
    }
}
