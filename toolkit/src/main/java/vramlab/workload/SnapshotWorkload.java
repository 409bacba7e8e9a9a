package vramlab.workload;

import java.util.HashMap;
import java.util.Map;

import vramlab.alloc.DeviceTrace.Action;
import vramlab.replay.SnapshotReplay;
import vramlab.replay.StartState;
import vramlab.snapshot.Snapshot;
import vramlab.snapshot.SnapshotFile;

/**
 * A real PyTorch memory snapshot read as a contest workload: the blocks live when its history
 * began (as {@link StartState} rebuilds them, allocated first, in address order), then its
 * history's allocs and frees, an {@code empty_cache} where the recording gave segments back, and
 * at the end every block freed. Simplifications: one stream (the recording's streams are not
 * kept apart), a recorded OOM's request is left out (it never got a block), and a free of a
 * block neither the start state nor the history allocated is skipped.
 */
public final class SnapshotWorkload {
    private SnapshotWorkload() {}

    /** The snapshot in {@code bytes} (pickle or JSON, gzipped or not) on a card of {@code card} bytes. */
    public static Workload read(byte[] bytes, String file, long card) {
        return of(SnapshotFile.read(bytes, file), card);
    }

    /** The device {@link SnapshotFile#pickDevice} picks, on a card of {@code card} bytes. */
    public static Workload of(Snapshot s, long card) {
        Snapshot.Device d = SnapshotFile.pickDevice(s);
        Map<Long, Integer> streams = new HashMap<>();
        streams.put(0L, 0);
        StartState start = StartState.of(d, SnapshotReplay.recordingPolicy(s, d), streams);
        TraceBuilder t = new TraceBuilder();
        Map<Long, String> live = new HashMap<>();
        for (StartState.SegmentAt seg : start.segments()) {
            for (StartState.LiveAt b : seg.live()) {
                live.put(b.address(), t.alloc("start", b.requested() > 0 ? b.requested() : b.size()));
            }
        }
        java.util.Set<Long> freeing = new java.util.HashSet<>();
        boolean releasing = false;
        for (Snapshot.Entry e : d.trace()) {
            Action a = e.action();
            if (a == Action.SEGMENT_FREE || a == Action.SEGMENT_UNMAP) {
                releasing = true;
                continue;
            }
            if (a == Action.SEGMENT_ALLOC || a == Action.SEGMENT_MAP || a == null) continue;
            if (releasing && a != Action.OOM) t.emptyCache();
            releasing = false;
            if (a == Action.ALLOC) {
                String old = live.remove(e.addr());
                if (old != null) t.free(old);                       // a free the history lost
                live.put(e.addr(), t.alloc("0x" + Long.toHexString(e.addr()), e.size()));
            } else if (a == Action.FREE_REQUESTED || (a == Action.FREE_COMPLETED && !freeing.remove(e.addr()))) {
                if (a == Action.FREE_REQUESTED) freeing.add(e.addr());
                String h = live.remove(e.addr());
                if (h != null) t.free(h);
            }
        }
        return new Workload(name(s.file()), card, "a recorded PyTorch run, device " + d.index(),
                "the snapshot " + s.file(), t.finish());
    }

    /** A snapshot workload's name: its file's name without {@code .pickle}, {@code .pkl} or {@code .json} (and {@code .gz}). */
    public static String name(String file) {
        return file.replaceAll("^.*[/\\\\]", "").replaceAll("\\.(pickle|pkl|json)(\\.gz)?$", "");
    }
}
