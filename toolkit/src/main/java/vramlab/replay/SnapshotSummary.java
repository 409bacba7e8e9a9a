package vramlab.replay;

import static vramlab.units.Columns.left;
import static vramlab.units.Columns.right;

import java.io.PrintStream;
import java.util.List;
import java.util.stream.Collectors;

import vramlab.alloc.MemorySummary;
import vramlab.units.Bytes;

/** The human summary of one device's snapshot replay: how it ran, and recorded beside replayed. */
public final class SnapshotSummary {
    /** Above this many segments the segment map is left out (it would be one line per segment). */
    static final int MAP_LIMIT = 40;

    private SnapshotSummary() {}

    public static void print(SnapshotReplay.Report r, PrintStream out) {
        print(new WhatIf(r, null), out);
    }

    /** The summary of a replay and, near the edge, of the other placement rule beside it. */
    public static void print(WhatIf w, PrintStream out) {
        SnapshotReplay.Report r = w.main();
        out.println("device " + r.device());
        out.println("  policy:  " + r.policy());
        out.println("  placement: " + w.placement());
        out.println("  card:    " + r.card());
        for (String note : r.start()) out.println("  start:   " + note);
        out.println("  history: " + r.steps() + " steps replayed; OOMs recorded at "
                + entries(r.recordedOoms()) + ", replayed at " + entries(r.replayedOoms())
                + (r.skippedFrees() > 0
                        ? "; " + r.skippedFrees() + " frees of blocks the rebuilt state lacks" : ""));
        for (int i = 0; i < r.replayedOoms().size(); i++) {
            out.println("  OOM at entry " + r.replayedOoms().get(i) + ": " + r.oomMessages().get(i));
        }
        String total = totalCapacityNote(r);
        if (total != null) out.println("  " + total);
        out.println("  " + left("", 14) + " " + right("recorded", 20) + " " + right("replayed", 20));
        row(out, "segments", r.recordedSegments().size(), r.replayedSegments().size());
        row(out, "reserved", r.recordedReserved(), r.replayedReserved());
        sizes(out, r.recordedReserved(), r.replayedReserved());
        row(out, "peak reserved", r.recordedPeak(), r.replayedPeak());
        sizes(out, r.recordedPeak(), r.replayedPeak());
        if (r.recordingPolicy()) {
            out.println("  " + left("live blocks", 14) + " " + right(r.liveBlocks(), 20) + " "
                    + right(r.liveBlocksMatched(), 20) + " (at the recorded address and size)");
        } else {                     // other settings put blocks at other addresses: none would match
            out.println("  " + left("live blocks", 14) + " " + right(r.liveBlocks(), 20) + " "
                    + right(liveBlocks(r.allocator()), 20) + " (the replay's own, at its own addresses)");
        }
        if (r.recordingPolicy()) {
            out.println("  segment actions: " + (r.segmentActionDifference() == null
                    ? "the replay made the recorded " + r.segmentActions()
                    + " (segment_alloc/free/map/unmap), at the same addresses"
                    : "they differ from the recorded " + r.segmentActions() + " at "
                    + r.segmentActionDifference()));
        }
        out.println("  " + verdict(w));
        String fraction = WhatIf.fractionNote(r);
        if (fraction != null) out.println("  " + fraction);
        out.print(indent(MemorySummary.format(r.allocator().memoryStats(), r.device())));
        int blocks = r.allocator().segments().stream().mapToInt(seg -> seg.blocks().size()).sum();
        if (r.allocator().segments().size() <= MAP_LIMIT && blocks <= 4 * MAP_LIMIT) {
            out.print(indent(vramlab.alloc.SegmentMap.text(r.allocator())));
        } else {
            out.println("  (" + r.allocator().segments().size() + " segments, " + blocks
                    + " blocks: the map is left out; --export writes them for pytorch.org/memory_viz)");
        }
    }

