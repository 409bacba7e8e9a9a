package vramlab.advise;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import vramlab.alloc.CachingAllocator;
import vramlab.alloc.CudaOutOfMemoryError;
import vramlab.alloc.PyTorchPolicy;
import vramlab.alloc.PyTorchRelease;
import vramlab.alloc.Policy;
import vramlab.driver.Gpu;
import vramlab.replay.PeakReserved;
import vramlab.replay.Replayer;
import vramlab.replay.SnapshotRelease;
import vramlab.replay.SnapshotReplay;
import vramlab.replay.Timeline;
import vramlab.replay.WhatIf;
import vramlab.snapshot.Snapshot;
import vramlab.trace.TraceEvent;

/**
 * Replays one workload under each setting on a card of a given size, through PyTorch's policy
 * as the kit simulates it ({@link PyTorchPolicy}), and records peak reserved, the holes at that
 * peak, and the first allocation that would not fit. A snapshot goes through the one model of
 * the recorded run, {@link SnapshotReplay} by way of {@link WhatIf}: its first row is the run as
 * recorded, every other row exactly what {@code vramlab replay --alloc-conf ROW} prints (a row
 * with a line of code, 2.9's garbage-collection row, is what {@code replay --pytorch-version 2.9
 * --alloc-conf garbage_collection_threshold:0.8 --memory-fraction 0.99} prints, and what 2.10's
 * row, with the key {@code per_process_memory_fraction}, prints under 2.10: the two releases'
 * rules differ on nothing that row sets).
 */
public final class Advisor {
    /** Inputs longer than this get a progress line per setting on standard error. */
    public static final int PROGRESS_ABOVE = 10_000;

    private Advisor() {}

    /**
     * @param events   the workload, replayed from the start for every setting
     * @param card     the bytes the allocator may take from the driver
     * @param file     for error messages
     * @param progress receives one line per setting when the input is long; may be null
     */
    public static List<Outcome> compare(List<TraceEvent> events, long card, List<Setting> settings,
                                        String file, Consumer<String> progress) {
        return compare(events, card, settings, file, progress, PyTorchRelease.DEFAULT);
    }

    /** The same under {@code release}'s rules where PyTorch's releases differ. */
    public static List<Outcome> compare(List<TraceEvent> events, long card, List<Setting> settings,
                                        String file, Consumer<String> progress, PyTorchRelease release) {
        vramlab.replay.SnapshotCard.checkCard(card, "from the file or --device", file);
        List<Outcome> out = new ArrayList<>();
        for (int i = 0; i < settings.size(); i++) {
            Setting s = settings.get(i);
            if (progress != null && events.size() > PROGRESS_ABOVE) {
                progress.accept("advise: [" + (i + 1) + "/" + settings.size() + "] " + s.name() + ", "
                        + events.size() + " events");
            }
            out.add(replay(events, card, s, file, release));
        }
        return out;
    }

    /**
     * A snapshot's device under its recorded run, then under each setting, on {@code card}
     * (-1: the card the snapshot implies, as {@code replay} infers it).
     */
    public static List<Outcome> compare(Snapshot s, Snapshot.Device d, long card, List<Setting> settings,
                                        Consumer<String> progress) {
        return compare(s, d, card, settings, progress, null);
    }

    /** The same, each row's replay also heard by a new {@link Timeline} added to {@code timelines}. */
    public static List<Outcome> compare(Snapshot s, Snapshot.Device d, long card, List<Setting> settings,
                                        Consumer<String> progress, List<Timeline> timelines) {
        return compare(s, d, card, settings, progress, timelines, null);
    }

    /**
     * The same under {@code release}'s rules ({@code --pytorch-version}), or null for the release
     * the snapshot implies ({@link SnapshotRelease}), as {@code replay} chooses it.
     */
    public static List<Outcome> compare(Snapshot s, Snapshot.Device d, long card, List<Setting> settings,
                                        Consumer<String> progress, List<Timeline> timelines,
                                        PyTorchRelease release) {
        List<Setting> rows = new ArrayList<>();
        rows.add(Setting.recorded(s.settings() == null ? null : s.settings().conf()));
        rows.addAll(settings);
        List<Outcome> out = new ArrayList<>();
        for (int i = 0; i < rows.size(); i++) {
            Setting row = rows.get(i);
            if (progress != null && d.trace().size() > PROGRESS_ABOVE) {
                progress.accept("advise: [" + (i + 1) + "/" + rows.size() + "] " + row.name() + ", "
                        + d.trace().size() + " trace entries");
            }
            Timeline t = timelines == null ? null : new Timeline();
            if (t != null) timelines.add(t);
            out.add(replay(s, d, card, row, t, release));
        }
        return out;
    }

    /** One row: the replay {@code vramlab replay [--alloc-conf CONF] [--device CARD]} runs. */
    static Outcome replay(Snapshot s, Snapshot.Device d, long card, Setting row) {
        return replay(s, d, card, row, null, null);
    }

    private static Outcome replay(Snapshot s, Snapshot.Device d, long card, Setting row, Timeline timeline,
                                  PyTorchRelease release) {
        PyTorchRelease rules = SnapshotRelease.of(s, release).release();
        Policy policy = row.asRecorded() ? null : row.policy(rules);
        Watcher w = new Watcher();
        WhatIf what = WhatIf.run(s, d, new SnapshotReplay.Options(policy, card, null, release),
                timeline == null ? w : Timeline.both(w, timeline), false);
        SnapshotReplay.Report r = what.main();
        return new Outcome(row, r.replayedPeak(), r.allocatedAtPeak(), r.replayedOoms().size(), w.firstOom,
                w.firstOomStep, r.replayedReserved(), what);
    }

    static Outcome replay(List<TraceEvent> events, long card, Setting s, String file) {
        return replay(events, card, s, file, PyTorchRelease.DEFAULT);
    }

    static Outcome replay(List<TraceEvent> events, long card, Setting s, String file, PyTorchRelease release) {
        CachingAllocator a = new CachingAllocator(new Gpu(card).openToyProcess(),
                s.policy(release));
        a.expectOoms(true);            // OOMs are counted, never thrown on: no stack traces
        Watcher w = new Watcher();
        new Replayer(a, w, file, false).replay(events.iterator());
        return new Outcome(s, w.peak.reserved(), w.peak.allocated(), w.ooms, w.firstOom, w.firstOomStep,
                a.reserved());
    }

    /** Keeps the peak and the first OOM as the replay goes. */
    private static final class Watcher implements Replayer.Listener {
        final PeakReserved peak = new PeakReserved();
        long ooms, firstOomStep;
        TraceEvent firstOom;

        @Override
        public void event(long step, TraceEvent e, Replayer.Result result, long bytes,
                          CachingAllocator a) {
            peak.see(a.reserved(), a.allocated());
        }

        @Override
        public void oom(long step, TraceEvent e, CudaOutOfMemoryError error) {
            ooms++;
            if (firstOom == null) {
                firstOom = e;
                firstOomStep = step;
            }
        }
    }
}
