package vramlab.replay;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import vramlab.alloc.CachingAllocator;
import vramlab.alloc.CudaOutOfMemoryError;
import vramlab.trace.TraceEvent;

/**
 * Reserved and allocated after every step of one replay, and the entries that failed: the
 * series {@link RunPage} draws, taken by listening to the very replay a command already runs.
 * Positions are the snapshot's trace entries ({@link TraceEvent#line()}), as the reports count them.
 */
public final class Timeline implements Replayer.Listener {
    private long[] position = new long[1024], reserved = new long[1024], allocated = new long[1024];
    private int n;
    private final List<Integer> ooms = new ArrayList<>();

    @Override
    public void event(long step, TraceEvent e, Replayer.Result result, long bytes, CachingAllocator a) {
        if (n == position.length) {
            position = Arrays.copyOf(position, 2 * n);
            reserved = Arrays.copyOf(reserved, 2 * n);
            allocated = Arrays.copyOf(allocated, 2 * n);
        }
        position[n] = e.line();
        reserved[n] = a.reserved();
        allocated[n] = a.allocated();
        n++;
    }

    @Override
    public void oom(long step, TraceEvent e, CudaOutOfMemoryError error) { ooms.add((int) e.line()); }

    public int size() { return n; }
    public long position(int i) { return position[i]; }
    public long reserved(int i) { return reserved[i]; }
    public long allocated(int i) { return allocated[i]; }

    /** The entries whose request failed, in order. */
    public List<Integer> ooms() { return List.copyOf(ooms); }

    /** The highest reserved of any step (0 with no step). */
    public long peakReserved() {
        long p = 0;
        for (int i = 0; i < n; i++) p = Math.max(p, reserved[i]);
        return p;
    }

    /** {@code first}, then {@code second}: both hear every step. */
    public static Replayer.Listener both(Replayer.Listener first, Replayer.Listener second) {
        return new Replayer.Listener() {
            @Override
            public void event(long step, TraceEvent e, Replayer.Result result, long bytes, CachingAllocator a) {
                first.event(step, e, result, bytes, a);
                second.event(step, e, result, bytes, a);
            }

            @Override
            public void oom(long step, TraceEvent e, CudaOutOfMemoryError error) {
                first.oom(step, e, error);
                second.oom(step, e, error);
            }
        };
    }
}