    /**
     * What the replayed OOM messages' "total capacity" is, in one line under them, or null when
     * the replay made none. PyTorch prints {@code format_size(device_total)} from
     * {@code cudaMemGetInfo(&device_free, &device_total)} in {@code DeviceCachingAllocator::malloc}
     * (c10/cuda/CUDACachingAllocator.cpp @001074d, and the same where 2.10's
     * {@code allowed_memory_maximum} became optional): the card's total as CUDA reports it, the
     * context and other processes included, whether or not a memory fraction is set (a fraction
     * adds only its "X allowed; " clause). No snapshot records that total
     * ({@link SnapshotCard#totalNotRecorded}), so the replay's CUDA total is PyTorch's share
     * ({@code --device}, or reserved plus {@code device_free} at an {@code oom} entry), which is
     * also what a fraction is taken of ({@link WhatIf#fractionNote}); the line says so, rather
     * than let the share pass for the card's total beside a message the user may hold.
     */
    static String totalCapacityNote(SnapshotReplay.Report r) {
        if (r.replayedOoms().isEmpty()) return null;
        return "(in these messages the total capacity is PyTorch's share, " + Bytes.formatSize(r.cardAvailable())
                + ", which the replay takes for CUDA's total, and this process's memory leaves out its CUDA"
                + " context: PyTorch's message names the card's total as CUDA reports it, context and other"
                + " processes included, with or without a memory fraction; no snapshot records it)";
    }

    /** One line: agreement under the recording policy, or "would it have fitted" under another. */
    public static String verdict(SnapshotReplay.Report r) { return verdict(new WhatIf(r, null)); }

    /** {@link #verdict(SnapshotReplay.Report)}, with the other placement's range when it ran. */
    public static String verdict(WhatIf w) {
        SnapshotReplay.Report r = w.main();
        if (!r.recordingPolicy()) {
            String fit = w.verdict();
            return fit + "; peak reserved " + Bytes.formatSize(r.replayedPeak()) + " (recorded "
                    + Bytes.formatSize(r.recordedPeak()) + ")"
                    + (r.recordedOoms().isEmpty() ? ""
                            : "; the recorded run's OOM was at " + entries(r.recordedOoms()));
        }
        String segs = r.addressesAgree()
                ? "the final segments equal the snapshot's own (count, sizes, reserved bytes"
                + " and addresses)"
                : r.segmentsAgree()
                ? "the final segments equal the snapshot's own in count, sizes and reserved"
                + " bytes (not all at the recorded addresses)"
                : "DISAGREES with the snapshot's own segments";
        String ooms = r.recordedOoms().isEmpty() ? (r.replayedOoms().isEmpty() ? "" : "; but the replay OOMs")
                : r.oomsAgree() ? "; the recorded OOM recurs at " + entries(r.recordedOoms())
                : "; the recorded OOM does NOT recur at " + entries(r.recordedOoms());
        return "agreement: " + segs + ooms + (r.cardKnown() ? "; on this card: " + w.verdict() : "");
    }

    /** The blocks allocated at the end of a replay. */
    static int liveBlocks(vramlab.alloc.CachingAllocator a) {
        int n = 0;
        for (vramlab.alloc.Segment seg : a.segments()) {
            for (vramlab.alloc.Block b : seg.blocks()) if (b.isAllocated()) n++;
        }
        return n;
    }

    private static void row(PrintStream out, String label, long recorded, long replayed) {
        out.println("  " + left(label, 14) + " " + right(recorded, 20) + " " + right(replayed, 20));
    }

    /**
     * Under a row in bytes, the same two as PyTorch writes a size ({@code 3.52 GiB}), as the text
     * replay's summary does; the byte rows stay as they were for scripts.
     */
    private static void sizes(PrintStream out, long recorded, long replayed) {
        out.println("  " + left("", 14) + " " + right(Bytes.formatSize(recorded), 20) + " "
                + right(Bytes.formatSize(replayed), 20));
    }

    private static String entries(List<Integer> positions) {
        if (positions.isEmpty()) return "none";
        return (positions.size() == 1 ? "entry " : "entries ")
                + positions.stream().map(String::valueOf).collect(Collectors.joining(", "));
    }

    /**
     * Each line of {@code text} (lines end in {@code \n}) two spaces in, and a final newline.
     * A loop, not {@code String.lines()}: TeaVM's class library (0.16.0), which the playgrounds
     * compile this with, has no {@code lines()}.
     */
    private static String indent(String text) {
        StringBuilder sb = new StringBuilder();
        for (int start = 0; start < text.length(); ) {
            int end = text.indexOf('\n', start);
            if (end < 0) end = text.length();
            sb.append("  ").append(text, start, end).append('\n');
            start = end + 1;
        }
        return sb.length() == 0 ? "\n" : sb.toString();
    }
}
