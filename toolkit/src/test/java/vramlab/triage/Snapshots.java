package vramlab.triage;

import static vramlab.units.Bytes.MiB;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import vramlab.kit.RealSnapshotsFolder;

/**
 * Hand-built memory snapshots with PyTorch's keys ({@code segments} with {@code blocks},
 * {@code device_traces} of entries), sizes in MiB; and where the real ones are.
 */
public final class Snapshots {
    private final List<Object> segments = new ArrayList<>();
    private final List<Object> trace = new ArrayList<>();

    /** A dumped segment at {@code at} MiB; blocks given as {start, size, allocated ? 1 : 0}. */
    public Snapshots segment(long at, long size, boolean expandable, long[]... blocks) {
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("device", 0);
        s.put("address", at * MiB);
        s.put("total_size", size * MiB);
        s.put("segment_pool_id", List.of(0, 0));
        s.put("is_expandable", expandable);
        List<Object> bs = new ArrayList<>();
        for (long[] b : blocks) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("address", b[0] * MiB);
            m.put("size", b[1] * MiB);
            m.put("state", b[2] == 1 ? "active_allocated" : "inactive");
            bs.add(m);
        }
        s.put("blocks", bs);
        segments.add(s);
        return this;
    }

    /** A trace entry: action, address and size in MiB. */
    public Snapshots entry(String action, long at, long size) {
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("action", action);
        e.put("addr", at * MiB);
        e.put("size", size * MiB);
        e.put("stream", 0);
        trace.add(e);
        return this;
    }

    public Snapshots oom(long size, long deviceFree) {
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("action", "oom");
        e.put("size", size * MiB);
        e.put("device_free", deviceFree * MiB);
        e.put("stream", 0);
        e.put("frames", List.of(Map.of("name", "forward", "filename", "model.py", "line", 12)));
        trace.add(e);
        return this;
    }

    public Map<String, Object> build() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("segments", segments);
        m.put("device_traces", List.of(trace));
        return m;
    }

    /**
     * Segment A [100, 120) MiB: at the OOM an 8 MiB hole, one live 8 MiB block, a 4 MiB tail;
     * segment C [300, 302) exists then and is released after; segment B comes after the OOM.
     */
    public static Map<String, Object> holes() {
        return new Snapshots()
                .segment(100, 20, false, new long[] {100, 4, 1}, new long[] {104, 16, 0})
                .segment(200, 10, false, new long[] {200, 10, 1})
                .entry("segment_alloc", 100, 20).entry("segment_alloc", 300, 2)
                .entry("alloc", 100, 8).entry("alloc", 108, 8).entry("free_completed", 100, 8)
                .oom(12, 5)
                .entry("free_completed", 108, 8).entry("alloc", 100, 4)
                .entry("segment_alloc", 200, 10).entry("alloc", 200, 10)
                .entry("segment_free", 300, 2)
                .build();
    }

    /**
     * ../shared/real-snapshots/snapshots beside the kit, when it is there (null otherwise: callers
     * skip with {@link RealSnapshotsFolder#MISSING}); where CI requires the set, a missing one throws.
     */
    public static Path realDir() {
        return RealSnapshotsFolder.snapshots().orElse(null);
    }
}
