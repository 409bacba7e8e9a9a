package vramlab.replay;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import vramlab.alloc.AllocConf;
import vramlab.alloc.Block;
import vramlab.alloc.CachingAllocator;
import vramlab.alloc.CudaOutOfMemoryError;
import vramlab.alloc.DeviceTrace.Action;
import vramlab.alloc.Policy;
import vramlab.alloc.PyTorchPolicy;
import vramlab.alloc.PyTorchRelease;
import vramlab.alloc.Segment;
import vramlab.alloc.SegmentRestore;
import vramlab.driver.CudaException;
import vramlab.driver.Gpu;
import vramlab.snapshot.Snapshot;
import vramlab.trace.TraceEvent;

/**
 * Replays one device of a PyTorch memory snapshot so that it reconstructs the recorded run: it
 * starts from the state the allocator held when the history began ({@link StartState}), on a
 * card inferred from the snapshot, and replays every entry of the history in order:
 * <ul>
 *   <li>{@code alloc}: the same request on the same stream. Under the recording policy the
 *       segment it creates takes the address the recorded {@code segment_alloc} (or first
 *       {@code segment_map}) names, so best fit breaks ties by address as PyTorch did.
 *   <li>{@code free_requested} / {@code free_completed}: the block is freed at the first of them.
 *       (Simplification: no real snapshot here holds a cross-stream wait between the two.)
 *   <li>a run of {@code segment_free} / {@code segment_unmap} entries: an {@code empty_cache()},
 *       unless the run ends in an {@code oom}; then it is the failing malloc's own
 *       {@code release_cached_blocks}, which the replay's malloc does itself. (A malloc whose
 *       retry succeeded writes the same entries as an {@code empty_cache} before it, and leaves
 *       the same state.)
 *   <li>{@code oom}: the request that failed (its {@code size} is the rounded request), retried.
 *   <li>{@code segment_alloc} / {@code segment_map}, {@code snapshot} and annotations: what the
 *       allocator did, not what it was asked; the replay's allocator does its own.
 * </ul>
 */
public final class SnapshotReplay {
    /**
     * Where a new segment goes. The driver alone decides where a {@code cudaMalloc} lands, and
     * best fit breaks ties between equal free blocks by address, so placement can move a verdict.
     */
    public enum Placement {
        /** Each new segment at the address the recording's {@code segment_alloc} (or first map) gave it. */
        RECORDED("the recorded addresses (each new segment where the recording's segment_alloc put it)"),
        /** Each new segment where the kit's simulated driver places it. */
        DRIVER("the simulated driver's addresses (the recorded ones belong to other settings)");

        private final String words;

        Placement(String words) { this.words = words; }

        public String words() { return words; }

        public Placement other() { return this == RECORDED ? DRIVER : RECORDED; }
    }

    /**
     * How to replay.
     *
     * @param policy    the policy to replay under, or null for the one that recorded the snapshot
     * @param card      the card's memory, or -1 to infer it from the snapshot
     * @param placement where new segments go, or null: the recorded addresses under the recording
     *                  settings (given or not), the simulated driver's under any other
     * @param release   the PyTorch release whose rules the recording's own settings follow
     *                  ({@code --pytorch-version}), or null for the one the file implies
     *                  ({@link SnapshotRelease}); a given policy carries its own
     */
    public record Options(Policy policy, long card, Placement placement, PyTorchRelease release) {
        public Options(Policy policy, long card) { this(policy, card, null, null); }

        public Options(Policy policy, long card, Placement placement) { this(policy, card, placement, null); }

        public static Options recorded() { return new Options(null, -1, null, null); }
    }

    /** A segment at the end of a run as a snapshot reports it: one mapped range. */
    public record Extent(long address, long size) {}

