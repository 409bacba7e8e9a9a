package vramlab.ch07.quiz;

import vramlab.pinned.HostBlock;
import vramlab.pinned.PinnedSim;

/** Where a pinned block is, read off the simulator: the allocator's four states, or gone. */
public enum BlockState {
    /** Handed out to a tensor that is still alive. */
    CHECKED_OUT,
    /** Freed, but an event recorded at free has not been seen to complete. */
    WAITING_FOR_EVENTS,
    /** On its size's free list: the next request of that size gets it. */
    FREE_LIST,
    /** On the free list of the graph capture that allocated it: only that graph's pool reuses it. */
    GRAPH_POOL,
    /** Kept forever: a graph capture allocated it and a copy used it. */
    PARKED,
    /** Given back to the OS ({@code cudaFreeHost}); the allocator no longer owns it. */
    RELEASED;

    static BlockState of(PinnedSim sim, HostBlock b) {
        if (!sim.allocator().blocks().contains(b)) return RELEASED;
        if (b.allocated()) return CHECKED_OUT;
        if (b.eventCount() > 0) return WAITING_FOR_EVENTS;
        if (sim.allocator().parked().contains(b)) return PARKED;
        return b.captured() ? GRAPH_POOL : FREE_LIST;
    }
}
