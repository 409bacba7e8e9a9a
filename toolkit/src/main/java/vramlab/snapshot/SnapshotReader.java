package vramlab.snapshot;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

import vramlab.alloc.AllocConf;
import vramlab.alloc.DeviceTrace;
import vramlab.alloc.PoolKind;
import vramlab.trace.TraceException;
import vramlab.units.Bytes;

/**
 * Reads a memory snapshot that PyTorch wrote into a {@link Snapshot}: a pickle from
 * {@code torch.cuda.memory._dump_snapshot} (or {@code pickle.dump(torch.cuda.memory._snapshot())}),
 * the same dict saved as JSON, or the bare list of segment dicts that
 * {@code torch.cuda.memory_snapshot()} returns. Every layout PyTorch has written is read:
 * 2.0's blocks with a {@code history} and no {@code address}; from 2.1 {@code frames},
 * {@code is_expandable} and {@code device_traces} of {@code alloc}, {@code free_requested},
 * {@code free_completed}, {@code segment_alloc}, {@code segment_free}, {@code segment_map},
 * {@code segment_unmap}, {@code snapshot} and {@code oom} entries; {@code time_us} (2.2 on);
 * {@code allocator_settings} and {@code external_annotations} (2.6 on); {@code compile_context}
 * and {@code user_metadata} on entries (newer). Keys the kit does not use are read past.
 */
public final class SnapshotReader {
    private SnapshotReader() {}

    /** How a bare segment list's layout begins: it records no settings, history or version. */
    public static final String SEGMENT_LIST = "torch.cuda.memory_snapshot()";

    /** How PyTorch 2.0's layout (blocks with a 'history', no block address) begins. */
    public static final String LAYOUT_2_0 = "PyTorch 2.0 layout";

    /** How a bare segment list whose blocks are 2.0's ends. */
    public static final String BLOCKS_2_0 = " (PyTorch 2.0 blocks with 'history')";

    /** Whether {@code head} (the first bytes of a file) looks like a pickle or a JSON dict or list. */
    public static boolean isSnapshot(byte[] head) {
        int i = 0;
        while (i < head.length && Character.isWhitespace(head[i])) i++;
        return i < head.length && ((head[i] & 0xff) == 0x80 || head[i] == '{' || head[i] == '[');
    }

    /** The file's top-level object, from pickle or JSON bytes: a dict, or a list of segments. */
    public static Object load(byte[] bytes, String file) {
        int i = 0;
        while (i < bytes.length && Character.isWhitespace(bytes[i])) i++;
        if (i < bytes.length && (bytes[i] == '{' || bytes[i] == '[')) {
            Object root;
            try {
                root = Json.read(bytes, file);      // its errors name the line and column
            } catch (TraceException e) {
                throw e;
            } catch (RuntimeException e) {
                throw new TraceException(file, 0, "not a readable snapshot (pickle or JSON): " + e.getMessage());
            }
            return checked(root, file);
        }
        return loadPickle(bytes, file);
    }

    /**
     * The file's top-level object from pickle bytes only. The browser bundle reads snapshots
     * through this, so it never reaches the JSON library (which TeaVM cannot compile).
     */
    public static Object loadPickle(byte[] bytes, String file) {
        return checked(PickleReader.read(bytes, file), file);
    }

    private static Object checked(Object root, String file) {
        Shape.check(root, file);
        boolean dict = root instanceof Map<?, ?> m && m.containsKey("device_traces");
        boolean list = root instanceof List<?> l && l.stream().allMatch(o -> o instanceof Map<?, ?> s
                && s.containsKey("total_size") && s.containsKey("blocks"));
        if (!dict && !list) {
            throw new TraceException(file, 0, "not a memory snapshot: expected a dict with 'device_traces'"
                    + " (torch.cuda.memory._dump_snapshot writes one) or a list of segment dicts"
                    + " (torch.cuda.memory_snapshot())");
        }
        return root;
    }

    /**
     * Reads the whole snapshot: every device's segments and history, and the settings. A field
     * the kit cannot read is named by its path ({@code segments[3].blocks[2]}) and, in a JSON
     * file, by the line and column where its value starts.
     */
    public static Snapshot read(byte[] bytes, String file) {
        Object root = load(bytes, file);
        try {
            return of(root, file);
        } catch (FieldError e) {
            throw e.at(file, isJson(bytes) ? bytes : null, root instanceof List<?>);
        }
    }