    /** What one device's replay found, with the recorded figures beside the replayed ones. */
    public record Report(int device, String policy, boolean recordingPolicy, Placement placement,
                         String card, long cardAvailable, boolean cardKnown, long firstOomShortfall,
                         List<String> start, long steps, List<Integer> recordedOoms,
                         List<Integer> replayedOoms, List<String> oomMessages,
                         long recordedPeak, int recordedPeakPosition, long replayedPeak,
                         int replayedPeakPosition, long allocatedAtPeak, boolean peakAtStart,
                         List<Extent> recordedSegments,
                         List<Extent> replayedSegments, int liveBlocks, int liveBlocksMatched,
                         int skippedFrees,
                         int segmentActions, String segmentActionDifference, CachingAllocator allocator) {
        public long recordedReserved() { return recordedSegments.stream().mapToLong(Extent::size).sum(); }
        public long replayedReserved() { return replayedSegments.stream().mapToLong(Extent::size).sum(); }

        /** Count, sizes and reserved bytes of the final segments equal the snapshot's own. */
        public boolean segmentsAgree() {
            return sizes(recordedSegments).equals(sizes(replayedSegments));
        }

        /** ... and at the same addresses. */
        public boolean addressesAgree() { return recordedSegments.equals(replayedSegments); }

        /** Every recorded OOM recurs at its entry, and no other. */
        public boolean oomsAgree() { return recordedOoms.equals(replayedOoms); }

        private static List<Long> sizes(List<Extent> segments) {
            return segments.stream().map(Extent::size).sorted().toList();
        }
    }

    private SnapshotReplay() {}

    /**
     * Whether {@code p} is the recording: null, or PyTorch's policy with the very values the
     * recording used ({@code --alloc-conf ''} on a run recorded with the defaults,
     * {@code expandable_segments:False} on one that says so).
     */
    public static boolean isRecording(Policy p, Snapshot s, Snapshot.Device d) {
        if (p == null) return true;
        Policy recording = recordingPolicy(s, d);
        return p instanceof PyTorchPolicy given && recording instanceof PyTorchPolicy rec
                && given.conf().equals(rec.conf());
    }

    /** The policy and settings that recorded the snapshot, as far as it says, under the release it implies. */
    public static Policy recordingPolicy(Snapshot s, Snapshot.Device d) {
        return recordingPolicy(s, d, SnapshotRelease.implied(s).release());
    }

    /** The same under {@code release}'s rules ({@code --pytorch-version}). */
    public static Policy recordingPolicy(Snapshot s, Snapshot.Device d, PyTorchRelease release) {
        if (s.settings() != null) return new PyTorchPolicy(s.settings().values(), s.settings().conf(), release);
        boolean expandable = d.segments().stream().anyMatch(Snapshot.Segment::expandable);
        return expandable ? PyTorchPolicy.of("expandable_segments:True", release)
                : new PyTorchPolicy(AllocConf.defaults(), "", release);
    }

    /**
     * In words, for the report: which policy, with which settings, where they came from, and
     * whose rules it follows where PyTorch's releases differ.
     */
    public static String describe(Policy p, Snapshot s, boolean recording) {
        String conf = p instanceof PyTorchPolicy pt ? settings(pt.conf(), pt.release()) : "";
        String rules = p instanceof PyTorchPolicy pt ? "; " + SnapshotRelease.of(s,
                pt.release() == SnapshotRelease.implied(s).release() ? null : pt.release()).words() : "";
        if (!recording) {
            return p.name() + (conf.isEmpty() ? "" : " with " + conf) + " (not the recording settings" + rules + ")";
        }
        if (s.settings() != null) {
            return "pytorch with the recorded allocator_settings (PYTORCH_CUDA_ALLOC_CONF='"
                    + s.settings().conf() + "'" + (conf.isEmpty() ? "" : "; " + conf) + rules + ")";
        }
        return "pytorch with " + (conf.isEmpty() ? "the default settings" : conf)
                + " (the snapshot records no allocator_settings: " + SnapshotRelease.SETTINGS_SINCE
                + (conf.isEmpty() ? "" : "; expandable segments seen in its segments") + rules + ")";
    }

    /**
     * The settings as the report names them. A memory fraction under a release whose parser has
     * no key for it (2.9) was set by code ({@code replay --memory-fraction}, advise's 2.9 row),
     * and is named as that call, not as a key the release would refuse.
     */
    private static String settings(AllocConf c, PyTorchRelease release) {
        boolean byCode = c.memoryFraction() >= 0 && !release.rules().keys().contains("per_process_memory_fraction");
        String s = (byCode ? new AllocConf(c.expandableSegments(), c.maxSplitSize(), c.maxNonSplitRounding(),
                c.roundupPower2Divisions(), c.garbageCollectionThreshold(), -1) : c).toString();
        s = s.equals("expandable_segments:False") ? "" : s.replace("expandable_segments:False,", "");
        if (!byCode) return s;
        return (s.isEmpty() ? "" : s + " + ") + AllocConf.fractionCall(c.memoryFraction());
    }

