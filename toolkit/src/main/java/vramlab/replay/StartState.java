package vramlab.replay;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import vramlab.alloc.DeviceTrace.Action;
import vramlab.alloc.Policy;
import vramlab.alloc.PoolKind;
import vramlab.snapshot.Snapshot;
import vramlab.units.Bytes;

/**
 * What the allocator held when a recorded history began: the snapshot's own segments and
 * blocks (its end state) minus what the history did. Most real recordings call
 * {@code _record_memory_history} mid-run, or the ring buffer dropped the oldest entries, so a
 * replay that started from an empty allocator would lose everything allocated before.
 *
 * <p>Walking the history backwards from the end state: a {@code segment_alloc} means the
 * segment did not exist yet, a {@code segment_free} that it did (wholly free then); a
 * {@code segment_map} / {@code segment_unmap} takes a range out of, or puts it back into, an
 * expandable segment's mapped ranges. A block is live at the start when the history never
 * touches its address and the end state has it live, or when the first thing the history does
 * to its address is to free it.
 *
 * <p>One thing the history does not record is the size of a block it only frees: a free entry
 * carries the caller's request, not the block. Such a block is taken to be
 * {@code round_size(request)}, plus the bytes up to the next live block or the segment's end
 * when PyTorch would not have split those off ({@code should_split}): in the large pool every
 * block is larger than 1 MiB, so a smaller gap can only be part of the block. This is the one
 * estimate in the rebuilt state, and the notes say how many blocks it sized.
 */
public final class StartState {
    /** A segment at the start: a cudaMalloc, or one mapped range of an expandable segment. */
    public record SegmentAt(long address, long size, PoolKind pool, int stream, boolean expandable, long base,
                            List<LiveAt> live) {}

    /** A block live at the start; {@code estimated} when its size came from the rule above. */
    public record LiveAt(long address, long size, long requested, boolean estimated) {}

    private final List<SegmentAt> segments;
    private final List<String> notes;
    private final int estimated;
    private final List<Long> unplaced;
    private final List<SegmentAt> bases;

    private StartState(List<SegmentAt> segments, List<String> notes, int estimated, List<Long> unplaced,
                       List<SegmentAt> bases) {
        this.segments = segments;
        this.notes = notes;
        this.estimated = estimated;
        this.unplaced = unplaced;
        this.bases = bases;
    }

    public List<SegmentAt> segments() { return segments; }
    /** What was rebuilt and how, in sentences for the report. */
    public List<String> notes() { return notes; }
    /** True when the history starts from an empty allocator: nothing had to be rebuilt. */
    public boolean isEmpty() { return segments.isEmpty(); }
    public long reserved() { return segments.stream().mapToLong(SegmentAt::size).sum(); }
    public int liveBlocks() { return segments.stream().mapToInt(s -> s.live().size()).sum(); }
    public int estimatedBlocks() { return estimated; }
    /** Addresses of blocks the rebuilt state should hold but that fit in no segment. */
    public List<Long> unplaced() { return unplaced; }
    /**
     * The expandable segments that the snapshot's own segments show, lowest first: where each
     * begins ({@code base}) and its pool; sizes and blocks are not filled in.
     */
    public List<SegmentAt> expandableBases() { return bases; }

    /**
     * @param policy  the recording run's policy: its {@code round_size} and {@code should_split}
     *                size the blocks the history only frees
     * @param streams the stream numbering the replay uses (CUDA stream pointer to a small int)
     */
    public static StartState of(Snapshot.Device device, Policy policy, Map<Long, Integer> streams) {
        return new Builder(device, policy, streams).build();
    }

    /** A run of bytes: a cudaMalloc segment, or mapped ranges of one expandable segment. */
    private static final class Reservation {
        final PoolKind pool;
        final long stream;
        final boolean expandable;
        long base;
        boolean atEnd;                                            // the end state shows it
        final TreeMap<Long, Long> ranges = new TreeMap<>();        // start -> end

        Reservation(PoolKind pool, long stream, boolean expandable, long base) {
            this.pool = pool;
            this.stream = stream;
            this.expandable = expandable;
            this.base = base;
        }

        void add(long start, long end) {
            Map.Entry<Long, Long> before = ranges.floorEntry(start);
            if (before != null && before.getValue() >= start) {
                start = before.getKey();
                end = Math.max(end, before.getValue());
                ranges.remove(before.getKey());
            }
            Map.Entry<Long, Long> after = ranges.ceilingEntry(start);
            while (after != null && after.getKey() <= end) {
                end = Math.max(end, after.getValue());
                ranges.remove(after.getKey());
                after = ranges.ceilingEntry(start);
            }
            ranges.put(start, end);
        }

