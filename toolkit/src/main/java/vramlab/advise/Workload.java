package vramlab.advise;

import static vramlab.units.Bytes.GiB;
import static vramlab.units.Bytes.formatSize;

import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

import vramlab.snapshot.Snapshot;
import vramlab.snapshot.SnapshotFile;
import vramlab.snapshot.SnapshotReader;
import vramlab.trace.TraceEvent;
import vramlab.trace.TraceReader;

/**
 * What {@code advise} replays: the events of a text trace, or one device of a snapshot (which
 * {@link Advisor} replays through {@code vramlab.replay.SnapshotReplay}, the same model of the
 * recorded run as {@code vramlab replay}), and the card to replay them on. A text trace has a
 * card only from {@code --device}; a snapshot also from its {@code oom} entry (what PyTorch
 * reserved then plus what the driver reported free), as {@code replay} infers it. When neither
 * says, the card is unknown and advise ranks the settings by peak.
 *
 * @param events    a text trace's events; empty for a snapshot
 * @param snapshot  the snapshot, or null for a text trace
 * @param device    the snapshot's device to replay (the one {@code --device-index} names, else
 *                  the first with an OOM, else the longest history), or null
 * @param card      bytes from {@code --device}, or -1 (a snapshot: inferred by the replay;
 *                  a text trace: {@link #DEFAULT_CARD}, said to be assumed)
 * @param cardFrom  where the card's size came from
 * @param source    file, device and length, for the report's first line
 * @param recorded  the recorded PYTORCH_CUDA_ALLOC_CONF, or null
 * @param where     how an event's position is named
 * @param state     for a file without history, what its segments held; else empty
 */
public record Workload(List<TraceEvent> events, Snapshot snapshot, Snapshot.Device device, long card,
                       String cardFrom, String source, String recorded, String where, String state) {
    /** The card a text trace replays on when nothing says otherwise. */
    public static final long DEFAULT_CARD = 80 * GiB;

    /** Whether there is a history to replay. */
    public boolean replayable() {
        return !events.isEmpty() || (device != null && !device.trace().isEmpty());
    }

    /** @param card the card's bytes from {@code --device}, or -1 */
    public static Workload read(byte[] bytes, String file, long card) {
        return read(bytes, file, card, SnapshotFile::pickDevice);
    }

    /**
     * @param card   the card's bytes from {@code --device}, or -1
     * @param device chooses a snapshot's device to replay: {@link SnapshotFile#pickDevice}, or
     *               the one {@code --device-index} names; unused for a text trace
     */
    public static Workload read(byte[] bytes, String file, long card, Function<Snapshot, Snapshot.Device> device) {
        // A trace line starts with a word or '#', never '{' or '[': such a file is JSON, read as a
        // snapshot (a segment list, or a dict whose reader says what it lacks), as replay reads it.
        if (SnapshotFile.looksLikeSnapshot(bytes)
                || SnapshotReader.isSnapshot(Arrays.copyOf(bytes, Math.min(64, bytes.length)))) {
            return snapshot(SnapshotFile.read(bytes, file), file, card, device);
        }
        List<TraceEvent> events = new ArrayList<>();
        InputStreamReader text = new InputStreamReader(new ByteArrayInputStream(bytes),
                StandardCharsets.UTF_8);
        new TraceReader(new BufferedReader(text), file).forEachRemaining(events::add);
        String from = card > 0 ? "--device" : "assumed; pass --device SIZE";
        String source = file + ", " + events.size() + " events";
        return new Workload(events, null, null, card > 0 ? card : DEFAULT_CARD, from, source, null, "line", "");
    }

    static Workload snapshot(Snapshot s, String file, long card, Function<Snapshot, Snapshot.Device> device) {
        Snapshot.Device d = device.apply(s);
        String recorded = s.settings() == null ? null : s.settings().conf();
        if (d == null) {
            return new Workload(List.of(), s, null, card, "", file + ", no device", recorded, "trace entry",
                    "No device has segments or a history");
        }
        String source = file + ", device " + d.index() + ", " + d.trace().size() + " trace entries";
        String state = d.trace().isEmpty() ? segments(d) : "";
        return new Workload(List.of(), s, d, card, card > 0 ? "--device" : "", source, recorded,
                "trace entry", state);
    }

    /** What the dumped segments hold, for a snapshot with nothing to replay. */
    private static String segments(Snapshot.Device d) {
        long allocated = 0;
        for (Snapshot.Segment s : d.segments()) {
            for (Snapshot.Block b : s.blocks()) if (b.isActive()) allocated += b.size();
        }
        return d.segments().size() + " segments hold " + formatSize(d.reserved()) + ", " + formatSize(allocated)
                + " of it allocated (" + formatSize(d.reserved() - allocated) + " reserved but unallocated)";
    }
}
