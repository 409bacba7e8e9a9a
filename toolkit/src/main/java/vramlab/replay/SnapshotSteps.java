package vramlab.replay;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import vramlab.alloc.CachingAllocator;
import vramlab.alloc.DeviceTrace.Action;
import vramlab.snapshot.Snapshot;
import vramlab.trace.TraceEvent;

/**
 * A snapshot's history as the steps a replay takes ({@link SnapshotReplay}'s class comment says
 * which entry becomes which): allocs and frees by block address, a run of segment releases as
 * one {@code empty_cache()} unless an OOM's own release ends it, and the address each new
 * segment took in the recording, for the replay to place its own there.
 */
final class SnapshotSteps {
    private SnapshotSteps() {}

    /** One step of the replay, from one or more history entries. */
    record Step(int position, TraceEvent.Op op, String handle, long size, long stream, long hint,
                        boolean recordedOom) {}

    /** The history as replay steps (see the class comment). */
    static List<Step> of(List<Snapshot.Entry> trace) {
        List<Step> out = new ArrayList<>();
        List<Snapshot.Entry> run = new ArrayList<>();
        Set<Long> freeing = new HashSet<>();           // free_requested replayed, free_completed to come
        for (Snapshot.Entry e : trace) {
            Action a = e.action();
            if (a == Action.SEGMENT_ALLOC || a == Action.SEGMENT_FREE || a == Action.SEGMENT_MAP
                    || a == Action.SEGMENT_UNMAP) {
                run.add(e);
                continue;
            }
            long hint = flush(run, a == Action.OOM, out);
            if (a == Action.ALLOC) {
                out.add(new Step(e.position(), TraceEvent.Op.ALLOC, handle(e.addr()), e.size(),
                        e.stream(), hint, false));
            } else if (a == Action.OOM) {
                out.add(new Step(e.position(), TraceEvent.Op.ALLOC, "oom@" + e.position(), e.size(),
                        e.stream(), CachingAllocator.NO_HINT, true));
            } else if (a == Action.FREE_REQUESTED
                    || (a == Action.FREE_COMPLETED && !freeing.remove(e.addr()))) {
                if (a == Action.FREE_REQUESTED) freeing.add(e.addr());
                out.add(new Step(e.position(), TraceEvent.Op.FREE, handle(e.addr()), 0, e.stream(), 0,
                        false));
            }
        }
        flush(run, false, out);
        return out;
    }

    /** Ends a run of segment entries; returns the address the next segment should take. */
    private static long flush(List<Snapshot.Entry> run, boolean beforeOom, List<Step> out) {
        if (run.isEmpty()) return CachingAllocator.NO_HINT;
        long hint = CachingAllocator.NO_HINT;
        Snapshot.Entry release = null;
        for (Snapshot.Entry e : run) {
            if (e.action() == Action.SEGMENT_FREE || e.action() == Action.SEGMENT_UNMAP) {
                if (release == null) release = e;
            } else if (e.action() == Action.SEGMENT_ALLOC || hint == CachingAllocator.NO_HINT) {
                hint = e.addr();                       // the last cudaMalloc, or the first map
            }
        }
        if (release != null && !beforeOom) {
            out.add(new Step(release.position(), TraceEvent.Op.EMPTY_CACHE, "", 0, 0, 0, false));
        }
        run.clear();
        return hint;
    }

    /** A block's handle in the replay: its recorded address, in hex. */
    static String handle(long address) { return "0x" + Long.toHexString(address); }
}