        void remove(long start, long end) {
            Map.Entry<Long, Long> e = ranges.lowerEntry(end);
            while (e != null && e.getValue() > start) {
                ranges.remove(e.getKey());
                if (e.getKey() < start) ranges.put(e.getKey(), start);
                if (e.getValue() > end) ranges.put(end, e.getValue());
                e = ranges.lowerEntry(Math.min(e.getKey(), end));
            }
        }
    }

    private static final class Builder {
        /** Where an expandable segment's range recorded at the end stops, and its pool. */
        record EndRange(long end, PoolKind pool) {}

        /**
         * A block live at the start: its size when the snapshot shows it (else -1: the history
         * only frees it), the bytes asked for, and the trace position of its first free (0 when
         * its size is known).
         */
        record Seen(long address, long size, long requested, int freedAt) {}

        final Snapshot.Device device;
        final Policy policy;
        final Map<Long, Integer> streams;
        final TreeMap<Long, Reservation> mallocs = new TreeMap<>();   // address -> one-range reservation
        final List<Reservation> expandable = new ArrayList<>();
        final Map<Long, Reservation> mappedByStream = new HashMap<>();  // every expandable range, by stream
        final TreeMap<Long, EndRange> endRanges = new TreeMap<>();      // start -> its end and pool
        final List<Reservation> atEnd = new ArrayList<>();              // (pool, stream) seen at the end
        final List<String> notes = new ArrayList<>();
        final List<Long> unplaced = new ArrayList<>();
        final TreeMap<Long, Integer> firstAlloc = new TreeMap<>();     // address -> its first alloc entry
        int inconsistent;

        Builder(Snapshot.Device device, Policy policy, Map<Long, Integer> streams) {
            this.device = device;
            this.policy = policy;
            this.streams = streams;
        }

        StartState build() {
            for (Snapshot.Segment s : device.segments()) {
                if (s.expandable()) {
                    mapped(s.stream()).add(s.address(), s.end());
                    endRanges.put(s.address(), new EndRange(s.end(), s.pool()));
                } else {
                    Reservation r = new Reservation(s.pool(), s.stream(), false, s.address());
                    r.add(s.address(), s.end());
                    mallocs.put(s.address(), r);
                }
            }
            List<Snapshot.Entry> trace = device.trace();
            for (int i = trace.size() - 1; i >= 0; i--) undo(trace.get(i));
            groupRanges();
            List<SegmentAt> segments = new ArrayList<>();
            Map<SegmentAt, List<LiveAt>> live = placeLive(segments);
            List<SegmentAt> out = new ArrayList<>();
            int estimated = 0;
            for (SegmentAt s : segments) {
                List<LiveAt> blocks = live.getOrDefault(s, List.of());
                estimated += (int) blocks.stream().filter(LiveAt::estimated).count();
                out.add(new SegmentAt(s.address(), s.size(), s.pool(), s.stream(), s.expandable(), s.base(),
                        List.copyOf(blocks)));
            }
            List<SegmentAt> bases = atEnd.stream()
                    .map(r -> new SegmentAt(r.base, 0, r.pool, stream(r.stream), true, r.base, List.of()))
                    .sorted(Comparator.comparingLong(SegmentAt::base)).toList();
            StartState st = new StartState(List.copyOf(out), notes, estimated, List.copyOf(unplaced), bases);
            describe(st);
            return st;
        }

        /** One history entry, undone. */
        private void undo(Snapshot.Entry e) {
            if (e.action() == null) return;
            switch (e.action()) {
                case SEGMENT_ALLOC -> {
                    if (mallocs.remove(e.addr()) == null) inconsistent++;
                }
                case SEGMENT_FREE -> {
                    // Small segments are kSmallBuffer (2 MiB); large ones never are
                    // (CUDACachingAllocator.cpp get_allocation_size).
                    PoolKind pool = e.size() == 2 * Bytes.MiB ? PoolKind.SMALL : PoolKind.LARGE;
                    Reservation r = new Reservation(pool, e.stream(), false, e.addr());
                    r.add(e.addr(), e.addr() + e.size());
                    mallocs.put(e.addr(), r);
                }
                case SEGMENT_MAP -> mapped(e.stream()).remove(e.addr(), e.addr() + e.size());
                case SEGMENT_UNMAP -> mapped(e.stream()).add(e.addr(), e.addr() + e.size());
                default -> { }
            }
        }

        private Reservation mapped(long stream) {
            return mappedByStream.computeIfAbsent(stream, k -> new Reservation(null, k, true, 0));
        }

