package vramlab.replay;

import static vramlab.units.Bytes.formatSize;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import vramlab.alloc.Block;
import vramlab.alloc.DeviceTrace.Action;
import vramlab.alloc.PoolKind;
import vramlab.snapshot.Snapshot;

/**
 * Who holds the memory at one moment of a snapshot's run (the peak, an OOM, any entry): the
 * live blocks grouped by where they were allocated, largest first, and the holes beside them
 * (the largest free block of each pool). The live blocks are the workload's and do not depend
 * on the setting, so they come from the recorded history itself: the blocks allocated and not
 * yet freed, plus those allocated before the history began (a later free, or the final
 * segments, names them). The holes depend on the setting and come from the replay stopped
 * at that moment.
 *
 * <p>A block's site is its first Python frame outside PyTorch ({@code torch/}): where the
 * user's code asked for it, as pytorch.org/memory_viz shows on hover. A history recorded
 * without Python frames says so.
 *
 * @param position   the trace entry (0: before the history)
 * @param when       what the moment is, in words ("the peak", "the OOM at entry 1118")
 * @param live       bytes the live blocks were asked for (a trace entry records the request, not
 *                   the rounded block)
 * @param blocks     how many live blocks
 * @param sites      by site, largest first
 * @param holes      the largest free block of each pool in the replay at that moment
 * @param reserved   what the replay held then
 */