    /** {@link #read} for pickle bytes only (see {@link #loadPickle}): a bad field is named by its path. */
    public static Snapshot readPickle(byte[] bytes, String file) {
        Object root = loadPickle(bytes, file);
        try {
            return of(root, file);
        } catch (FieldError e) {
            throw e.atPath(file);   // never e.at: see atPath
        }
    }

    private static boolean isJson(byte[] bytes) {
        int i = 0;
        while (i < bytes.length && Character.isWhitespace(bytes[i])) i++;
        return i < bytes.length && (bytes[i] == '{' || bytes[i] == '[');
    }

    private static Snapshot of(Object root, String file) {
        try {
            return root instanceof List<?> segments ? fromSegmentList(segments, file)
                    : fromDict((Map<?, ?>) root, file);
        } catch (TraceException | FieldError e) {
            throw e;
        } catch (RuntimeException e) {       // a shape no check above foresaw: still one line, no type name
            throw new TraceException(file, 0, "not a memory snapshot the kit can read: its dict or one of its"
                    + " entries has an unexpected shape");
        }
    }

    private static Snapshot fromSegmentList(List<?> segments, String file) {
        TreeMap<Integer, List<Snapshot.Segment>> byDevice = new TreeMap<>();
        boolean legacy = segments(segments, file, byDevice, new java.util.HashMap<>());
        List<Snapshot.Device> devices = new ArrayList<>();
        byDevice.forEach((d, segs) -> devices.add(new Snapshot.Device(d, segs, List.of(), 0)));
        return new Snapshot(file, SEGMENT_LIST + ": the bare list of segments, no history"
                + (legacy ? BLOCKS_2_0 : ""), devices, null);
    }

    private static Snapshot fromDict(Map<?, ?> root, String file) {
        TreeMap<Integer, List<Snapshot.Segment>> byDevice = new TreeMap<>();
        Map<Object, Object> seen = new java.util.HashMap<>();     // frames and stacks, each held once
        Object segs = root.get("segments");
        boolean legacy = false;
        if (segs != null) {
            if (!(segs instanceof List<?> list)) {
                throw new FieldError("segments", null, "is not a list (found " + Shape.describe(segs) + ")");
            }
            legacy = segments(list, file, byDevice, seen);
        }
        if (!(root.get("device_traces") instanceof List<?> traces)) {
            throw new FieldError("device_traces", null, "is not a list (found "
                    + Shape.describe(root.get("device_traces")) + ")");
        }
        TreeSet<String> entryKeys = new TreeSet<>();
        List<Snapshot.Device> devices = new ArrayList<>();
        TreeSet<Integer> indices = new TreeSet<>(byDevice.keySet());
        for (int d = 0; d < traces.size(); d++) {
            if (traces.get(d) instanceof List<?> l && !l.isEmpty()) {
                checkDevice(d, file, "device_traces[" + d + "]");
                indices.add(d);
            }
        }
        for (int d : indices) {
            List<Snapshot.Entry> trace = d < traces.size()
                    ? entries(traces.get(d), d, file, entryKeys, seen) : List.of();
            devices.add(new Snapshot.Device(d, byDevice.getOrDefault(d, List.of()), trace, traces.size()));
        }
        Snapshot.Settings settings = root.get("allocator_settings") instanceof Map<?, ?> s
                ? settings(s, file) : null;
        return new Snapshot(file, layout(root, legacy, entryKeys, traces.size()), devices, settings,
                java.util.Collections.unmodifiableSet(entryKeys));
    }

    private static String layout(Map<?, ?> root, boolean legacy, TreeSet<String> entryKeys, int lists) {
        StringBuilder sb = new StringBuilder(legacy
                ? LAYOUT_2_0 + " (blocks carry 'history', no block address)"
                : "PyTorch 2.1+ layout (segments and device_traces)");
        List<String> extra = new ArrayList<>();
        for (String k : List.of("time_us", "compile_context", "user_metadata")) {
            if (entryKeys.contains(k)) extra.add(k);
        }
        for (String k : List.of("allocator_settings", "external_annotations")) {
            if (root.containsKey(k)) extra.add(k);
        }
        if (!extra.isEmpty()) sb.append(", with ").append(String.join(", ", extra));
        return sb.append("; ").append(lists).append(lists == 1 ? " device list" : " device lists").toString();
    }