        /**
         * The expandable ranges at the start, given to one expandable segment per (pool, stream):
         * a range's pool is that of the end-state range it overlaps, else its page says (large
         * pages are kLargeBuffer, 20 MiB; small ones kSmallBuffer, 2 MiB; CCA:2211). Its base is
         * taken to be its lowest range: a new expandable segment maps from its start.
         * Simplification: a (pool, stream) whose expandable segment was released and made anew
         * within the history, or that needed two, is rebuilt as one.
         */
        private void groupRanges() {
            Map<String, Reservation> groups = new LinkedHashMap<>();
            for (Reservation m : mappedByStream.values()) {
                for (Map.Entry<Long, Long> g : m.ranges.entrySet()) {
                    PoolKind pool = poolOf(g.getKey(), g.getValue());
                    Reservation r = groups.computeIfAbsent(pool + "/" + m.stream,
                            k -> new Reservation(pool, m.stream, true, g.getKey()));
                    r.base = Math.min(r.base, g.getKey());
                    r.add(g.getKey(), g.getValue());
                }
            }
            expandable.addAll(groups.values());
            lowerBases();
            Map<String, Long> endBases = new LinkedHashMap<>();
            for (Snapshot.Segment seg : device.segments()) {
                if (seg.expandable()) {
                    endBases.merge(seg.pool() + "/" + seg.stream(), seg.address(), Math::min);
                }
            }
            for (Map.Entry<String, Long> e : endBases.entrySet()) {
                String[] k = e.getKey().split("/");
                Reservation r = new Reservation(PoolKind.valueOf(k[0]), Long.parseLong(k[1]), true,
                        e.getValue());
                r.atEnd = true;
                atEnd.add(r);
            }
        }

        /**
         * A history can map below an expandable segment's lowest range at the start (pages at its
         * front were unmapped before): the segment then begins at the lowest address mapped in
         * it, when no other segment lies between. A map of 20 MiB or more is the large pool's
         * (a small-pool request maps at most two 2 MiB pages).
         */
        private void lowerBases() {
            for (Snapshot.Entry e : device.trace()) {
                if (e.action() != Action.SEGMENT_MAP && e.action() != Action.SEGMENT_UNMAP) continue;
                PoolKind pool = e.size() >= 20 * Bytes.MiB ? PoolKind.LARGE : PoolKind.SMALL;
                Reservation above = null;
                boolean inside = false;
                for (Reservation r : expandable) {
                    if (r.pool != pool || r.stream != e.stream()) continue;
                    if (r.base <= e.addr()) inside = true;
                    else if (above == null || r.base < above.base) above = r;
                }
                if (inside || above == null) continue;
                long from = e.addr(), to = above.base;
                boolean clear = expandable.stream().noneMatch(r -> r.base >= from && r.base < to)
                        && mallocs.subMap(from, to).isEmpty();
                if (clear) above.base = from;
            }
        }

        private PoolKind poolOf(long start, long end) {
            Map.Entry<Long, EndRange> e = endRanges.floorEntry(end - 1);
            if (e != null && e.getValue().end() > start) return e.getValue().pool();
            return (end - start) % (20 * Bytes.MiB) == 0 ? PoolKind.LARGE : PoolKind.SMALL;
        }

        /** The blocks live at the start, each in the segment that holds it, sized. */
        private Map<SegmentAt, List<LiveAt>> placeLive(List<SegmentAt> segments) {
            TreeMap<Long, SegmentAt> byStart = new TreeMap<>();
            for (Reservation r : mallocs.values()) {
                for (Map.Entry<Long, Long> g : r.ranges.entrySet()) {
                    byStart.put(g.getKey(), new SegmentAt(g.getKey(), g.getValue() - g.getKey(), r.pool,
                            stream(r.stream), false, g.getKey(), List.of()));
                }
            }
            for (Reservation r : expandable) {
                for (Map.Entry<Long, Long> g : r.ranges.entrySet()) {
                    byStart.put(g.getKey(), new SegmentAt(g.getKey(), g.getValue() - g.getKey(), r.pool,
                            stream(r.stream), true, r.base, List.of()));
                }
            }
            segments.addAll(byStart.values());
            Map<SegmentAt, List<Seen>> found = new HashMap<>();
            for (Seen b : liveAtStart()) {
                Map.Entry<Long, SegmentAt> in = byStart.floorEntry(b.address());
                if (in == null || b.address() >= in.getValue().address() + in.getValue().size()) {
                    unplaced.add(b.address());
                    continue;
                }
                found.computeIfAbsent(in.getValue(), k -> new ArrayList<>()).add(b);
            }
            Map<SegmentAt, List<LiveAt>> out = new LinkedHashMap<>();
            found.forEach((s, blocks) -> out.put(s, size(s, blocks)));
            return out;
        }

