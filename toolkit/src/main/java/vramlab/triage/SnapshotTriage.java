package vramlab.triage;

import static vramlab.units.Bytes.formatSize;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import vramlab.replay.SnapshotReplay;
import vramlab.replay.WhatIf;
import vramlab.replay.WhoHolds;
import vramlab.snapshot.Snapshot;
import vramlab.snapshot.SnapshotFile;
import vramlab.trace.TraceException;

/**
 * {@code vramlab triage snapshot.pickle}: the same diagnosis as for a pasted message, from the
 * exact bytes a memory snapshot recorded at its first {@code oom} entry ({@link OomMoment}). A
 * snapshot does not record the card's size or other processes; with the capacity given, the
 * ladder also weighs what is neither free nor PyTorch's.
 */
public final class SnapshotTriage {
    private SnapshotTriage() {}

    /**
     * @param snapshot the snapshot dict ({@code device_traces}, {@code segments})
     * @param capacity the card's total bytes, or -1 when unknown
     * @throws TraceException when no device's trace holds an {@code oom} entry
     */
    public static Diagnosis of(Map<?, ?> snapshot, String file, long capacity) {
        List<OomMoment> ooms = OomMoment.all(snapshot, file);
        if (ooms.isEmpty()) {
            throw new TraceException(file, 0, "no 'oom' entry in any device's trace: the recorded "
                    + "run did not run out of memory while its history was recorded (./vramlab advise "
                    + "replays it under other settings)");
        }
        OomMoment m = ooms.get(0);
        List<String> preface = new ArrayList<>();
        if (ooms.size() > 1) {
            preface.add("The snapshot records " + ooms.size() + " OOMs; this reads the first.");
        }
        Diagnosis d = Ladder.climb(reading(m, capacity), preface);
        // The snapshot is at hand: the way to tell fragmentation apart is to replay it, not to
        // record one (the message's recipe told a user who had just passed the file to make it).
        return d.withTellApart(d.tellApart().replace(Cause.FRAGMENTATION.check(), adviseThis(file)));
    }

    /**
     * Fragmentation's check when the snapshot is at hand: advise replays it under the settings.
     * One read from standard input has no name to run advise on ({@code advise <stdin>} is no
     * command): the check says to feed advise the same bytes.
     */
    static String adviseThis(String file) {
        String advise = file.equals(vramlab.trace.TraceReader.STANDARD_INPUT)
                ? "./vramlab advise - with the same snapshot on its standard input" : "./vramlab advise " + file;
        return "Run " + advise + ": it replays this recorded run under "
                + "expandable_segments:True and the other allocator settings on the card it had; a "
                + "setting under which it fits says the holes were the cause (if none does, they may "
                + "lie inside pages, which only steady shapes close, or the card is simply full).";
    }

    /** What to run so that the next failure leaves a snapshot with its {@code oom} entry. */
    public static final String RECIPE = """
            Record the next failure where it happens (torch/csrc/cuda/Module.cpp binds
            torch._C._cuda_attach_out_of_memory_observer; PyTorch's "Understanding GPU Memory"
            shows the observer; it runs before the OutOfMemoryError is raised):
              import torch
              torch.cuda.memory._record_memory_history(max_entries=100000)
              def oom_observer(device, alloc, device_alloc, device_free):
                  torch.cuda.memory._dump_snapshot("oom.pickle")
              torch._C._cuda_attach_out_of_memory_observer(oom_observer)
              try:
                  ...  # your training step
              except torch.OutOfMemoryError:
                  torch.cuda.memory._dump_snapshot("oom_after.pickle")
                  raise
            """;

    /**
     * A snapshot whose run did not fail while recorded: its peak, who held it, and, on a card of
     * {@code capacity} bytes, what would fail first and who held the memory then.
     *
     * @param text the report
     * @param map  the same as plain values, for {@code --json}
     */
    public record Peak(String text, Map<String, Object> map) {}

