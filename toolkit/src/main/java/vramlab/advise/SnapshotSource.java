package vramlab.advise;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;

import net.razorvine.pickle.Unpickler;
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
        try {
            return SnapshotReader.load(raw, file);
        } catch (TraceException e) {
            Object root = unpickleOrNull(raw);
            if (root instanceof List<?> segments) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("segments", segments);
                m.put("device_traces", List.of());
                return m;
            }
            throw e;
        }
    }

    private static Object unpickleOrNull(byte[] raw) {
        if (raw.length == 0 || (raw[0] & 0xff) != 0x80) return null;
        try {
            return new Unpickler().loads(raw);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    private static byte[] gunzip(byte[] bytes, String file) {
        try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(bytes))) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new TraceException(file, 0, "not a readable gzip file: " + e.getMessage());
        }
    }

    /** The replayable events of one device's trace. */
    public static List<TraceEvent> events(Map<?, ?> snapshot, int device, String file) {
        return SnapshotReader.events(snapshot, device, file);
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
