package vramlab.replay;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import vramlab.alloc.Block;
import vramlab.alloc.CachingAllocator;
import vramlab.alloc.DeviceTrace.Action;
import vramlab.alloc.Segment;
import vramlab.snapshot.Snapshot;

/**
 * The recorded run's end beside the replay's, for {@link SnapshotReplay.Report}: the segments
 * each ends with (one {@link SnapshotReplay.Extent} per mapped range), the live blocks both hold, and the
 * bursts of segment actions each history made, so a report can say where the two part.
 */
final class EndState {
    private EndState() {}

    /** One entry of a history, as much as the segment runs read: {@code action} null if it has none. */
    record Event(Action action, long addr, long size) {}

    /**
     * The segment actions ({@code segment_alloc}, {@code _free}, {@code _map}, {@code _unmap})
     * as runs of consecutive entries, each run sorted: PyTorch releases cached segments in its
     * free sets' order, the kit in its own, and within one burst the order carries no meaning.
     */
    static List<List<String>> segmentRuns(List<Event> entries) {
        List<List<String>> runs = new ArrayList<>();
        List<String> run = new ArrayList<>();
        for (Event e : entries) {
            Action a = e.action();
            if (a == Action.SEGMENT_ALLOC || a == Action.SEGMENT_FREE || a == Action.SEGMENT_MAP
                    || a == Action.SEGMENT_UNMAP) {
                run.add(a.word() + " " + SnapshotSteps.handle(e.addr()) + " " + e.size());
            } else if (!run.isEmpty()) {
                run.sort(null);
                runs.add(run);
                run = new ArrayList<>();
            }
        }
        if (!run.isEmpty()) {
            run.sort(null);
            runs.add(run);
        }
        return runs;
    }

    static int count(List<List<String>> runs) { return runs.stream().mapToInt(List::size).sum(); }

    /** Null when both histories made the same segment actions; else the first that differs. */
    static String firstDifference(List<List<String>> recorded, List<List<String>> replayed) {
        for (int i = 0; i < Math.max(recorded.size(), replayed.size()); i++) {
            List<String> r = i < recorded.size() ? recorded.get(i) : List.of();
            List<String> p = i < replayed.size() ? replayed.get(i) : List.of();
            if (!r.equals(p)) {
                return "burst " + (i + 1) + ": recorded " + (r.isEmpty() ? "nothing" : r.get(0)
                        + (r.size() > 1 ? " (+" + (r.size() - 1) + ")" : "")) + ", replayed "
                        + (p.isEmpty() ? "nothing"
                                : p.get(0) + (p.size() > 1 ? " (+" + (p.size() - 1) + ")" : ""));
            }
        }
        return null;
    }

    /** Each recorded segment, by address. */
    static List<SnapshotReplay.Extent> recordedSegments(Snapshot.Device d) {
        List<SnapshotReplay.Extent> out = new ArrayList<>();
        for (Snapshot.Segment s : d.segments()) out.add(new SnapshotReplay.Extent(s.address(), s.totalSize()));
        return out;
    }

    /** Each segment as a snapshot reports them: one per mapped range, by address. */
    static List<SnapshotReplay.Extent> replayedSegments(CachingAllocator a) {
        List<SnapshotReplay.Extent> out = new ArrayList<>();
        for (Segment s : a.segments()) {
            if (!s.isExpandable()) {
                out.add(new SnapshotReplay.Extent(s.address(), s.size()));
                continue;
            }
            long start = -1, bytes = 0;
            for (Block b = s.first(); b != null; b = b.next()) {
                if (b.isMapped()) {
                    if (start < 0) start = b.address();
                    bytes += b.size();
                } else if (start >= 0) {
                    out.add(new SnapshotReplay.Extent(start, bytes));
                    start = -1;
                    bytes = 0;
                }
            }
            if (start >= 0) out.add(new SnapshotReplay.Extent(start, bytes));
        }
        out.sort(Comparator.comparingLong(SnapshotReplay.Extent::address));
        return out;
    }

    static int liveBlocks(Snapshot.Device d) {
        int n = 0;
        for (Snapshot.Segment s : d.segments()) for (Snapshot.Block b : s.blocks()) if (b.isActive()) n++;
        return n;
    }

    /** Recorded live blocks that the replay also ends with, at the same address and size. */
    static int matchedLive(Snapshot.Device d, CachingAllocator a) {
        Set<String> replayed = new HashSet<>();
        for (Segment s : a.segments()) {
            for (Block b = s.first(); b != null; b = b.next()) {
                if (b.isActive()) replayed.add(b.address() + ":" + b.size());
            }
        }
        int n = 0;
        for (Snapshot.Segment s : d.segments()) {
            for (Snapshot.Block b : s.blocks()) {
                if (b.isActive() && replayed.contains(b.address() + ":" + b.size())) n++;
            }
        }
        return n;
    }
}
