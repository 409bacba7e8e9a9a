package vramlab.ch04.causes;

import vramlab.alloc.Policy;
import vramlab.triage.Cause;

/**
 * One cause of a real OOM, staged on the simulator. {@link #run} builds the state from a seed
 * (sizes vary, the cause does not) and ends in the OOM the cause leads to.
 */
public interface Scenario {
    /** A short name, used for anchors in the notes and in test names. */
    String name();

    /** One line: what this scenario shows. */
    String title();

    /** The cause the scenario was built to show, as the triage names it. */
    Cause cause();

    /**
     * Runs the scenario to its OOM.
     *
     * @param policy the caching allocator's policy (the toy now; PyTorch's when it lands)
     * @param seed   varies the sizes; every seed ends in this scenario's cause
     */
    Outcome run(Policy policy, long seed);
}
