package vramlab.snapshot;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import net.razorvine.pickle.Unpickler;
import vramlab.trace.TraceEvent;
import vramlab.trace.TraceException;

/**
 * Reads a memory snapshot that PyTorch wrote ({@code torch.cuda.memory._dump_snapshot}, a
 * pickle) or the same dict saved as JSON, and turns its {@code device_traces} into replayable
 * events: {@code alloc} for each {@code alloc} entry, {@code free} at the first of
 * {@code free_requested} / {@code free_completed}. An {@code oom} entry is the request that
 * failed in the recorded run (its {@code size} is the rounded request, CCA:1274-1280): it
 * becomes an {@code alloc} of a handle {@code oom@<entry>} that is never freed, so the replay
 * answers whether that request would have fitted under another policy. Segment entries
 * ({@code segment_alloc}, {@code segment_map}, ...) and {@code snapshot} describe what the
 * recorded allocator did; a replay recomputes them under its own policy, so they are skipped.
 *
 * <p>Handles are the block's address in hex. A trace that starts after some blocks were
 * allocated (the history is a ring buffer) frees addresses it never allocated: those blocks
 * are allocated first, with the size their free entry names. Streams (CUDA pointers in the
 * file) become small numbers in order of appearance, the default stream 0 staying 0.
 *
 * <p>Simplification: a free replays at once, without the recorded cross-stream wait.
 */
public final class SnapshotReader {
    private SnapshotReader() {}

    /** Whether {@code head} (the first bytes of a file) looks like a pickle or a JSON dict. */
    public static boolean isSnapshot(byte[] head) {
        int i = 0;
        while (i < head.length && Character.isWhitespace(head[i])) i++;
        return i < head.length && ((head[i] & 0xff) == 0x80 || head[i] == '{');
    }

    /** The snapshot dict, from pickle or JSON bytes. */
    public static Map<?, ?> load(byte[] bytes, String file) {
        Object root;
        try {
            int i = 0;
            while (i < bytes.length && Character.isWhitespace(bytes[i])) i++;
            if (i < bytes.length && bytes[i] == '{') {
                root = Json.parse(new String(bytes, StandardCharsets.UTF_8));
            } else {
                root = new Unpickler().loads(bytes);
            }
        } catch (IOException | RuntimeException e) {
            throw new TraceException(file, 0, "not a readable snapshot (pickle or JSON): " + e.getMessage());
        }
        if (!(root instanceof Map<?, ?> m) || !m.containsKey("device_traces")) {
            throw new TraceException(file, 0, "not a memory snapshot: expected a dict with 'device_traces'"
                    + " (torch.cuda.memory._dump_snapshot writes one)");
        }
        return m;
    }

    /** The events of device {@code device}'s trace, in order. */
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
}