        /** Every block live at the start, as the snapshot and the history show it, in address order. */
        private List<Seen> liveAtStart() {
            Map<Long, Snapshot.Entry> first = new HashMap<>();
            for (Snapshot.Entry e : device.trace()) {
                Action a = e.action();
                if (a == Action.ALLOC || a == Action.FREE_REQUESTED || a == Action.FREE_COMPLETED) {
                    first.putIfAbsent(e.addr(), e);
                }
                if (a == Action.ALLOC) firstAlloc.putIfAbsent(e.addr(), e.position());
            }
            List<Seen> out = new ArrayList<>();
            for (Snapshot.Segment s : device.segments()) {
                for (Snapshot.Block b : s.blocks()) {
                    if (b.isActive() && !first.containsKey(b.address())) {
                        out.add(new Seen(b.address(), b.size(), Math.max(1, b.requested()), 0));
                    }
                }
            }
            first.forEach((addr, e) -> {
                if (e.action() != Action.ALLOC) {
                    out.add(new Seen(addr, -1, Math.max(1, e.size()), e.position()));
                }
            });
            out.sort(Comparator.comparingLong(Seen::address));
            return out;
        }

        /** Sizes the blocks of one segment, in address order. */
        private List<LiveAt> size(SegmentAt s, List<Seen> blocks) {
            List<LiveAt> out = new ArrayList<>();
            long end = s.address() + s.size();
            for (int i = 0; i < blocks.size(); i++) {
                Seen b = blocks.get(i);
                long at = b.address();
                long next = i + 1 < blocks.size() ? blocks.get(i + 1).address() : end;
                if (b.size() > 0) {
                    if (at + b.size() > next) { inconsistent++; continue; }
                    out.add(new LiveAt(at, b.size(), Math.min(b.requested(), b.size()), false));
                    continue;
                }
                long rounded = policy.roundSize(b.requested());
                long seen = firstAllocAfter(at, next, b.freedAt());
                if (seen >= at + rounded) next = seen;     // the free bytes after it began there
                long gap = next - (at + rounded);
                long size = rounded;
                if (gap < 0) {
                    size = next - at;
                    inconsistent++;
                } else if (gap > 0 && !policy.shouldSplit(s.pool(), rounded + gap, rounded)) {
                    size = rounded + gap;
                }
                if (size <= 0) continue;
                out.add(new LiveAt(at, size, Math.min(b.requested(), size), true));
            }
            return out;
        }

        /**
         * The lowest address in {@code (address, next)} that the history allocates before
         * {@code freedAt}: PyTorch carves a block from the front of a free one, so the first
         * block handed out after a live block marks where that live block ended. -1 if none.
         */
        private long firstAllocAfter(long address, long next, long freedAt) {
            for (Map.Entry<Long, Integer> e : firstAlloc.subMap(address + 1, next).entrySet()) {
                if (e.getValue() < freedAt) return e.getKey();
            }
            return -1;
        }

        private String words() {
            return device.trace().stream().map(Snapshot.Entry::word).distinct().sorted()
                    .reduce((x, y) -> x + ", " + y).orElse("");
        }

        private int stream(long pointer) { return streams.computeIfAbsent(pointer, k -> streams.size()); }

        private void describe(StartState st) {
            boolean acts = device.trace().stream().anyMatch(e -> e.action() != null
                    && e.action() != Action.SNAPSHOT && e.action() != Action.OOM);
            if (!acts) {
                notes.add((device.trace().isEmpty() ? "no history"
                        : "the history records no allocator actions ("
                        + device.trace().size() + " entries: " + words() + ")")
                        + ": the state is the snapshot's own segments and blocks ("
                        + st.segments().size() + " segments, " + Bytes.formatSize(st.reserved()) + ", "
                        + st.liveBlocks() + " live blocks)");
            } else if (st.isEmpty()) {
                notes.add("the history is complete: it starts from an empty allocator");
            } else {
                notes.add("the history is incomplete: it starts after memory was already in use; rebuilt the"
                        + " state at its start from the snapshot's segments minus what the history did: "
                        + st.segments().size() + " segments (" + Bytes.formatSize(st.reserved()) + ") and "
                        + st.liveBlocks() + " live blocks, " + st.estimatedBlocks() + " of them sized from"
                        + " round_size of the request their free records");
            }
            if (!unplaced.isEmpty()) {
                notes.add(unplaced.size() + " blocks freed in the history lie in no segment of the rebuilt"
                        + " state; their frees are skipped");
            }
            if (inconsistent > 0) {
                notes.add(inconsistent + " history entries disagree with the segments (overlapping"
                        + " blocks, or a segment_alloc of a segment the end state does not hold"
                        + " and no later segment_free gives back)");
            }
        }
    }
}
