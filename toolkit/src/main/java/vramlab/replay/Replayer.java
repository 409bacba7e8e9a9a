package vramlab.replay;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;

import vramlab.alloc.Block;
import vramlab.alloc.CachingAllocator;
import vramlab.alloc.CudaOutOfMemoryError;
import vramlab.trace.TraceEvent;
import vramlab.trace.TraceException;

/**
 * Replays trace events through a caching allocator, one at a time, and tells a listener what
 * each did. Holds only the live handles (and the handles whose alloc ended in OOM until their
 * free arrives), so it streams traces of any length.
 */
public final class Replayer {
    /** What one event did: {@code ok}, {@code oom} or {@code skipped}. */
    public enum Result {
        OK, OOM, SKIPPED;

        public String word() { return name().toLowerCase(); }
    }

    /** Hears each event after it is applied, with the allocator's state at that moment. */
    public interface Listener {
        void event(long step, TraceEvent e, Result result, long bytes, CachingAllocator a);

        default void oom(long step, TraceEvent e, CudaOutOfMemoryError error) {}
    }

    private final CachingAllocator allocator;
    private final Listener listener;
    private final String file;
    private final boolean checkInvariants;
    private final Map<String, Block> live = new HashMap<>();
    private final Set<String> failed = new HashSet<>();
    private long step;

    public Replayer(CachingAllocator allocator, Listener listener, String file, boolean checkInvariants) {
        this.allocator = allocator;
        this.listener = listener;
        this.file = file;
        this.checkInvariants = checkInvariants;
    }

    public void replay(Iterator<TraceEvent> events) {
        while (events.hasNext()) apply(events.next());
    }

    public void apply(TraceEvent e) {
        step++;
        switch (e.op()) {
            case ALLOC -> alloc(e);
            case FREE -> free(e);
            case EMPTY_CACHE -> listener.event(step, e, Result.OK, allocator.emptyCache(), allocator);
        }
        if (checkInvariants) allocator.checkInvariants();
    }

    private void alloc(TraceEvent e) {
        if (live.containsKey(e.handle())) {
            throw new TraceException(file, e.line(), "alloc of handle '" + e.handle() + "', which is still live");
        }
        failed.remove(e.handle());
        try {
            live.put(e.handle(), allocator.alloc(e.size(), e.stream()));
            listener.event(step, e, Result.OK, e.size(), allocator);
        } catch (CudaOutOfMemoryError oom) {
            failed.add(e.handle());
            listener.oom(step, e, oom);
            listener.event(step, e, Result.OOM, e.size(), allocator);
        }
    }

    private void free(TraceEvent e) {
        Block b = live.remove(e.handle());
        if (b != null) {
            long bytes = b.requested();
            allocator.free(b);
            listener.event(step, e, Result.OK, bytes, allocator);
        } else if (failed.remove(e.handle())) {
            listener.event(step, e, Result.SKIPPED, 0, allocator);   // its alloc died in OOM
        } else {
            throw new TraceException(file, e.line(), "free of unknown handle '" + e.handle()
                    + "' (never allocated, or already freed)");
        }
    }

    public long steps() { return step; }
    public int liveHandles() { return live.size(); }
}
