package vramlab.triage;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import vramlab.trace.TraceException;

/**
 * The caching allocator's state at the moment a recorded run ran out of memory, rebuilt from a
 * PyTorch memory snapshot: the {@code oom} entry of a device's trace (its {@code size} is the
 * rounded request, its {@code device_free} what cudaMemGetInfo reported after PyTorch had
 * released every wholly free segment and retried) and the segments as they were then.
 *
 * <p>The snapshot's {@code segments} are the state when it was dumped, often long after the
 * OOM, and a trace may start after memory was in use (it is a ring buffer). So the state is
 * rebuilt backwards: from the dumped segments and blocks, every trace entry after the OOM is
 * undone, newest first ({@code alloc} frees its block again, {@code free_completed} allocates
 * it, {@code segment_alloc}/{@code segment_map} give back their range, {@code segment_free}/
 * {@code segment_unmap} take it again). The layout is kept as address ranges, so the largest
 * free block is exact. Segments re-created by undoing a release count as the default pool.
 * A trace entry's {@code size} is the rounded request, while a block that was not split keeps
 * its tail: a block freed after the OOM comes back with its entry's size, so {@code allocated}
 * can miss such tails (a few MiB in the real snapshots); blocks still live at the dump keep
 * their own size.
 *
 * @param device          the device whose trace holds the entry
 * @param entry           the entry's index in that trace, from 1
 * @param requested       the failed request (the rounded size the allocator asked for)
 * @param deviceFree      what the driver reported free
 * @param reserved        bytes in segments at that moment
 * @param allocated       bytes in live blocks (allocated or pending free) at that moment
 * @param privatePoolFree free bytes in segments of private pools (CUDA graphs)
 * @param largestFree     the largest free block in any segment of the default pool
 * @param segments        how many segments
 * @param expandable      how many of them are expandable
 * @param frames          the entry's stack, innermost first, as "name (file)" lines
 */
