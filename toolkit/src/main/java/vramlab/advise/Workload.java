package vramlab.advise;

import static vramlab.units.Bytes.GiB;
import static vramlab.units.Bytes.formatSize;

import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import vramlab.trace.TraceEvent;
import vramlab.trace.TraceReader;
import vramlab.triage.OomMoment;

/**
 * What {@code advise} replays: the events of a text trace or of one device's snapshot trace,
 * and the card to replay them on. A snapshot with an {@code oom} entry gives the card the
 * recorded run had: what PyTorch reserved at the OOM plus what the driver reported free then
 * (the context and other processes are already outside that). Otherwise {@code --device}
 * gives it, or the replay's default of 80 GiB is assumed and said so.
 *
 * @param events   the workload; empty when the file records no history
 * @param card     bytes the replayed allocator may take
 * @param cardFrom where the card's size came from
 * @param source   file, device and length, for the report's first line
 * @param recorded the recorded PYTORCH_CUDA_ALLOC_CONF, or null
 * @param where    how an event's position is named
 * @param state    for a file without history, what its segments held; else empty
 */
public record Workload(List<TraceEvent> events, long card, String cardFrom, String source,
                       String recorded, String where, String state) {
    /** The card {@code vramlab replay} assumes when nothing says otherwise. */
    public static final long DEFAULT_CARD = 80 * GiB;

    /** @param device the card's bytes from {@code --device}, or -1 */
    public static Workload read(byte[] bytes, String file, long device) {
        if (SnapshotSource.looksLikeSnapshot(bytes)) {
            return snapshot(SnapshotSource.load(bytes, file), file, device);
        }
        List<TraceEvent> events = new ArrayList<>();
        InputStreamReader text = new InputStreamReader(new ByteArrayInputStream(bytes),
                StandardCharsets.UTF_8);
        new TraceReader(new BufferedReader(text), file).forEachRemaining(events::add);
        long card = device > 0 ? device : DEFAULT_CARD;
        String from = device > 0 ? "--device" : "assumed; pass --device SIZE";
        String source = file + ", " + events.size() + " events";
        return new Workload(events, card, from, source, null, "line", "");
    }

    static Workload snapshot(Map<?, ?> snap, String file, long device) {
        int d = SnapshotSource.pickDevice(snap);
        List<TraceEvent> events = SnapshotSource.events(snap, d, file);
        long card = device;
        String from = "--device";
        if (card <= 0) {
            OomMoment oom = null;
            for (OomMoment m : OomMoment.all(snap, file)) if (m.device() == d && oom == null) oom = m;
            if (oom != null) {
                card = oom.reserved() + oom.deviceFree();
                from = "what the recorded run could hold: " + formatSize(oom.reserved())
                        + " reserved at its OOM (trace entry " + oom.entry() + ") plus "
                        + formatSize(oom.deviceFree()) + " free";
            } else {
                card = DEFAULT_CARD;
                from = "assumed: the snapshot records no OOM and no card size; pass --device SIZE";
            }
        }
        String source = file + ", device " + d + ", " + SnapshotSource.entries(snap, d)
                + " trace entries, " + events.size() + " replayed events";
        String state = events.isEmpty() ? segments(snap) : "";
        String recorded = SnapshotSource.recordedConf(snap);
        return new Workload(events, card, from, source, recorded, "trace entry", state);
    }

    /** A segment's live bytes: its blocks' when listed, else its allocated_size. */
    private static long allocated(Map<?, ?> s) {
        if (s.get("blocks") instanceof List<?> blocks && !blocks.isEmpty()) {
            long sum = 0;
            for (Object o : blocks) {
                boolean live = o instanceof Map<?, ?> b && live(b.get("state"));
                if (live && ((Map<?, ?>) o).get("size") instanceof Number n) {
                    sum += n.longValue();
                }
            }
            return sum;
        }
        return s.get("allocated_size") instanceof Number a ? a.longValue() : 0;
    }

    private static boolean live(Object state) {
        return "active_allocated".equals(state) || "active_pending_free".equals(state);
    }

    /** What the dumped segments hold, for a snapshot with nothing to replay. */
    private static String segments(Map<?, ?> snap) {
        long n = 0, total = 0, allocated = 0;
        if (snap.get("segments") instanceof List<?> segs) {
            for (Object o : segs) {
                if (!(o instanceof Map<?, ?> s)) continue;
                n++;
                if (s.get("total_size") instanceof Number t) total += t.longValue();
                allocated += allocated(s);
            }
        }
        return n + " segments hold " + formatSize(total) + ", " + formatSize(allocated)
                + " of it allocated ("
                + formatSize(total - allocated) + " reserved but unallocated)";
    }
}