public record WhoHolds(int position, String when, long live, int blocks, List<Site> sites,
                       Map<PoolKind, Long> holes, long reserved) {

    /** One allocation site: its bytes, its blocks, and the Python stack of its largest block. */
    public record Site(String where, long bytes, int count, List<String> stack) {}

    /** The site of blocks the history does not show being allocated. */
    public static final String BEFORE_HISTORY = "(allocated before the recorded history began)";
    /** The site of blocks whose stack has no Python frame. */
    public static final String NO_PYTHON = "(no Python frame recorded)";

    /**
     * @param before whether the entry at {@code position} is a request that failed (an OOM): its
     *               request never became a block, so the live blocks are those before it; the
     *               holes and reserved bytes are the replay's after it failed (see {@link #atFailure})
     */
    public static WhoHolds at(Snapshot s, Snapshot.Device d, SnapshotReplay.Options o, int position,
                              boolean before, String when) {
        int p = settle(d, position);
        int upTo = before ? p - 1 : p;
        Map<Long, Held> live = liveAt(d, upTo);
        SnapshotReplay.Report r = before ? atFailure(s, d, o, p) : SnapshotReplay.stateAt(s, d, o, p);
        Map<PoolKind, Long> holes = new LinkedHashMap<>();
        for (PoolKind k : PoolKind.values()) {
            long max = 0;
            for (Block b : r.allocator().freeBlocks(k)) max = Math.max(max, b.size());
            holes.put(k, max);
        }
        Map<String, Site> bySite = new HashMap<>();
        Map<String, Long> biggest = new HashMap<>();
        long total = 0;
        for (Held h : live.values()) {
            total += h.size;
            String site = site(h.frames, h.before);
            Site old = bySite.get(site);
            boolean larger = h.size > biggest.getOrDefault(site, -1L);
            if (larger) biggest.put(site, h.size);
            bySite.put(site, new Site(site, (old == null ? 0 : old.bytes()) + h.size,
                    (old == null ? 0 : old.count()) + 1, larger ? python(h.frames) : old.stack()));
        }
        List<Site> sites = new ArrayList<>(bySite.values());
        sites.sort((x, y) -> x.bytes() != y.bytes() ? Long.compare(y.bytes(), x.bytes())
                : x.where().compareTo(y.where()));
        return new WhoHolds(p, when, total, live.size(), List.copyOf(sites), holes, r.allocator().reserved());
    }

    /**
     * The replay's state at the failed request at {@code p}, as PyTorch reported it. Before it
     * gives up, malloc frees cached blocks and retries: {@code release_available_cached_blocks},
     * then {@code release_cached_blocks} (c10/cuda/CUDACachingAllocator.cpp @001074d, CCA:1235-1255),
     * so the segments it released are gone when the OOM is reported (its message's "this process
     * has ... in use", the snapshot's {@code segment_free} entries just before the {@code oom}).
     * The replay's allocator does the same within the step, so the state is the one after step
     * {@code p}; when the replay's request did not fail there (another setting, another card),
     * there was no such moment, and it is the state before the request.
     */
    private static SnapshotReplay.Report atFailure(Snapshot s, Snapshot.Device d, SnapshotReplay.Options o, int p) {
        SnapshotReplay.Report after = SnapshotReplay.stateAt(s, d, o, p);
        return after.replayedOoms().contains(p) ? after : SnapshotReplay.stateAt(s, d, o, p - 1);
    }

    /** Who holds at the replay's peak reserved. */
    public static WhoHolds atPeak(Snapshot s, Snapshot.Device d, SnapshotReplay.Options o,
                                  SnapshotReplay.Report r) {
        return at(s, d, o, r.replayedPeakPosition(), false,
                "the peak (" + formatSize(r.replayedPeak()) + " reserved, entry " + r.replayedPeakPosition() + ")");
    }

    /** Who holds at the replay's first OOM, or null when it has none. */
    public static WhoHolds atFirstOom(Snapshot s, Snapshot.Device d, SnapshotReplay.Options o,
                                      SnapshotReplay.Report r) {
        if (r.replayedOoms().isEmpty()) return null;
        int p = r.replayedOoms().get(0);
        return at(s, d, o, p, true, "the OOM at entry " + p);
    }

    /** A segment entry is what the allocator did for the request after it: move to that request. */
    private static int settle(Snapshot.Device d, int position) {
        List<Snapshot.Entry> t = d.trace();
        int i = position - 1;
        while (i >= 0 && i < t.size() && isSegment(t.get(i).action())) i++;
        return i >= t.size() ? position : i + 1;
    }

    private static boolean isSegment(Action a) {
        return a == Action.SEGMENT_ALLOC || a == Action.SEGMENT_MAP || a == Action.SEGMENT_FREE
                || a == Action.SEGMENT_UNMAP;
    }

    private record Held(long size, List<Snapshot.Frame> frames, boolean before) {}

    /** The blocks live after entry {@code upTo} of the recorded history, by address. */
    static Map<Long, Held> liveAt(Snapshot.Device d, int upTo) {
        Map<Long, Held> live = new HashMap<>();
        Set<Long> touched = new HashSet<>();            // allocated or freed somewhere in the history
        for (Snapshot.Entry e : d.trace()) {
            Action a = e.action();
            if (a == Action.ALLOC || a == Action.FREE_REQUESTED || a == Action.FREE_COMPLETED) touched.add(e.addr());
        }
        Set<Long> seenBefore = new HashSet<>();         // allocated or freed at or before upTo
        Set<Long> laterAllocated = new HashSet<>();
        for (Snapshot.Entry e : d.trace()) {
            Action a = e.action();
            boolean alloc = a == Action.ALLOC;
            boolean free = a == Action.FREE_REQUESTED || a == Action.FREE_COMPLETED;
            if (e.position() <= upTo) {
                if (alloc) live.put(e.addr(), new Held(e.size(), e.frames(), false));
                else if (free) live.remove(e.addr());
                if (alloc || free) seenBefore.add(e.addr());
            } else if (alloc) {
                laterAllocated.add(e.addr());
            } else if (free && !live.containsKey(e.addr()) && !laterAllocated.contains(e.addr())
                    && !seenBefore.contains(e.addr())) {
                live.put(e.addr(), new Held(e.size(), List.of(), true));   // allocated before the history
            }
        }
        for (Snapshot.Segment seg : d.segments()) {
            for (Snapshot.Block b : seg.blocks()) {
                if (b.isActive() && !touched.contains(b.address())) {
                    long asked = b.requested() > 0 ? b.requested() : b.size();     // 2.0 files: the size
                    live.put(b.address(), new Held(asked, b.frames(), true));      // alive all along
                }
            }
        }
        return live;
    }

    /** The first Python frame outside torch/, else the first Python frame, else a note. */
    static String site(List<Snapshot.Frame> frames, boolean beforeHistory) {
        Snapshot.Frame firstPython = null;
        for (Snapshot.Frame f : frames) {
            if (!f.isPython()) continue;
            if (!f.isTorch()) return f.toString();
            if (firstPython == null) firstPython = f;
        }
        if (firstPython != null) return firstPython.toString();
        if (beforeHistory && frames.isEmpty()) return BEFORE_HISTORY;
        return frames.isEmpty() ? "(no frames recorded)" : NO_PYTHON;
    }

    private static List<String> python(List<Snapshot.Frame> frames) {
        List<String> out = new ArrayList<>();
        for (Snapshot.Frame f : frames) if (f.isPython()) out.add(f.toString());
        return out;
    }

    /** The table: the largest sites (all with {@code stacks}, with their Python stacks). */
    public String text(int top, boolean stacks) {
        StringBuilder sb = new StringBuilder();
        sb.append("who holds the memory at ").append(when).append(": ").append(formatSize(live))
          .append(" requested by ").append(blocks).append(" live blocks, ").append(formatSize(reserved))
          .append(" reserved\n");
        int shown = 0;
        for (Site site : sites) {
            if (shown++ == top) {
                long rest = 0;
                int n = 0;
                for (Site x : sites.subList(top, sites.size())) {
                    rest += x.bytes();
                    n += x.count();
                }
                sb.append(String.format("  %12s %6d blocks  (%d more sites)%n", formatSize(rest), n,
                        sites.size() - top));
                break;
            }
            sb.append(String.format("  %12s %6d %s  %s%n", formatSize(site.bytes()), site.count(),
                    site.count() == 1 ? "block " : "blocks", site.where()));
            if (stacks) for (String f : site.stack()) sb.append("        ").append(f).append('\n');
        }
        sb.append("  holes beside them (largest free block): ");
        List<String> h = new ArrayList<>();
        holes.forEach((k, v) -> h.add(k.name().toLowerCase(java.util.Locale.ROOT) + " pool " + formatSize(v)));
        sb.append(String.join(", ", h)).append('\n');
        return sb.toString();
    }

    /** The same as {@link #text}, as plain values for JSON: every site, bytes as numbers. */
    public Map<String, Object> map() {
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("entry", (long) position);
        o.put("when", when);
        o.put("live", live);
        o.put("blocks", (long) blocks);
        o.put("reserved", reserved);
        List<Object> rows = new ArrayList<>();
        for (Site site : sites) {
            Map<String, Object> r = new LinkedHashMap<>();
            r.put("site", site.where());
            r.put("bytes", site.bytes());
            r.put("blocks", (long) site.count());
            r.put("stack", site.stack());
            rows.add(r);
        }
        o.put("sites", rows);
        Map<String, Object> h = new LinkedHashMap<>();
        holes.forEach((k, v) -> h.put(k.name().toLowerCase(java.util.Locale.ROOT), v));
        o.put("largestFreeBlock", h);
        return o;
    }
}
