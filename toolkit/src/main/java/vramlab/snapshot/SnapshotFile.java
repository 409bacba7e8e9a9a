package vramlab.snapshot;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A snapshot file's bytes as {@code replay}, {@code advise} and {@code triage} receive them:
 * gzipped or not, a pickle, a JSON dict or the bare list of segments. The one place that tells a
 * snapshot from a pasted message and unzips it; {@link SnapshotReader} reads what it returns.
 */
public final class SnapshotFile {
    private SnapshotFile() {}

    /**
     * Whether a file's bytes are a snapshot: gzip, a pickle, or JSON that names a snapshot's keys:
     * {@code device_traces} or {@code segments} (a dict, or one cut short before
     * {@code device_traces}), or a segment's {@code total_size} and {@code blocks} (the bare list
     * of {@code torch.cuda.memory_snapshot()}, which replay and advise read). A JSON log line that
     * happens to start with a brace is not; triage took the other two for pasted messages
     * ("NOT_PYTORCH_OOM").
     */
    public static boolean looksLikeSnapshot(byte[] bytes) {
        if (SnapshotInput.isGzip(bytes)) return true;
        byte[] head = Arrays.copyOf(bytes, Math.min(64, bytes.length));
        if (!SnapshotReader.isSnapshot(head)) return false;
        int i = 0;
        while (i < bytes.length && Character.isWhitespace(bytes[i])) i++;
        if ((bytes[i] & 0xff) == 0x80) return true;
        String text = new String(bytes, StandardCharsets.UTF_8);
        return text.contains("\"device_traces\"") || text.contains("\"segments\"")
                || (text.contains("\"total_size\"") && text.contains("\"blocks\""));
    }

    /** The snapshot, read whole. */
    public static Snapshot read(byte[] bytes, String file) {
        return SnapshotReader.read(unzipped(bytes, file), file);
    }

    /**
     * The snapshot's top-level dict as the unpickler made it, for readers of keys the model does
     * not keep ({@code vramlab.triage.OomMoment}). A bare list of segments becomes
     * {@code {segments: list, device_traces: []}}: a state without history.
     */
    public static Map<?, ?> dict(byte[] bytes, String file) {
        Object root = SnapshotReader.load(unzipped(bytes, file), file);
        if (root instanceof List<?> segments) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("segments", segments);
            m.put("device_traces", List.of());
            return m;
        }
        return (Map<?, ?>) root;
    }

    /**
     * The bytes, unzipped when they start with gzip's magic number, through the kit's one capped
     * reader ({@link SnapshotInput}): a gzip bomb is refused before it is held.
     */
    public static byte[] unzipped(byte[] bytes, String file) {
        return SnapshotInput.isGzip(bytes) ? SnapshotInput.readAll(new ByteArrayInputStream(bytes), file) : bytes;
    }

    /**
     * The device to read: the first whose trace has an {@code oom} entry, else the one with the
     * longest history, and of equal histories the one holding the most (a file whose only
     * history on device 0 is one stray entry still answers for the device its segments are on).
     */
    public static Snapshot.Device pickDevice(Snapshot s) {
        Snapshot.Device best = null;
        for (Snapshot.Device d : s.devices()) {
            for (Snapshot.Entry e : d.trace()) {
                if (e.action() == vramlab.alloc.DeviceTrace.Action.OOM) return d;
            }
            if (best == null || d.trace().size() > best.trace().size()
                    || (d.trace().size() == best.trace().size() && d.reserved() > best.reserved())) {
                best = d;
            }
        }
        return best;
    }
}
