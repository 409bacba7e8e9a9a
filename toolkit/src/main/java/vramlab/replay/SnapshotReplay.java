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
import vramlab.alloc.Segment;
import vramlab.alloc.SegmentRestore;
import vramlab.driver.Gpu;
import vramlab.snapshot.Snapshot;
import vramlab.trace.TraceEvent;
import vramlab.units.Bytes;

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
    /** The default card when the snapshot records none: an 80 GiB device (A100 / H100 80GB). */
    public static final long DEFAULT_CARD = 80 * Bytes.GiB;
    /**
     * The largest card the kit simulates: 4 TiB, some twenty times today's largest. Its frame
     * bitmaps take 8 MB each; a snapshot whose sizes imply a card of petabytes (a corrupted
     * field) would take more heap than any machine has, so it is refused.
     */
    public static final long MAX_CARD = 4 * Bytes.TiB;

    /** Refuses a card above {@link #MAX_CARD}, saying where its size came from. */
    public static void checkCard(long total, String why, String file) {
        if (total > MAX_CARD) {
            throw new vramlab.trace.TraceException(file, 0, "a card of " + Bytes.readable(total) + " (" + why
                    + ") is more than the kit simulates, " + Bytes.readable(MAX_CARD) + "; give --device SIZE");
        }
    }

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
     */
    public record Options(Policy policy, long card, Placement placement) {
        public Options(Policy policy, long card) { this(policy, card, null); }

        public static Options recorded() { return new Options(null, -1, null); }
    }

    /** One step of the replay, from one or more history entries. */
    record Step(int position, TraceEvent.Op op, String handle, long size, long stream, long hint,
                        boolean recordedOom) {}

    /** What one device's replay found, with the recorded figures beside the replayed ones. */
    public record Report(int device, String policy, boolean recordingPolicy, Placement placement,
                         String card, long cardAvailable, boolean cardKnown, long firstOomShortfall,
                         List<String> start, long steps, List<Integer> recordedOoms,
                         List<Integer> replayedOoms, List<String> oomMessages,
                         long recordedPeak, int recordedPeakPosition, long replayedPeak,
                         int replayedPeakPosition, long allocatedAtPeak,
                         List<long[]> recordedSegments,
                         List<long[]> replayedSegments, int liveBlocks, int liveBlocksMatched,
                         int skippedFrees,
                         int segmentActions, String segmentActionDifference, CachingAllocator allocator) {
        public long recordedReserved() { return recordedSegments.stream().mapToLong(s -> s[1]).sum(); }
        public long replayedReserved() { return replayedSegments.stream().mapToLong(s -> s[1]).sum(); }

        /** Count, sizes and reserved bytes of the final segments equal the snapshot's own. */
        public boolean segmentsAgree() {
            return sizes(recordedSegments).equals(sizes(replayedSegments));
        }

        /** ... and at the same addresses. */
        public boolean addressesAgree() {
            if (recordedSegments.size() != replayedSegments.size()) return false;
            for (int i = 0; i < recordedSegments.size(); i++) {
                if (recordedSegments.get(i)[0] != replayedSegments.get(i)[0]
                        || recordedSegments.get(i)[1] != replayedSegments.get(i)[1]) return false;
            }
            return true;
        }

        /** Every recorded OOM recurs at its entry, and no other. */
        public boolean oomsAgree() { return recordedOoms.equals(replayedOoms); }

        private static List<Long> sizes(List<long[]> segments) {
            return segments.stream().map(s -> s[1]).sorted().toList();
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

    /** The policy and settings that recorded the snapshot, as far as it says. */
    public static Policy recordingPolicy(Snapshot s, Snapshot.Device d) {
        if (s.settings() != null) return new PyTorchPolicy(s.settings().values(), s.settings().conf());
        boolean expandable = d.segments().stream().anyMatch(Snapshot.Segment::expandable);
        return expandable ? new PyTorchPolicy("expandable_segments:True") : new PyTorchPolicy();
    }

    /** In words, for the report: which policy, with which settings, and where they came from. */
    public static String describe(Policy p, Snapshot s, boolean recording) {
        String conf = p instanceof PyTorchPolicy pt ? settings(pt.conf()) : "";
        if (!recording) {
            return p.name() + (conf.isEmpty() ? "" : " with " + conf) + " (not the recording settings)";
        }
        if (s.settings() != null) {
            return "pytorch with the recorded allocator_settings (PYTORCH_CUDA_ALLOC_CONF='"
                    + s.settings().conf() + "'" + (conf.isEmpty() ? "" : "; " + conf) + ")";
        }
        return "pytorch with " + (conf.isEmpty() ? "the default settings" : conf)
                + " (the snapshot records no allocator_settings: written before"
                + " pytorch/pytorch#119404 added them"
                + (conf.isEmpty() ? "" : "; expandable segments seen in its segments") + ")";
    }

    private static String settings(AllocConf c) {
        String s = c.toString();
        return s.equals("expandable_segments:False") ? "" : s.replace("expandable_segments:False,", "");
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
        Policy recording = recordingPolicy(s, d);
        boolean same = isRecording(o.policy(), s, d);
        Policy policy = same ? recording : o.policy();
        Placement placement = o.placement() != null ? o.placement()
                : same ? Placement.RECORDED : Placement.DRIVER;
        Map<Long, Integer> streams = new HashMap<>();
        streams.put(0L, 0);
        StartState start = StartState.of(d, recording, streams);
        long[] timeline = reservedTimeline(d, start.reserved());
        List<Integer> recordedOoms = new ArrayList<>();
        for (Snapshot.Entry e : d.trace()) if (e.action() == Action.OOM) recordedOoms.add(e.position());
        Card card = card(o.card(), timeline, start.expandableBases());
        checkCard(card.total(), card.why(), s.file());
        Gpu gpu = new Gpu(d.index(), card.total(), card.total() - card.available());
        CachingAllocator a = new CachingAllocator(gpu.open(1, "replay", 0), policy);
        List<String> startNotes = new ArrayList<>(start.notes());
        Map<String, Block> live = new HashMap<>();
        restore(a, start, live, startNotes);
        a.memoryStats().resetAccumulated();
        a.memoryStats().resetPeak();
        a.trace().record(true, Long.MAX_VALUE);
        Run run = new Run(a, listener, live, placement == Placement.RECORDED);
        run.peak = a.reserved();
        run.allocatedAtPeak = a.allocated();
        for (Step step : steps(d.trace())) {
            if (step.position() > stopAfter) break;
            run.apply(step, streams);
        }
        List<List<String>> recordedRuns = segmentRuns(d.trace().stream()
                .map(e -> e.action() == null ? null
                        : new long[] {e.action().ordinal(), e.addr(), e.size()})
                .toList());
        List<List<String>> replayedRuns = segmentRuns(a.trace().entries().stream()
                .map(e -> new long[] {e.action().ordinal(), e.addr(), e.size()}).toList());
        if (!record) a.trace().record(false, 1);
        return new Report(d.index(), describe(policy, s, same), same, placement, card.why(),
                card.available(), card.known(), run.shortfall, startNotes, run.steps,
                recordedOoms, run.ooms, run.messages, timeline[0], (int) timeline[3], run.peak, run.peakPosition,
                run.allocatedAtPeak,
                recordedSegments(d), replayedSegments(a), liveBlocks(d), matchedLive(d, a), run.skipped,
                count(recordedRuns), firstDifference(recordedRuns, replayedRuns), a);
    }

    /**
     * The segment actions ({@code segment_alloc}, {@code _free}, {@code _map}, {@code _unmap})
     * as runs of consecutive entries, each run sorted: PyTorch releases cached segments in its
     * free sets' order, the kit in its own, and within one burst the order carries no meaning.
     */
    private static List<List<String>> segmentRuns(List<long[]> entries) {
        List<List<String>> runs = new ArrayList<>();
        List<String> run = new ArrayList<>();
        for (long[] e : entries) {
            Action a = e == null ? null : Action.values()[(int) e[0]];
            if (a == Action.SEGMENT_ALLOC || a == Action.SEGMENT_FREE || a == Action.SEGMENT_MAP
                    || a == Action.SEGMENT_UNMAP) {
                run.add(a.word() + " " + handle(e[1]) + " " + e[2]);
            } else if (!run.isEmpty()) {
                run.sort(null);
                runs.add(run);
                run = new ArrayList<>();
            }
        }
        if (!run.isEmpty()) {
            run.sort(null);
            runs.add(run);
        }
        return runs;
    }

    private static int count(List<List<String>> runs) { return runs.stream().mapToInt(List::size).sum(); }

    /** Null when both histories made the same segment actions; else the first that differs. */
    private static String firstDifference(List<List<String>> recorded, List<List<String>> replayed) {
        for (int i = 0; i < Math.max(recorded.size(), replayed.size()); i++) {
            List<String> r = i < recorded.size() ? recorded.get(i) : List.of();
            List<String> p = i < replayed.size() ? replayed.get(i) : List.of();
            if (!r.equals(p)) {
                return "burst " + (i + 1) + ": recorded " + (r.isEmpty() ? "nothing" : r.get(0)
                        + (r.size() > 1 ? " (+" + (r.size() - 1) + ")" : "")) + ", replayed "
                        + (p.isEmpty() ? "nothing"
                                : p.get(0) + (p.size() > 1 ? " (+" + (p.size() - 1) + ")" : ""));
            }
        }
        return null;
    }

    // ---- the card -----------------------------------------------------------------------

    /**
     * {peak reserved, reserved at the first oom (or -1), that oom's device_free, the entry where
     * the peak was first reached (0: the start)}, from the start state and the history.
     */
    private static long[] reservedTimeline(Snapshot.Device d, long startReserved) {
        long reserved = startReserved, peak = startReserved, atOom = -1, free = -1, where = 0;
        for (Snapshot.Entry e : d.trace()) {
            if (e.action() == null) continue;
            switch (e.action()) {
                case SEGMENT_ALLOC, SEGMENT_MAP -> reserved += e.size();
                case SEGMENT_FREE, SEGMENT_UNMAP -> reserved -= e.size();
                case OOM -> {
                    if (atOom < 0) { atOom = reserved; free = e.deviceFree(); }
                }
                default -> { }
            }
            if (reserved > peak) {
                peak = reserved;
                where = e.position();
            }
        }
        return new long[] {peak, atOom, free, where};
    }

    /** The card: its total memory, what PyTorch could reach of it, and where both came from. */
    private record Card(long total, long available, String why, boolean known) {}

    /**
     * As given; else the total is 80 GiB (or the recorded peak, if more), but no more than the
     * expandable segments' layout allows (each reserves 1 1/8 of the card's memory, CCA
     * find_expandable_block, so the next one starts beyond); and what PyTorch could reach is
     * what it held at the first OOM plus the {@code device_free} that OOM reported (the rest is
     * the context and other processes), in whole 2 MiB pages.
     */
    private static Card card(long given, long[] timeline, List<StartState.SegmentAt> bases) {
        if (given > 0) return new Card(given, given, Bytes.formatSize(given) + " (--device)", true);
        long total = Math.max(DEFAULT_CARD, Bytes.alignUp(timeline[0], Bytes.GiB));
        String why = "80 GiB assumed (no snapshot records the card)";
        if (total > DEFAULT_CARD) why = Bytes.formatSize(total) + ", the recorded peak rounded up";
        long layout = layoutBound(bases);
        if (layout < total && layout >= timeline[0]) {
            total = layout;
            why = Bytes.formatSize(total) + " at most (its expandable segments, 1 1/8 of the card"
                    + " each, lie that close together)";
        }
        if (timeline[1] < 0) {
            return new Card(total, total, why + "; no oom entry bounds what PyTorch could use", false);
        }
        long available = Math.max(Gpu.PAGE, (timeline[1] + timeline[2]) / Gpu.PAGE * Gpu.PAGE);
        total = Math.max(total, available);
        return new Card(total, available, Bytes.formatSize(available)
                + " for PyTorch, inferred from the oom entry ("
                + Bytes.formatSize(timeline[1]) + " reserved then + " + Bytes.formatSize(timeline[2])
                + " device_free); total " + why, true);
    }

    /** The largest card whose expandable reservations fit between the recorded bases. */
    private static long layoutBound(List<StartState.SegmentAt> bases) {
        long bound = Long.MAX_VALUE;
        for (int i = 0; i + 1 < bases.size(); i++) {
            long gap = bases.get(i + 1).base() - bases.get(i).base();
            long page = pageSize(bases.get(i).pool());
            long t = gap / page * page / 9 * 8 / Gpu.PAGE * Gpu.PAGE;
            while (t > 0 && reservation(t, page) > gap) t -= Gpu.PAGE;
            while (reservation(t + Gpu.PAGE, page) <= gap) t += Gpu.PAGE;
            bound = Math.min(bound, t);
        }
        return bound;
    }

    /** kSmallBuffer or kLargeBuffer: an expandable segment's page in that pool (CCA:2211). */
    private static long pageSize(vramlab.alloc.PoolKind pool) {
        return pool == vramlab.alloc.PoolKind.SMALL ? 2 * Bytes.MiB : 20 * Bytes.MiB;
    }

    /** What an expandable segment reserves on a card of {@code total} bytes: 1 1/8 of it, in pages. */
    private static long reservation(long total, long page) {
        long want = total + total / 8;
        return (want + page - 1) / page * page;
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
                for (Block b : made) live.put(handle(b.address()), b);
            } catch (IllegalStateException | IllegalArgumentException e) {
                failed++;
                if (first == null) first = e.getMessage();
            }
        }
        if (failed > 0) notes.add(failed + " segments of the rebuilt state could not be put back: " + first);
    }

    // ---- the steps ----------------------------------------------------------------------

    /** The history as replay steps (see the class comment). */
    static List<Step> steps(List<Snapshot.Entry> trace) {
        List<Step> out = new ArrayList<>();
        List<Snapshot.Entry> run = new ArrayList<>();
        Set<Long> freeing = new HashSet<>();           // free_requested replayed, free_completed to come
        for (Snapshot.Entry e : trace) {
            Action a = e.action();
            if (a == Action.SEGMENT_ALLOC || a == Action.SEGMENT_FREE || a == Action.SEGMENT_MAP
                    || a == Action.SEGMENT_UNMAP) {
                run.add(e);
                continue;
            }
            long hint = flush(run, a == Action.OOM, out);
            if (a == Action.ALLOC) {
                out.add(new Step(e.position(), TraceEvent.Op.ALLOC, handle(e.addr()), e.size(),
                        e.stream(), hint, false));
            } else if (a == Action.OOM) {
                out.add(new Step(e.position(), TraceEvent.Op.ALLOC, "oom@" + e.position(), e.size(),
                        e.stream(), CachingAllocator.NO_HINT, true));
            } else if (a == Action.FREE_REQUESTED
                    || (a == Action.FREE_COMPLETED && !freeing.remove(e.addr()))) {
                if (a == Action.FREE_REQUESTED) freeing.add(e.addr());
                out.add(new Step(e.position(), TraceEvent.Op.FREE, handle(e.addr()), 0, e.stream(), 0,
                        false));
            }
        }
        flush(run, false, out);
        return out;
    }

    /** Ends a run of segment entries; returns the address the next segment should take. */
    private static long flush(List<Snapshot.Entry> run, boolean beforeOom, List<Step> out) {
        if (run.isEmpty()) return CachingAllocator.NO_HINT;
        long hint = CachingAllocator.NO_HINT;
        Snapshot.Entry release = null;
        for (Snapshot.Entry e : run) {
            if (e.action() == Action.SEGMENT_FREE || e.action() == Action.SEGMENT_UNMAP) {
                if (release == null) release = e;
            } else if (e.action() == Action.SEGMENT_ALLOC || hint == CachingAllocator.NO_HINT) {
                hint = e.addr();                       // the last cudaMalloc, or the first map
            }
        }
        if (release != null && !beforeOom) {
            out.add(new Step(release.position(), TraceEvent.Op.EMPTY_CACHE, "", 0, 0, 0, false));
        }
        run.clear();
        return hint;
    }

    /** Applies steps to the allocator and tells the listener, as {@link Replayer} does. */
    private static final class Run {
        final CachingAllocator a;
        final Replayer.Listener listener;
        final Map<String, Block> live;
        final boolean hints;
        final Set<String> failed = new HashSet<>();
        final List<Integer> ooms = new ArrayList<>();
        final List<String> messages = new ArrayList<>();
        long steps, peak, allocatedAtPeak, shortfall = -1;
        int peakPosition;
        int skipped;

        Run(CachingAllocator a, Replayer.Listener listener, Map<String, Block> live, boolean hints) {
            this.a = a;
            this.listener = listener;
            this.live = live;
            this.hints = hints;
        }

        void apply(Step s, Map<Long, Integer> streams) {
            steps++;
            int stream = streams.computeIfAbsent(s.stream(), k -> streams.size());
            TraceEvent e = new TraceEvent(s.position(), s.op(), s.handle(), s.size(), stream);
            switch (s.op()) {
                case ALLOC -> alloc(s, e, stream);
                case FREE -> free(e);
                case EMPTY_CACHE -> listener.event(steps, e, Replayer.Result.OK, a.emptyCache(), a);
            }
            if (a.reserved() > peak) {
                peak = a.reserved();
                allocatedAtPeak = a.allocated();
                peakPosition = s.position();
            }
        }

        private void alloc(Step s, TraceEvent e, int stream) {
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

    // ---- the end state ------------------------------------------------------------------

    /** {address, size} of each recorded segment, by address. */
    private static List<long[]> recordedSegments(Snapshot.Device d) {
        List<long[]> out = new ArrayList<>();
        for (Snapshot.Segment s : d.segments()) out.add(new long[] {s.address(), s.totalSize()});
        return out;
    }

    /** {address, size} of each segment as a snapshot reports them: one per mapped range. */
    static List<long[]> replayedSegments(CachingAllocator a) {
        List<long[]> out = new ArrayList<>();
        for (Segment s : a.segments()) {
            if (!s.isExpandable()) {
                out.add(new long[] {s.address(), s.size()});
                continue;
            }
            long start = -1, bytes = 0;
            for (Block b = s.first(); b != null; b = b.next()) {
                if (b.isMapped()) {
                    if (start < 0) start = b.address();
                    bytes += b.size();
                } else if (start >= 0) {
                    out.add(new long[] {start, bytes});
                    start = -1;
                    bytes = 0;
                }
            }
            if (start >= 0) out.add(new long[] {start, bytes});
        }
        out.sort((x, y) -> Long.compare(x[0], y[0]));
        return out;
    }

    private static int liveBlocks(Snapshot.Device d) {
        int n = 0;
        for (Snapshot.Segment s : d.segments()) for (Snapshot.Block b : s.blocks()) if (b.isActive()) n++;
        return n;
    }

    /** Recorded live blocks that the replay also ends with, at the same address and size. */
    private static int matchedLive(Snapshot.Device d, CachingAllocator a) {
        Set<String> replayed = new HashSet<>();
        for (Segment s : a.segments()) {
            for (Block b = s.first(); b != null; b = b.next()) {
                if (b.isActive()) replayed.add(b.address() + ":" + b.size());
            }
        }
        int n = 0;
        for (Snapshot.Segment s : d.segments()) {
            for (Snapshot.Block b : s.blocks()) {
                if (b.isActive() && replayed.contains(b.address() + ":" + b.size())) n++;
            }
        }
        return n;
    }

    static String handle(long address) { return "0x" + Long.toHexString(address); }
}
