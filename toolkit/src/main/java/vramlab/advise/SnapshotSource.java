package vramlab.advise;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.zip.GZIPInputStream;

import vramlab.snapshot.SnapshotReader;
import vramlab.trace.TraceEvent;
import vramlab.trace.TraceException;

/**
 * The thin adapter between {@code advise} (and snapshot triage) and the kit's snapshot reader:
 * every call into {@link SnapshotReader} goes through here, so a new reader replaces three
 * methods. It adds what the two commands need on top: gzipped files, the bare list of segments
 * that {@code torch.cuda.memory_snapshot()} returns, and which device to read.
 */
public final class SnapshotSource {
    private SnapshotSource() {}

    /**
     * Whether a file's bytes are a snapshot: gzip, a pickle, or a JSON dict with
     * {@code device_traces} (a JSON log line that happens to start with a brace is not).
     */
    public static boolean looksLikeSnapshot(byte[] bytes) {
        if (isGzip(bytes)) return true;
        byte[] head = java.util.Arrays.copyOf(bytes, Math.min(64, bytes.length));
        if (!SnapshotReader.isSnapshot(head)) return false;
        int i = 0;
        while (i < bytes.length && Character.isWhitespace(bytes[i])) i++;
        return (bytes[i] & 0xff) == 0x80
                || new String(bytes, StandardCharsets.UTF_8).contains("\"device_traces\"");
    }

    private static boolean isGzip(byte[] b) {
        return b.length >= 2 && (b[0] & 0xff) == 0x1f && (b[1] & 0xff) == 0x8b;
    }