    /**
     * The report of a snapshot without an {@code oom} entry: its peak, or, where no device has
     * segments or a history (dumped before the run allocated, or with its history off), that there
     * is nothing to read and how to record what would be. A result, not bad input, as {@code replay}
     * and {@code advise} treat the same file.
     */
    public static Peak peak(Snapshot s, String file, long capacity) {
        Snapshot.Device d = SnapshotFile.pickDevice(s);
        String recipe = RECIPE + (s.writtenBy2_0() ? RECIPE_2_0 + "\n" : "");
        if (d == null) {
            Map<String, Object> o = new LinkedHashMap<>();
            o.put("oom", false);
            o.put("device", null);
            o.put("collectNext", recipe);
            return new Peak("Format: a PyTorch memory snapshot in which no device has segments or a history\n\n"
                    + "Nothing to triage: no 'oom' entry, and no memory reserved or recorded (dumped before the"
                    + " run allocated, or without its history recorded).\n\n" + recipe, o);
        }
        SnapshotReplay.Options recorded = new SnapshotReplay.Options(null, -1);
        SnapshotReplay.Report r = SnapshotReplay.run(s, d, recorded, (step, e, res, b, a) -> { }, false);
        WhoHolds atPeak = WhoHolds.atPeak(s, d, recorded, r);
        StringBuilder sb = new StringBuilder();
        Map<String, Object> o = new LinkedHashMap<>();
        sb.append("Format: a PyTorch memory snapshot, device ").append(d.index()).append(", ")
          .append(d.trace().size()).append(" trace entries\n\n");
        sb.append("No OOM: the recorded run did not run out of memory while its history was recorded")
          .append(" (no 'oom' entry). Its peak instead:\n");
        sb.append("  peak reserved ").append(formatSize(r.recordedPeak())).append(" (the snapshot's own")
          .append(" segment actions), reached at trace entry ").append(atPeak.position()).append('\n');
        sb.append('\n').append(atPeak.text(10, false));
        o.put("oom", false);
        o.put("device", (long) d.index());
        o.put("recordedPeak", r.recordedPeak());
        o.put("peak", atPeak.map());
        if (capacity > 0) {
            SnapshotReplay.Options card = new SnapshotReplay.Options(null, capacity);
            WhatIf w = WhatIf.run(s, d, card, (step, e, res, b, a) -> { }, false);
            sb.append("\nOn a card of ").append(formatSize(capacity)).append(" (--device), with the recorded")
              .append(" settings: ").append(w.verdict()).append('\n');
            o.put("onCard", w.map());
            WhoHolds first = WhoHolds.atFirstOom(s, d, card, w.main());
            if (first != null) {
                sb.append('\n').append(first.text(10, false));
                o.put("atFirstOom", first.map());
            }
        } else {
            sb.append("\nPass --device SIZE to see what would fail first on a smaller card, at which entry,")
              .append(" and who held the memory then.\n");
        }
        sb.append('\n').append(recipe);
        o.put("collectNext", recipe);
        return new Peak(sb.toString(), o);
    }

    /**
     * Under {@link #RECIPE} for a snapshot in PyTorch 2.0's layout, whose release has 2.0's calls,
     * not the 2.1 ones the recipe names ({@link vramlab.snapshot.RecordingCalls}, shared with
     * advise and {@link Release}).
     */
    static final String RECIPE_2_0 = "This snapshot is in PyTorch 2.0's layout, and those calls are 2.1's: on 2.0,"
            + " record with " + vramlab.snapshot.RecordingCalls.record2_0("100000") + " and, in the observer"
            + " and the except (around the error your release raises), save with "
            + vramlab.snapshot.RecordingCalls.SAVE_2_0 + " into a file opened with open(\"oom.pickle\", \"wb\").";

    /** Who held the memory at a recorded OOM, from the snapshot model of the same file. */
    public static WhoHolds atOom(Snapshot s, OomMoment m) {
        Snapshot.Device d = s.device(m.device());
        if (d == null) return null;
        return WhoHolds.at(s, d, new SnapshotReplay.Options(null, -1), m.entry(), true,
                "the recorded OOM (trace entry " + m.entry() + ")");
    }

