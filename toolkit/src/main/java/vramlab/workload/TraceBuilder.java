package vramlab.workload;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import vramlab.trace.TraceEvent;

/** Writes a trace event by event: fresh handles, and every block freed by {@link #finish}. */
final class TraceBuilder {
    private final List<TraceEvent> events = new ArrayList<>();
    private final Set<String> live = new LinkedHashSet<>();
    private long next;

    /** Allocates {@code size} bytes (at least 1) and returns the handle, {@code prefix.N}. */
    String alloc(String prefix, long size) {
        String h = prefix + "." + next++;
        events.add(TraceEvent.alloc(events.size() + 1, h, Math.max(1, size)));
        live.add(h);
        return h;
    }

    void free(String handle) {
        if (!live.remove(handle)) throw new IllegalStateException("free of " + handle + ", not live");
        events.add(TraceEvent.free(events.size() + 1, handle));
    }

    void freeAll(List<String> handles) {
        for (int i = handles.size() - 1; i >= 0; i--) free(handles.get(i));
        handles.clear();
    }

    void emptyCache() { events.add(TraceEvent.emptyCache(events.size() + 1)); }

    /** Frees what is still live (last allocated first), then {@code empty_cache}: the job exits. */
    List<TraceEvent> finish() {
        freeAll(new ArrayList<>(live));
        emptyCache();
        return events;
    }
}