public record OomMoment(int device, int entry, long requested, long deviceFree, long reserved,
                        long allocated, long privatePoolFree, long largestFree, int segments,
                        int expandable, List<String> frames) {

    public OomMoment {
        frames = List.copyOf(frames);
    }

    /** Bytes reserved but unallocated outside private pools, as the OOM message counts them. */
    public long unallocated() { return reserved - allocated - privatePoolFree; }

    /** Every oom entry of every device, in device then trace order. */
    public static List<OomMoment> all(Map<?, ?> snapshot, String file) {
        List<OomMoment> out = new ArrayList<>();
        List<?> traces = list(snapshot.get("device_traces"));
        for (int d = 0; d < traces.size(); d++) {
            List<?> trace = list(traces.get(d));
            for (int i = 0; i < trace.size(); i++) {
                if (trace.get(i) instanceof Map<?, ?> e && "oom".equals(e.get("action"))) {
                    out.add(at(snapshot, d, i, file));
                }
            }
        }
        return out;
    }

    /** The state at entry {@code index} (from 0) of device {@code device}'s trace. */
    static OomMoment at(Map<?, ?> snapshot, int device, int index, String file) {
        Layout layout = Layout.dumped(snapshot, device, file);
        List<?> trace = list(list(snapshot.get("device_traces")).get(device));
        for (int i = trace.size() - 1; i > index; i--) {
            layout.undo((Map<?, ?>) trace.get(i), file, entry(device, i));
        }
        Map<?, ?> oom = (Map<?, ?>) trace.get(index);
        String where = entry(device, index);
        return new OomMoment(device, index + 1, number(oom, "size", file, where),
                number(oom, "device_free", file, where), layout.reserved(), layout.allocated(),
                layout.privateFree(), layout.largestFree(), layout.segmentCount(), layout.expandable,
                frames(oom));
    }

    private static List<String> frames(Map<?, ?> e) {
        List<String> out = new ArrayList<>();
        for (Object f : list(e.get("frames"))) {
            if (f instanceof Map<?, ?> m) out.add(m.get("name") + " (" + m.get("filename") + ")");
        }
        return out;
    }

    static List<?> list(Object o) { return o instanceof List<?> l ? l : List.of(); }

    /** A trace entry's path in the snapshot's dict, as the snapshot reader names fields. */
    private static String entry(int device, int index) {
        return "device_traces[" + device + "][" + index + "]";
    }

    /**
     * The integer {@code key} of {@code e}, which sits at {@code where} in the snapshot's dict; a
     * snapshot keeps no line numbers once it is read, so a bad field is named by its path.
     */
    static long number(Map<?, ?> e, String key, String file, String where) {
        Object v = e.get(key);
        if (v instanceof Integer i) return i;
        if (v instanceof Long l) return l;
        if (v instanceof BigInteger b) return b.longValue();
        throw new TraceException(file, 0, where + " has no integer '" + key + "' ("
                + (v == null ? "the key is missing" : "found " + v.getClass().getSimpleName()
                        + " " + v) + ")");
    }

    /** Address ranges: segments (with their pool) and live blocks. */
    private static final class Layout {
        /** Where a segment ends, and whether it belongs to a private pool (a graph's, say). */
        record Extent(long end, boolean privatePool) {}

        /** Bytes free inside one segment: all of them, and the largest gap. */
        record Free(long total, long largest) {}

        /** start to its extent */
        final TreeMap<Long, Extent> segments = new TreeMap<>();
        /** start to end */
        final TreeMap<Long, Long> live = new TreeMap<>();
        int expandable;

        static Layout dumped(Map<?, ?> snapshot, int device, String file) {
            Layout l = new Layout();
            List<?> all = list(snapshot.get("segments"));
            for (int k = 0; k < all.size(); k++) {
                if (!(all.get(k) instanceof Map<?, ?> s)) continue;
                String where = "segments[" + k + "]";
                Object dev = s.get("device");
                if (dev != null && ((Number) dev).intValue() != device) continue;
                long at = number(s, "address", file, where);
                long size = number(s, "total_size", file, where);
                boolean priv = isPrivate(s.get("segment_pool_id"));
                l.segments.put(at, new Extent(at + size, priv));
                if (Boolean.TRUE.equals(s.get("is_expandable"))) l.expandable++;
                long cursor = at;
                List<?> blocks = list(s.get("blocks"));
                for (int j = 0; j < blocks.size(); j++) {
                    if (!(blocks.get(j) instanceof Map<?, ?> blk)) continue;
                    String block = where + ".blocks[" + j + "]";
                    long bsize = number(blk, "size", file, block);
                    long baddr = blk.containsKey("address") ? number(blk, "address", file, block) : cursor;
                    Object state = blk.get("state");
                    if ("active_allocated".equals(state) || "active_pending_free".equals(state)) {
                        l.live.put(baddr, baddr + bsize);
                    }
                    cursor = baddr + bsize;
                }
            }
            return l;
        }

        private static boolean isPrivate(Object poolId) {
            if (!(poolId instanceof List<?> ids) || ids.size() < 2) return false;
            for (Object id : ids) if (id instanceof Number n && n.longValue() != 0) return true;
            return false;
        }

        void undo(Map<?, ?> e, String file, String line) {
            Object action = e.get("action");
            if (!(action instanceof String a)) return;
            switch (a) {
                case "alloc" -> {
                    long at = number(e, "addr", file, line);
                    if (live.remove(at) == null) remove(live, at, number(e, "size", file, line));
                }
                case "free_completed" -> {
                    long at = number(e, "addr", file, line);
                    live.put(at, at + number(e, "size", file, line));
                }
                case "segment_alloc", "segment_map" -> removeSegment(number(e, "addr", file, line),
                        number(e, "size", file, line));
                case "segment_free" -> {
                    long at = number(e, "addr", file, line);
                    segments.put(at, new Extent(at + number(e, "size", file, line), false));
                }
                case "segment_unmap" -> remap(number(e, "addr", file, line),
                        number(e, "size", file, line));
                default -> { }
            }
        }

        private static void remove(TreeMap<Long, Long> ranges, long at, long size) {
            long end = at + size;
            Map.Entry<Long, Long> e = ranges.floorEntry(at);
            if (e != null && e.getValue() > at) {
                ranges.remove(e.getKey());
                if (e.getKey() < at) ranges.put(e.getKey(), at);
                if (e.getValue() > end) ranges.put(end, e.getValue());
            }
            for (Map.Entry<Long, Long> n = ranges.ceilingEntry(at); n != null && n.getKey() < end;
                 n = ranges.ceilingEntry(at)) {
                ranges.remove(n.getKey());
                if (n.getValue() > end) ranges.put(end, n.getValue());
            }
        }

        private void removeSegment(long at, long size) {
            long end = at + size;
            Map.Entry<Long, Extent> e = segments.floorEntry(at);
            if (e != null && e.getValue().end() > at) {
                segments.remove(e.getKey());
                Extent v = e.getValue();
                if (e.getKey() < at) segments.put(e.getKey(), new Extent(at, v.privatePool()));
                if (v.end() > end) segments.put(end, v);
            }
        }

        /** Undoing an unmap: the pages join the expandable segment they were cut from. */
        private void remap(long at, long size) {
            long start = at, end = at + size;
            boolean privatePool = false;
            Map.Entry<Long, Extent> before = segments.floorEntry(at);
            if (before != null && before.getValue().end() == at) {
                start = before.getKey();
                privatePool = before.getValue().privatePool();
                segments.remove(start);
            }
            Extent after = segments.remove(end);
            if (after != null) end = after.end();
            segments.put(start, new Extent(end, privatePool));
        }

        long reserved() {
            long sum = 0;
            for (Map.Entry<Long, Extent> s : segments.entrySet()) sum += s.getValue().end() - s.getKey();
            return sum;
        }

        long allocated() {
            long sum = 0;
            for (Map.Entry<Long, Long> b : live.entrySet()) sum += b.getValue() - b.getKey();
            return sum;
        }

        /** Free bytes in each segment: its range minus the live blocks inside it. */
        private Free free(Map.Entry<Long, Extent> s) {
            long total = 0, largest = 0, cursor = s.getKey(), end = s.getValue().end();
            for (Map.Entry<Long, Long> b : live.subMap(s.getKey(), true, end, false).entrySet()) {
                long gap = b.getKey() - cursor;
                total += Math.max(0, gap);
                largest = Math.max(largest, gap);
                cursor = Math.max(cursor, b.getValue());
            }
            total += Math.max(0, end - cursor);
            largest = Math.max(largest, end - cursor);
            return new Free(total, largest);
        }

        long privateFree() {
            long sum = 0;
            for (Map.Entry<Long, Extent> s : segments.entrySet()) {
                if (s.getValue().privatePool()) sum += free(s).total();
            }
            return sum;
        }

        long largestFree() {
            long max = 0;
            for (Map.Entry<Long, Extent> s : segments.entrySet()) {
                if (!s.getValue().privatePool()) max = Math.max(max, free(s).largest());
            }
            return max;
        }

        int segmentCount() { return segments.size(); }
    }
}