    /**
     * Replays device {@code d} of snapshot {@code s}, telling {@code listener} each step.
     *
     * @param record whether the replay's allocator records its own history (for {@code --export})
     */
    public static Report run(Snapshot s, Snapshot.Device d, Options o, Replayer.Listener listener,
                             boolean record) {
        return run(s, d, o, listener, record, Integer.MAX_VALUE);
    }

    /**
     * The replay stopped after the entry at {@code position} (0: the state before the history):
     * its allocator holds the state at that moment ({@link WhoHolds} reads the holes from it).
     */
    public static Report stateAt(Snapshot s, Snapshot.Device d, Options o, int position) {
        return run(s, d, o, (step, e, result, bytes, a) -> { }, false, position);
    }

    private static Report run(Snapshot s, Snapshot.Device d, Options o, Replayer.Listener listener,
                              boolean record, int stopAfter) {
        Policy recording = recordingPolicy(s, d,
                o.policy() instanceof PyTorchPolicy given ? given.release() : SnapshotRelease.of(s, o.release()).release());
        boolean same = isRecording(o.policy(), s, d);
        Policy policy = same ? recording : o.policy();
        Placement placement = o.placement() != null ? o.placement()
                : same ? Placement.RECORDED : Placement.DRIVER;
        Map<Long, Integer> streams = new HashMap<>();
        streams.put(0L, 0);
        StartState start = StartState.of(d, recording, streams);
        SnapshotCard.Reserved timeline = SnapshotCard.reservedTimeline(d, start.reserved());
        List<Integer> recordedOoms = new ArrayList<>();
        for (Snapshot.Entry e : d.trace()) if (e.action() == Action.OOM) recordedOoms.add(e.position());
        SnapshotCard.Card card = SnapshotCard.infer(o.card(), timeline, start.expandableBases());
        SnapshotCard.checkCard(card.total(), card.why(), s.file());
        Gpu gpu = new Gpu(d.index(), card.total(), card.total() - card.available());
        CachingAllocator a = new CachingAllocator(gpu.open(1, "replay", 0), policy);
        a.expectOoms(true);             // an OOM is a result of the replay: no stack traces to fill
        List<String> startNotes = new ArrayList<>(start.notes());
        Map<String, Block> live = new HashMap<>();
        restore(a, start, live, startNotes);
        a.memoryStats().resetAccumulated();
        a.memoryStats().resetPeak();
        a.trace().record(true, Long.MAX_VALUE);
        Run run = new Run(a, listener, live, placement == Placement.RECORDED, s.file(), d.index());
        run.peak.see(a.reserved(), a.allocated());
        for (SnapshotSteps.Step step : SnapshotSteps.of(d.trace())) {
            if (step.position() > stopAfter) break;
            run.apply(step, streams);
        }
        List<List<String>> recordedRuns = EndState.segmentRuns(d.trace().stream()
                .map(e -> new EndState.Event(e.action(), e.addr(), e.size())).toList());
        List<List<String>> replayedRuns = EndState.segmentRuns(a.trace().entries().stream()
                .map(e -> new EndState.Event(e.action(), e.addr(), e.size())).toList());
        if (!record) a.trace().record(false, 1);
        a.expectOoms(false);            // the report's allocator, used after (JShell), throws as any other
        return new Report(d.index(), describe(policy, s, same), same, placement, card.why(),
                card.available(), card.known(), run.shortfall, startNotes, run.steps,
                recordedOoms, run.ooms, run.messages, timeline.peak(), timeline.peakPosition(), run.peak.reserved(), run.peakPosition,
                run.peak.allocated(), run.peak.peakIsFirst(),
                EndState.recordedSegments(d), EndState.replayedSegments(a), EndState.liveBlocks(d),
                EndState.matchedLive(d, a), run.skipped, EndState.count(recordedRuns),
                EndState.firstDifference(recordedRuns, replayedRuns), a);
    }

    // ---- the start state ----------------------------------------------------------------