    /**
     * The snapshot dict. A bare list of segments becomes {@code {segments: list, device_traces:
     * []}}: a state without history.
     *
     * @throws TraceException naming the file when it is neither
     */
    public static Map<?, ?> load(byte[] bytes, String file) {
        byte[] raw = isGzip(bytes) ? gunzip(bytes, file) : bytes;
        Object root = SnapshotReader.load(raw, file);
        if (root instanceof List<?> segments) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("segments", segments);
            m.put("device_traces", List.of());
            return m;
        }
        return (Map<?, ?>) root;
    }

    private static byte[] gunzip(byte[] bytes, String file) {
        try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(bytes))) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new TraceException(file, 0, "not a readable gzip file: " + e.getMessage());
        }
    }

    /**
     * The replayable events of one device's trace: its allocs and frees, and its {@code oom}
     * entries as the requests the recorded run lost. A block freed in the history but allocated
     * before it began is allocated first. (Simpler than {@code vramlab.replay.SnapshotReplay},
     * which rebuilds the whole start state from the segments; advise compares settings on the
     * same events, so this is enough for it.)
     */
    public static List<TraceEvent> events(Map<?, ?> snapshot, int device, String file) {
        Object traces = snapshot.get("device_traces");
        if (!(traces instanceof List<?> perDevice)) throw new TraceException(file, 0, "'device_traces' is not a list");
        if (device >= perDevice.size()) {
            if (device == 0) return List.of();
            throw new TraceException(file, 0, "no trace for device " + device + " (the file has " + perDevice.size() + ")");
        }
        if (!(perDevice.get(device) instanceof List<?> entries)) {
            throw new TraceException(file, 0, "device_traces[" + device + "] is not a list");
        }
        return convert(entries, file);
    }

    private static List<TraceEvent> convert(List<?> entries, String file) {
        Map<Long, Integer> streams = new HashMap<>();
        streams.put(0L, 0);
        List<TraceEvent> prelude = new ArrayList<>();
        List<TraceEvent> body = new ArrayList<>();
        Set<String> live = new HashSet<>();
        Set<String> seen = new HashSet<>();
        long line = 0;
        for (Object o : entries) {
            line++;
            if (!(o instanceof Map<?, ?> e)) throw new TraceException(file, line, "trace entry is not a dict");
            Object action = e.get("action");
            if (!(action instanceof String a)) throw new TraceException(file, line, "trace entry without an 'action'");
            switch (a) {
                case "alloc" -> {
                    String h = handle(e, file, line);
                    long size = number(e, "size", file, line);
                    if (size <= 0) throw new TraceException(file, line, "alloc of size " + size);
                    int stream = stream(e, streams, file, line);
                    body.add(new TraceEvent(line, TraceEvent.Op.ALLOC, h, size, stream));
                    live.add(h);
                    seen.add(h);
                }
                case "free_requested", "free_completed" -> {
                    String h = handle(e, file, line);
                    if (live.remove(h)) {
                        body.add(new TraceEvent(line, TraceEvent.Op.FREE, h, 0, 0));
                    } else if (!seen.contains(h)) {          // allocated before the history began
                        long size = number(e, "size", file, line);
                        if (size > 0) {
                            prelude.add(new TraceEvent(0, TraceEvent.Op.ALLOC, h, size, stream(e, streams, file, line)));
                            body.add(new TraceEvent(line, TraceEvent.Op.FREE, h, 0, 0));
                        }
                        seen.add(h);
                    }
                }
                case "oom" -> {                             // the request the recorded run lost
                    long size = number(e, "size", file, line);
                    if (size > 0) {
                        body.add(new TraceEvent(line, TraceEvent.Op.ALLOC, "oom@" + line, size,
                                stream(e, streams, file, line)));
                    }
                }
                default -> { }                              // segment_*, snapshot, annotations
            }
        }
        prelude.addAll(body);
        return prelude;
    }

    private static String handle(Map<?, ?> e, String file, long line) {
        return "0x" + Long.toHexString(number(e, "addr", file, line));
    }

    private static int stream(Map<?, ?> e, Map<Long, Integer> streams, String file, long line) {
        long s = e.containsKey("stream") ? number(e, "stream", file, line) : 0;
        return streams.computeIfAbsent(s, k -> streams.size());
    }

    private static long number(Map<?, ?> e, String key, String file, long line) {
        Object v = e.get(key);
        if (v instanceof Integer i) return i;
        if (v instanceof Long l) return l;
        if (v instanceof BigInteger b) return b.longValue();     // addresses above 2^63 keep their bits
        throw new TraceException(file, line, "trace entry has no integer '" + key + "' (found " + v + ")");
    }


    /** How many devices the snapshot has traces for. */
    public static int devices(Map<?, ?> snapshot) {
        return snapshot.get("device_traces") instanceof List<?> l ? l.size() : 0;
    }

    /** Entries in one device's trace (every action, not only allocations). */
    public static int entries(Map<?, ?> snapshot, int device) {
        if (!(snapshot.get("device_traces") instanceof List<?> l) || device >= l.size()) return 0;
        return l.get(device) instanceof List<?> t ? t.size() : 0;
    }

    /** The device to read: the first whose trace has an {@code oom} entry, else the busiest. */
    public static int pickDevice(Map<?, ?> snapshot) {
        int busiest = 0;
        for (int d = 0; d < devices(snapshot); d++) {
            if (hasOom(snapshot, d)) return d;
            if (entries(snapshot, d) > entries(snapshot, busiest)) busiest = d;
        }
        return busiest;
    }

    static boolean hasOom(Map<?, ?> snapshot, int device) {
        List<?> traces = (List<?>) snapshot.get("device_traces");
        if (!(traces.get(device) instanceof List<?> t)) return false;
        for (Object o : t) if (o instanceof Map<?, ?> e && "oom".equals(e.get("action"))) return true;
        return false;
    }

    /** The PYTORCH_CUDA_ALLOC_CONF the run was recorded with, when the snapshot says (2.4+). */
    public static String recordedConf(Map<?, ?> snapshot) {
        if (snapshot.get("allocator_settings") instanceof Map<?, ?> s
                && s.get("PYTORCH_CUDA_ALLOC_CONF") instanceof String conf) {
            return conf;
        }
        return null;
    }
}
