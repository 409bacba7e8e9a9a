package vramlab.ch07;

import static vramlab.units.Bytes.mib;

import vramlab.driver.Clock;
import vramlab.driver.DeviceBuffer;
import vramlab.pinned.HostBlock;
import vramlab.pinned.PinnedSim;

/**
 * A training loop's input path, two ways: pin the staging batch once and hold it, or free it
 * every step (del, then empty_host_cache) and pin it again next step. Each step: the host fills
 * the batch, copies it to the GPU without blocking, the GPU computes, and the host waits for
 * the step's result ({@code loss.item()}). Everything is simulated time, so it is deterministic.
 */
public final class TrainingLoop {
    /** The two ways to run the loop. */
    public enum Strategy { HOLD, FREE_EVERY_STEP }

    public static final long BATCH = mib(256);
    public static final long FILL_NANOS = 2_000_000;      // the host writes the batch: 2 ms
    public static final long COMPUTE_NANOS = 40_000_000;  // forward + backward: 40 ms

    /**
     * What one run measured.
     *
     * @param steadyStepNanos the last step's wall time (the first includes the first pin)
     * @param pinnedBetweenSteps pinned bytes after the last step ended
     */
    public record Result(Strategy strategy, int steps, long totalNanos, long steadyStepNanos,
                         long peakPinned, long pinnedBetweenSteps, long cudaHostAllocCalls,
                         long cudaFreeHostCalls, long pinAndUnpinNanos) {
        public String line() {
            return String.format("%-16s %d steps in %s, steady step %s, pinned peak %d MiB,"
                            + " between steps %d MiB, cudaHostAlloc x%d, cudaFreeHost x%d",
                    strategy, steps, Clock.ms(totalNanos), Clock.ms(steadyStepNanos),
                    peakPinned / mib(1), pinnedBetweenSteps / mib(1), cudaHostAllocCalls,
                    cudaFreeHostCalls);
        }
    }

    private TrainingLoop() {}

    // tag::loop[]
    /** Runs {@code steps} steps of a {@code size} batch on {@code sim}, a fresh process. */
    public static Result run(Strategy strategy, int steps, long size, PinnedSim sim) {
        DeviceBuffer input = sim.cuda(size);
        HostBlock batch = strategy == Strategy.HOLD ? sim.pin(size) : null;
        long peak = sim.host().pinnedBytes(), stepStart = 0;
        for (int step = 0; step < steps; step++) {
            stepStart = sim.clock().now();
            if (strategy == Strategy.FREE_EVERY_STEP) batch = sim.pin(size);    // re-pin
            long t = sim.clock().now();
            sim.clock().advanceBy(FILL_NANOS);
            batch.store(step);
            sim.clock().recordHost("fill batch " + step, t);
            sim.copyToDevice(input, batch);                  // non_blocking=True
            sim.kernel("step " + step, COMPUTE_NANOS);
            peak = Math.max(peak, sim.host().pinnedBytes());
            sim.stream().synchronize();                      // loss.item()
            if (strategy == Strategy.FREE_EVERY_STEP) {
                sim.del(batch);
                sim.emptyHostCache();                        // give it back to the OS
            }
            sim.checkInvariants();
        }
        return new Result(strategy, steps, sim.clock().now(), sim.clock().now() - stepStart, peak,
                sim.host().pinnedBytes(), sim.host().hostAllocCalls(), sim.host().freeHostCalls(),
                sim.host().pinNanos() + sim.host().unpinNanos());
    }
    // end::loop[]

    /** {@link #run(Strategy, int, long, PinnedSim)} of the 256 MiB batch. */
    public static Result run(Strategy strategy, int steps, PinnedSim sim) { return run(strategy, steps, BATCH, sim); }

    public static Result run(Strategy strategy, int steps) { return run(strategy, steps, new PinnedSim()); }
}