    /** Fills {@code out} by device; returns whether the blocks are 2.0's (with 'history'). */
    private static boolean segments(List<?> list, String file, Map<Integer, List<Snapshot.Segment>> out,
                                    Map<Object, Object> seen) {
        boolean legacy = false;
        for (int i = 0; i < list.size(); i++) {
            String where = "segments[" + i + "]";
            if (!(list.get(i) instanceof Map<?, ?> s)) {
                throw new FieldError(where, null, "is not a dict (found " + Shape.describe(list.get(i)) + ")");
            }
            long address = address(s, "address", file, where);
            long total = bytes(s, "total_size", file, where, MAX_CARD);
            long device = s.containsKey("device") ? number(s, "device", file, where) : 0;
            checkDevice(device, file, where + ".device");
            PoolKind pool = "small".equals(s.get("segment_type")) ? PoolKind.SMALL : PoolKind.LARGE;
            long stream = s.containsKey("stream") ? number(s, "stream", file, where) : 0;
            boolean expandable = Boolean.TRUE.equals(s.get("is_expandable"));
            if (!(s.get("blocks") instanceof List<?> blocks)) {
                throw new FieldError(where, "blocks", "has no 'blocks' list");
            }
            List<Snapshot.Block> bs = new ArrayList<>();
            long at = address;
            for (int j = 0; j < blocks.size(); j++) {
                String w = where + ".blocks[" + j + "]";
                if (!(blocks.get(j) instanceof Map<?, ?> b)) {
                    throw new FieldError(w, null, "is not a dict (found " + Shape.describe(blocks.get(j)) + ")");
                }
                legacy |= b.containsKey("history") && !b.containsKey("address");
                long ba = b.containsKey("address") ? address(b, "address", file, w) : at;
                long size = bytes(b, "size", file, w, MAX_CARD);
                long req = b.containsKey("requested_size") ? bytes(b, "requested_size", file, w, Long.MAX_VALUE) : 0;
                String state = state(b, w);
                bs.add(new Snapshot.Block(ba, size, req, state, frames(b.get("frames"), seen)));
                at = ba + size;
            }
            if (at - address != total) {
                throw new FieldError(where, "total_size", "its blocks cover " + (at - address)
                        + " bytes but total_size is " + total);
            }
            out.computeIfAbsent((int) device, k -> new ArrayList<>())
                    .add(new Snapshot.Segment(address, total, pool, stream, expandable, List.copyOf(bs)));
        }
        for (List<Snapshot.Segment> segs : out.values()) {
            segs.sort((x, y) -> Long.compare(x.address(), y.address()));
        }
        return legacy;
    }

    /**
     * The block states PyTorch writes, and no other: {@code blockInfo.allocated ?
     * active_allocated : (blockInfo.active ? active_pending_free : inactive)} in
     * torch/csrc/cuda/memory_snapshot.cpp, {@code _memory_snapshot_pickled} (pytorch/pytorch@00067369),
     * as in torch/csrc/cuda/Module.cpp's {@code torch.cuda.memory_snapshot()}.
     */
    public static final List<String> STATES = List.of("active_allocated", "active_pending_free", "inactive");

    /**
     * A block's {@code state}: one of {@link #STATES}, or {@code inactive} when the key is
     * absent (as before). Any other value is refused at its place: whether a block is live
     * decides the state the replay starts from and every figure after it, so a state the kit
     * cannot place is not guessed (a trace entry's unknown action, by contrast, is skipped whole
     * and said so: skipping a block would leave a hole in its segment).
     */
    private static String state(Map<?, ?> b, String where) {
        if (!b.containsKey("state")) return "inactive";
        Object s = b.get("state");
        if (s instanceof String st && STATES.contains(st)) return st;
        throw new FieldError(where, "state", "has a 'state' PyTorch never writes (found " + Shape.describe(s)
                + "; it writes " + String.join(", ", STATES.subList(0, 2)) + " or " + STATES.get(2) + ")");
    }

