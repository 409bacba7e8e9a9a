package vramlab.replay;

import java.util.List;

import vramlab.driver.Gpu;
import vramlab.snapshot.Snapshot;
import vramlab.snapshot.SnapshotReader;
import vramlab.trace.TraceException;
import vramlab.units.Bytes;

/**
 * The card a snapshot was recorded on, which no snapshot records: its total memory and what
 * PyTorch could reach of it, inferred from the history's reserved bytes, its first {@code oom}
 * entry's {@code device_free} and the spacing of its expandable segments, each with the reason
 * it was chosen; or as {@code --device} gives it. {@link SnapshotReplay} replays on it.
 */
public final class SnapshotCard {
    /** The default card when the snapshot records none: an 80 GiB device (A100 / H100 80GB). */
    public static final long DEFAULT_CARD = 80 * Bytes.GiB;
    /**
     * Refuses a card above {@link SnapshotReader#MAX_CARD}, saying where its size came from: the
     * reader refuses a single segment or {@code device_free} above it at its field; what is left
     * here is a card their sum implies.
     */
    public static void checkCard(long total, String why, String file) {
        if (total > SnapshotReader.MAX_CARD) {
            throw new TraceException(file, 0, "a card of " + Bytes.readable(total) + " (" + why
                    + ") is more than the kit simulates, " + Bytes.readable(SnapshotReader.MAX_CARD) + "; give --device SIZE");
        }
    }

    private SnapshotCard() {}

    /**
     * What the recorded run reserved: its peak and the entry where the peak was first reached
     * (0: the start), what it held at the first oom (-1 if none) and that oom's device_free.
     */
    record Reserved(long peak, int peakPosition, long atFirstOom, long deviceFreeAtFirstOom) {}

    /** The recorded run's {@link Reserved}, from the start state and the history. */
    static Reserved reservedTimeline(Snapshot.Device d, long startReserved) {
        long reserved = startReserved, peak = startReserved, atOom = -1, free = -1;
        int where = 0;
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
        return new Reserved(peak, where, atOom, free);
    }

    /** The card: its total memory, what PyTorch could reach of it, and where both came from. */
    record Card(long total, long available, String why, boolean known) {}

    /**
     * As given; else the total is 80 GiB (or the recorded peak, if more), but no more than the
     * expandable segments' layout allows (each reserves 1 1/8 of the card's memory, CCA
     * find_expandable_block, so the next one starts beyond); and what PyTorch could reach is
     * what it held at the first OOM plus the {@code device_free} that OOM reported (the rest is
     * the context and other processes), in whole 2 MiB pages.
     */
    static Card infer(long given, Reserved timeline, List<StartState.SegmentAt> bases) {
        if (given > 0) return new Card(given, given, Bytes.formatSize(given) + " (--device)", true);
        long total = Math.max(DEFAULT_CARD, Bytes.alignUp(timeline.peak(), Bytes.GiB));
        String why = "80 GiB assumed (no snapshot records the card)";
        if (total > DEFAULT_CARD) why = Bytes.formatSize(total) + ", the recorded peak rounded up";
        long layout = layoutBound(bases);
        boolean byLayout = false;
        if (layout < total && layout >= timeline.peak()) {
            total = layout;
            byLayout = true;
            why = Bytes.formatSize(total) + " at most (its expandable segments, 1 1/8 of the card"
                    + " each, lie that close together)";
        }
        if (timeline.atFirstOom() < 0) {
            return new Card(total, total, why + "; no oom entry bounds what PyTorch could use", false);
        }
        long available = Math.max(Gpu.PAGE,
                (timeline.atFirstOom() + timeline.deviceFreeAtFirstOom()) / Gpu.PAGE * Gpu.PAGE);
        String share = Bytes.formatSize(available)
                + " for PyTorch, inferred from the oom entry ("
                + Bytes.formatSize(timeline.atFirstOom()) + " reserved then + "
                + Bytes.formatSize(timeline.deviceFreeAtFirstOom())
                + " device_free, rounded down to whole 2 MiB pages, the driver's unit); ";
        if (byLayout && available <= total) return new Card(total, available, share + "total " + why, true);
        total = Math.max(total, available);
        return new Card(total, available, share + totalNotRecorded(total, available), true);
    }

    /**
     * What the card line says of the total beside an oom entry's share: no snapshot holds it.
     * The {@code oom} entry keeps one figure of the driver's, the free bytes: PyTorch's
     * DeviceCachingAllocator::malloc records {@code TraceEntry::OOM} with the {@code device_free}
     * of its {@code cudaMemGetInfo(&device_free, &device_total)} call, and the snapshot writes that
     * as {@code device_free} (torch/csrc/cuda/Module.cpp, THCPModule_memorySnapshot:
     * {@code trace_entry[TraceEntry::OOM == te.action_ ? device_free_s : addr_s] = te.addr_}), so
     * {@code device_total} is dropped; the 20 real snapshots' two oom entries carry
     * {@code device_free}, {@code size}, {@code stream}, {@code time_us} (and
     * {@code compile_context}), nothing more. The replay lends the rest of {@code total} to the
     * context and other processes ({@code Gpu}'s reserve): PyTorch can never have more than its
     * share, so the stand-in decides no verdict.
     */
    static String totalNotRecorded(long total, long available) {
        String says = "the card's total is not in the snapshot (its oom entry keeps cudaMemGetInfo's free"
                + " bytes, not the total): ";
        if (total <= available) return says + "the replay takes the card to be PyTorch's share alone";
        return says + "the replay gives the CUDA context and other processes the rest of " + Bytes.readable(total)
                + ", a stand-in; only PyTorch's share decides a verdict";
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
}
