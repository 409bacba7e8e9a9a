package vramlab.advise;

import static vramlab.units.Bytes.formatSize;

import java.util.ArrayList;
import java.util.List;

import vramlab.snapshot.RecordingCalls;

/**
 * The rows of a snapshot's advice whose peak is the state its recorded history starts from: under
 * that setting the history never reserves beyond the segments it starts with (rebuilt from the
 * snapshot and put back as recorded under every row, {@link Advice#midRunStart()}), so the row's
 * peak and holes are that recorded state's, not a peak the setting made. Every row starts from the
 * same state, so no row can show less: such rows tie at that floor, and what they show is only that
 * the history fits in it, not how the setting would have laid out the memory before the history.
 *
 * <p>When every row is such, the advice recommends nothing ({@link Advice#recommendation()}); when
 * some are, the table and the ranking mark them ({@link #MARK}), a line under the table says what
 * the mark means ({@link #footnote}), and the recommendation says what the comparison can and
 * cannot show ({@link #keepCaveat}, {@link #chosenCaveat}).
 */
final class StartPeak {
    /** Beside a marked row's peak reserved. */
    static final String MARK = vramlab.replay.RunPage.START_MARK;

    private StartPeak() {}

    /**
     * How to record a snapshot whose history starts with the run, the one clause every
     * recommendation that asks for one ends with. From PyTorch's source:
     * <ul>
     *   <li>torch/cuda/memory.py ({@code _record_memory_history}'s "Buffer behavior", from PR #155889,
     *       in 2.8's release-notes triage; read at pytorch/pytorch@00b65a04): it
     *       "will store up to {@code max_entries} instances of {@code TraceEntry}", and a run that
     *       writes more keeps "only ... the last accumulated {@code max_entries} entries, meaning new
     *       entries overwrite older entries"; {@code max_entries} defaults to {@code sys.maxsize}
     *       there ({@code _record_memory_history_impl}), while the legacy boolean call
     *       ({@code _record_memory_history_legacy}) defaults its {@code trace_alloc_max_entries} to 1;</li>
     *   <li>c10/cuda/CUDACachingAllocator.cpp (pytorch/pytorch@001074d, the allocator the kit
     *       follows): {@code TraceEntryRingBuffer::insertTraceEntries} appends until the buffer holds
     *       {@code max_entries}, then overwrites the oldest, and {@code setMaxEntries} keeps at least
     *       one; {@code free} records {@code FREE_REQUESTED} and {@code free_block}
     *       {@code FREE_COMPLETED}, so a free is two entries, an allocation one, and
     *       {@code alloc_block} records {@code SEGMENT_ALLOC}, {@code release_block}
     *       {@code SEGMENT_FREE} (under expandable segments {@code SEGMENT_MAP} and
     *       {@code SEGMENT_UNMAP}), one more per segment reserved or released
     *       ({@code vramlab.alloc.DeviceTrace} keeps the same ring buffer).</li>
     * </ul>
     * So N must exceed every entry the run writes, or the history starts mid-run again. The calls
     * are the release's that wrote the snapshot ({@link vramlab.snapshot.RecordingCalls}, shared with
     * triage): 2.1's {@code max_entries}, or, for a snapshot in 2.0's layout
     * ({@link vramlab.snapshot.Snapshot#writtenBy2_0()}), 2.0's {@code trace_alloc_max_entries}
     * (the buffer's bound under its older name) and its way to save.
     */
    static String recordFromStart(boolean writtenBy2_0) {
        String record = writtenBy2_0
                ? "its layout is PyTorch 2.0's, which records with " + RecordingCalls.record2_0("N")
                : RecordingCalls.record("N");
        return "record a snapshot from the start of the run (" + record + " before its first CUDA allocation, N"
                + " above the trace entries the run writes, one per allocation, two per free and one per segment"
                + " reserved or released, so that its ring buffer, which keeps the last N, drops none"
                + (writtenBy2_0 ? "; then save it with " + RecordingCalls.SAVE_2_0 : "") + ") and advise that";
    }

    /** Whether {@code o}'s replay never reserved beyond the state the recorded history starts from. */
    static boolean at(Outcome o) { return o.whatIf() != null && o.whatIf().main().peakAtStart(); }

    /** Whether some rows, not all, peak at the start: then the marks and caveats apply. */
    static boolean some(List<Outcome> rows) {
        return rows.stream().anyMatch(StartPeak::at) && !rows.stream().allMatch(StartPeak::at);
    }

    /** The start's reserved bytes: every marked row's peak. */
    private static long start(List<Outcome> rows) {
        return rows.stream().filter(StartPeak::at).findFirst().orElseThrow().peakReserved();
    }

    /** The line under the table when {@link #some}, else null. */
    static String footnote(List<Outcome> rows) {
        if (!some(rows)) return null;
        return MARK + " peak at the start: under this setting the history never reserves beyond the state it starts"
                + " from (the snapshot's segments, " + formatSize(start(rows)) + " reserved, kept as recorded under"
                + " every row), so this peak is that state's, not one the setting made, and the holes are those the"
                + " history leaves in it. No row can show less: the marked rows tie there, and show that the history"
                + " fits in that state under them, not what each would have saved before the history began";
    }

    /**
     * The recommendation when the baseline itself peaks at the start and others do not: nothing can
     * show less than it, so the snapshot can show settings doing worse, never one doing better.
     */
    static String keepCaveat(List<Outcome> rows, String base, boolean writtenBy2_0) {
        List<String> more = new ArrayList<>();
        for (Outcome o : rows) if (!at(o)) more.add(o.setting().name());
        return "keep " + base + ", though this snapshot cannot show a better setting: under them the history never"
                + " reserves beyond the state it starts from (the snapshot's segments, " + formatSize(start(rows))
                + " reserved), the least any row can show, since every row starts from that state as recorded. It"
                + " shows only settings that would reserve more (" + String.join(", ", more) + "), not whether any"
                + " would save memory. To compare them, " + recordFromStart(writtenBy2_0) + ".\n";
    }

    /**
     * After the sentence that recommends {@code chosen}, a row that peaks at the start while the
     * baseline does not: what its saving is, and the rows that tie with it; empty otherwise.
     */
    static String chosenCaveat(List<Outcome> rows, Outcome chosen, String base) {
        if (!some(rows) || !at(chosen) || at(rows.get(0))) return "";
        List<String> ties = new ArrayList<>();
        for (Outcome o : rows) if (at(o) && o != chosen) ties.add(o.setting().name());
        return ". Under it" + (ties.isEmpty() ? "" : " (as under " + String.join(", ", ties) + ", which tie with it)")
                + " the history never reserves beyond the state it starts from (the snapshot's segments, "
                + formatSize(start(rows)) + " reserved, kept as recorded under every row): the difference is what "
                + base + " add during the history; what it would have made of the memory before the history began"
                + " is not in this snapshot";
    }
}