    private static List<Snapshot.Entry> entries(Object o, int device, String file, TreeSet<String> keys,
                                                Map<Object, Object> seen) {
        if (!(o instanceof List<?> list)) {
            throw new FieldError("device_traces[" + device + "]", null, "is not a list (found " + Shape.describe(o) + ")");
        }
        List<Snapshot.Entry> out = new ArrayList<>(list.size());
        for (int i = 0; i < list.size(); i++) {
            int pos = i + 1;
            String where = "device_traces[" + device + "][" + i + "]";
            if (!(list.get(i) instanceof Map<?, ?> e)) {
                throw new FieldError(where, null, "is not a dict (found " + Shape.describe(list.get(i)) + ")");
            }
            for (Object k : e.keySet()) keys.add(String.valueOf(k));
            if (!(e.get("action") instanceof String word)) {
                throw new FieldError(where, "action", "has no 'action' (found " + (e.containsKey("action")
                        ? Shape.describe(e.get("action")) : "no such key") + ")");
            }
            DeviceTrace.Action action = DeviceTrace.Action.of(word);
            long stream = e.containsKey("stream") ? number(e, "stream", file, where) : 0;
            long size = e.containsKey("size") ? bytes(e, "size", file, where, largest(action)) : 0;
            long addr = 0, free = -1;
            if (action == DeviceTrace.Action.OOM) {
                free = bytes(e, "device_free", file, where, MAX_CARD);
            } else if (action != null && action != DeviceTrace.Action.SNAPSHOT) {
                addr = address(e, "addr", file, where);
            }
            out.add(new Snapshot.Entry(pos, word, action, addr, size, stream, free, frames(e.get("frames"), seen)));
        }
        return Collections.unmodifiableList(out);
    }

    /**
     * A {@code frames} list as records; anything else (absent, or not a list of dicts) is no
     * frames: a stack is shown to the user, never needed to replay. Equal frame dicts (PyTorch
     * writes the same ones again and again) become one record.
     */
    private static List<Snapshot.Frame> frames(Object o, Map<Object, Object> seen) {
        if (!(o instanceof List<?> list) || list.isEmpty()) return List.of();
        List<Snapshot.Frame> out = new ArrayList<>(list.size());
        for (Object f : list) {
            if (!(f instanceof Map<?, ?> m)) continue;
            String file = m.get("filename") instanceof String s ? s : "";
            long line = m.get("line") instanceof Number n ? n.longValue() : 0;
            String name = m.get("name") instanceof String s ? s : "";
            Snapshot.Frame frame = new Snapshot.Frame(file, line, name);
            out.add((Snapshot.Frame) seen.computeIfAbsent(frame, k -> k));
        }
        @SuppressWarnings("unchecked")
        List<Snapshot.Frame> stack = (List<Snapshot.Frame>) seen.computeIfAbsent(List.copyOf(out), k -> k);
        return stack;
    }

    /** {@code allocator_settings} as the values the allocator used (SNAP:330-361). */
    private static Snapshot.Settings settings(Map<?, ?> s, String file) {
        String where = "allocator_settings";
        String conf = s.get("PYTORCH_CUDA_ALLOC_CONF") instanceof String c ? c : "";
        long maxSplit = s.containsKey("max_split_size") ? number(s, "max_split_size", file, where) : -1;
        double gc = s.get("garbage_collection_threshold") instanceof Number n ? n.doubleValue() : 0;
        boolean expandable = Boolean.TRUE.equals(s.get("expandable_segments"));
        long[] divisions = new long[AllocConf.INTERVALS];
        if (s.get("roundup_power2_divisions") instanceof Map<?, ?> d) {
            for (Map.Entry<?, ?> e : d.entrySet()) {
                long mb;
                try {
                    mb = Long.parseLong(String.valueOf(e.getKey()));
                } catch (NumberFormatException x) {
                    throw new FieldError(where + ".roundup_power2_divisions", null, "expected a size in MB"
                            + " as a key, found " + Shape.describe(e.getKey()));
                }
                if (!Bytes.isPowerOfTwo(mb)) {
                    throw new FieldError(where + ".roundup_power2_divisions", String.valueOf(e.getKey()),
                            "interval " + mb + " MB: expected a power of two");
                }
                if (!(e.getValue() instanceof Integer || e.getValue() instanceof Long)) {
                    throw new FieldError(where + ".roundup_power2_divisions[" + e.getKey() + "]", null, "expected"
                            + " an integer, found " + Shape.describe(e.getValue()));
                }
                int index = Math.min(63 - Long.numberOfLeadingZeros(mb), AllocConf.INTERVALS - 1);
                divisions[index] = ((Number) e.getValue()).longValue();
            }
        }
        AllocConf values = new AllocConf(expandable, maxSplit < 0 ? Long.MAX_VALUE : maxSplit,
                AllocConf.defaults().maxNonSplitRounding(), divisions, gc, -1);
        return new Snapshot.Settings(conf, values);
    }