    /**
     * What the report says when {@code --device} is no more than PyTorch's reserved bytes plus
     * the free bytes at the OOM: a card's total also holds the CUDA context (the free figure is
     * cudaMemGetInfo's, taken after PyTorch reserved its segments), so such a value is not a
     * total; it is what replay and advise take for {@code --device}, PyTorch's share, as they
     * infer it from this same entry. The ladder still reads the value as given.
     */
    static String shareNotTotal(long capacity, OomMoment m) {
        long share = m.reserved() + m.deviceFree();
        return "--device " + formatSize(capacity) + " is no more than what PyTorch reserved and what was free at"
                + " the OOM (" + formatSize(m.reserved()) + " + " + formatSize(m.deviceFree()) + " = "
                + formatSize(share) + "), which leaves nothing for the CUDA context: it looks like PyTorch's share"
                + " of the card, what replay's and advise's --device take. triage's --device is the card's total"
                + " as CUDA reports it (torch.cuda.mem_get_info()[1], the 'total capacity' of PyTorch's OOM"
                + " message); the figures above read the value as given.";
    }

    /**
     * {@code entries} as a snapshot's triage prints them: the full card's first rung spoke of "the
     * capacity in the message", and a snapshot has no message; it is said with the snapshot's
     * own figures (what PyTorch held and the oom entry's {@code device_free}, cudaMemGetInfo's free
     * bytes) and the total it lacks. Every other entry is as written.
     */
    static List<Fix> fixes(List<Fix> entries, Reading r) {
        Fix message = Cause.FULL_OR_DRIVER_RESERVE.fixEntries().get(0);
        List<Fix> out = new ArrayList<>();
        for (Fix f : entries) out.add(f.equals(message) ? new Fix(budget(r), f.sets()) : f);
        return List.copyOf(out);
    }

    /** The full card's first rung, from a snapshot's figures. */
    static String budget(Reading r) {
        long reserved = r.get(Figure.RESERVED), free = r.get(Figure.FREE);
        String total = r.has(Figure.CAPACITY)
                ? "the card's total (" + formatSize(r.get(Figure.CAPACITY)) + " as --device gives it) is"
                : "the card's total, which the snapshot does not record (torch.cuda.mem_get_info()[1] on the"
                        + " card says it), is";
        return "Budget from what PyTorch could reach: at the OOM it held " + formatSize(reserved)
                + " and the oom entry's device_free (cudaMemGetInfo's free bytes) was " + formatSize(free)
                + ", so " + formatSize(reserved + free) + " was all this run could have had there; " + total
                + " already short of the card's nominal size by the driver's reserve, and the context takes"
                + " hundreds of MiB of it before the first tensor.";
    }

    static Reading reading(OomMoment m, long capacity) {
        Map<Figure, Long> f = new EnumMap<>(Figure.class);
        f.put(Figure.REQUESTED, m.requested());
        f.put(Figure.DEVICE, (long) m.device());
        if (capacity > 0) f.put(Figure.CAPACITY, capacity);
        f.put(Figure.FREE, m.deviceFree());
        f.put(Figure.ALLOCATED_BY_PYTORCH, m.allocated() + m.privatePoolFree());
        f.put(Figure.RESERVED_BUT_UNALLOCATED, m.unallocated());
        f.put(Figure.PRIVATE_POOLS, m.privatePoolFree());
        f.put(Figure.RESERVED, m.reserved());
        Set<Clue> clues = EnumSet.noneOf(Clue.class);
        String stack = String.join("\n", m.frames());
        for (Clue c : Clue.values()) if (c.foundIn(stack)) clues.add(c);
        List<String> notes = new ArrayList<>();
        notes.add("Read from trace entry " + m.entry() + " of device " + m.device()
                + " (its 'oom' entry), with the segments as they were then: exact bytes, no text "
                + "to parse.");
        notes.add("At that moment: " + m.segments() + " segments (" + m.expandable()
                + " expandable); the largest free block was " + formatSize(m.largestFree())
                + ", the request needed " + formatSize(m.requested()) + ".");
        if (capacity <= 0) {
            notes.add("A snapshot records neither the card's size nor other processes; pass "
                    + "--device SIZE to weigh what is neither free nor PyTorch's.");
        } else if (capacity <= m.reserved() + m.deviceFree()) {
            notes.add(shareNotTotal(capacity, m));
        }
        return new Reading(Family.SNAPSHOT, "CUDA", "", f, new LinkedHashMap<>(), clues, List.of(),
                notes);
    }
}