    private static void restore(CachingAllocator a, StartState start, Map<String, Block> live,
                                List<String> notes) {
        int failed = 0;
        String first = null;
        for (StartState.SegmentAt s : start.segments()) {
            List<SegmentRestore.Live> blocks = new ArrayList<>();
            for (StartState.LiveAt b : s.live()) {
                blocks.add(new SegmentRestore.Live(b.address(), b.size(), b.requested()));
            }
            try {
                List<Block> made = s.expandable()
                        ? SegmentRestore.mappedRange(a, s.base(), s.address(), s.size(), s.pool(),
                                s.stream(), blocks)
                        : SegmentRestore.cudaMalloc(a, s.address(), s.size(), s.pool(), s.stream(), blocks);
                for (Block b : made) live.put(SnapshotSteps.handle(b.address()), b);
            } catch (IllegalStateException | IllegalArgumentException e) {
                failed++;
                if (first == null) first = e.getMessage();
            }
        }
        if (failed > 0) notes.add(failed + " segments of the rebuilt state could not be put back: " + first);
    }

    /** Applies steps to the allocator and tells the listener, as {@link Replayer} does. */
    private static final class Run {
        final CachingAllocator a;
        final Replayer.Listener listener;
        final Map<String, Block> live;
        final boolean hints;
        final String file;
        final int device;
        final Set<String> failed = new HashSet<>();
        final List<Integer> ooms = new ArrayList<>();
        final List<String> messages = new ArrayList<>();
        final PeakReserved peak = new PeakReserved();
        long steps, shortfall = -1;
        int peakPosition;
        int skipped;

        Run(CachingAllocator a, Replayer.Listener listener, Map<String, Block> live, boolean hints, String file, int device) {
            this.a = a;
            this.file = file;
            this.device = device;
            this.listener = listener;
            this.live = live;
            this.hints = hints;
        }

        void apply(SnapshotSteps.Step s, Map<Long, Integer> streams) {
            steps++;
            int stream = streams.computeIfAbsent(s.stream(), k -> streams.size());
            TraceEvent e = new TraceEvent(s.position(), s.op(), s.handle(), s.size(), stream);
            switch (s.op()) {
                case ALLOC -> alloc(s, e, stream);
                case FREE -> free(e);
                case EMPTY_CACHE -> listener.event(steps, e, Replayer.Result.OK, a.emptyCache(), a);
            }
            if (peak.see(a.reserved(), a.allocated())) peakPosition = s.position();
        }

        private void alloc(SnapshotSteps.Step s, TraceEvent e, int stream) {
            Block old = live.remove(s.handle());
            if (old != null) a.free(old);              // a free the history lost: the address is reused
            failed.remove(s.handle());
            if (hints) a.expectSegmentAt(s.hint());
            try {
                live.put(s.handle(), a.alloc(s.size(), stream));
                listener.event(steps, e, Replayer.Result.OK, s.size(), a);
            } catch (CudaOutOfMemoryError oom) {
                failed.add(s.handle());
                if (ooms.isEmpty()) shortfall = shortfall(oom.report());
                ooms.add(s.position());
                messages.add(oom.getMessage());
                listener.oom(steps, e, oom);
                listener.event(steps, e, Replayer.Result.OOM, s.size(), a);
            } catch (CudaException driver) {
                throw AddressSpaceLimit.explain(driver, a, file, 0, "at device " + device + "'s trace entry " + s.position() + ": ");
            } finally {
                a.expectSegmentAt(CachingAllocator.NO_HINT);
            }
        }

        /**
         * What the failing request lacked: the segment it tried for, less what the driver had
         * free (or, under a memory fraction, what the limit still allowed).
         */
        private static long shortfall(vramlab.alloc.OomReport r) {
            long room = r.deviceFree();
            if (r.allowed() >= 0) room = Math.min(room, Math.max(0, r.allowed() - r.reserved()));
            return Math.max(0, r.tried() - room);
        }

        private void free(TraceEvent e) {
            Block b = live.remove(e.handle());
            if (b != null) {
                long bytes = b.requested();
                a.free(b);
                listener.event(steps, e, Replayer.Result.OK, bytes, a);
            } else {
                if (!failed.remove(e.handle())) skipped++;   // a block the rebuilt state lacks
                listener.event(steps, e, Replayer.Result.SKIPPED, 0, a);
            }
        }
    }
}