    /** Device indices the kit simulates: 0 to 15 (GpuProcess.MAX_DEVICES, 16, in the core). */
    public static final int MAX_DEVICE = 15;

    private static void checkDevice(long device, String file, String where) {
        if (device < 0 || device > MAX_DEVICE) {
            throw new FieldError(where, null, "device " + device + "; the kit simulates devices 0 to " + MAX_DEVICE);
        }
    }

    /**
     * The largest card the kit simulates: 4 TiB, some twenty times today's largest. Its frame
     * bitmaps take 8 MB each; a snapshot whose sizes imply a card of petabytes (a corrupted
     * field) would take more heap than any machine has, so it is refused. No segment, no block
     * in one and no {@code device_free} can be larger than the card, so a file that says
     * otherwise is refused at that field, before a card is inferred from it; a card their sum
     * implies is refused by {@code vramlab.replay.SnapshotCard.checkCard}.
     */
    public static final long MAX_CARD = 4 * Bytes.TiB;

    /**
     * The most an entry's {@code size} may be: a segment's for the entries that make or free one
     * (a cudaMalloc or a mapping, on the card), no bound but 0 or more for a request, which an
     * {@code oom} may make of any size (the allocator refuses it: "Tried to allocate more than 1EB").
     */
    private static long largest(DeviceTrace.Action action) {
        return action == DeviceTrace.Action.SEGMENT_ALLOC || action == DeviceTrace.Action.SEGMENT_FREE
                || action == DeviceTrace.Action.SEGMENT_MAP || action == DeviceTrace.Action.SEGMENT_UNMAP
                ? MAX_CARD : Long.MAX_VALUE;
    }

    /**
     * A byte count: an integer from 0 to {@code max}. PyTorch writes sizes as {@code size_t}
     * (memory_snapshot.cpp), so a negative one, or one past the card, is a damaged file: it is
     * named by its field's path ({@code device_traces[0][5].size}) with its value and the range,
     * as any other bad field, instead of reaching the simulator.
     */
    private static long bytes(Map<?, ?> m, String key, String file, String where, long max) {
        Object v = m.get(key);
        long n = number(m, key, file, where);
        boolean fits = !(v instanceof BigInteger big) || big.bitLength() < 64;     // else its long is its low bits
        if (!fits || n < 0 || n > max) {
            throw new FieldError(where + "." + key, null, "is " + v + ": expected a number of bytes, 0"
                    + (max == Long.MAX_VALUE ? " or more" : " to " + max + " (" + Bytes.readable(max)
                    + ", the largest card the kit simulates)"));
        }
        return n;
    }

    /**
     * An address: an integer from 0 to 2^64 - 1, a pointer as PyTorch writes it. One above 2^63
     * keeps its 64 bits in the {@code long} (negative there); a negative integer in the file, or
     * one of more than 64 bits, is no address and is refused by its field's path.
     */
    private static long address(Map<?, ?> m, String key, String file, String where) {
        Object v = m.get(key);
        long n = number(m, key, file, where);
        boolean valid = v instanceof BigInteger b ? b.signum() >= 0 && b.bitLength() <= 64 : n >= 0;
        if (!valid) {
            throw new FieldError(where + "." + key, null, "is " + v + ": expected an address, 0 to 2^64 - 1");
        }
        return n;
    }

    private static long number(Map<?, ?> m, String key, String file, String where) {
        Object v = m.get(key);
        if (v instanceof Integer i) return i;
        if (v instanceof Long l) return l;
        if (v instanceof BigInteger b) return b.longValue();     // addresses above 2^63 keep their bits
        throw new FieldError(where, m.containsKey(key) ? key : null, "has no integer '" + key + "' (found "
                + (v == null && !m.containsKey(key) ? "no such key" : Shape.describe(v)) + ")");
    }
}
