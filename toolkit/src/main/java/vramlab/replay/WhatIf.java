package vramlab.replay;

import static vramlab.units.Bytes.formatSize;

import vramlab.snapshot.Snapshot;

/**
 * One snapshot replayed under one setting on one card, and the verdict a practitioner acts on:
 * {@code replay} prints it and every row of {@code advise} is one. Under the recording's own
 * settings new segments take the recorded addresses; under any other the simulated driver
 * places them. When the answer is near the edge (an OOM, or a peak within {@link #NEAR_PERCENT}
 * percent of what the card offers), the other placement rule runs too, and the verdict gives
 * the range: "fits with X to spare", "fails by Y at entry N", or "too close to call".
 *
 * @param main  the replay under the placement the options chose (or the default one)
 * @param other the replay under the other placement rule, or null when not near the edge
 */
public record WhatIf(SnapshotReplay.Report main, SnapshotReplay.Report other) {
    /** A peak within this share of the card is near the edge (kit's rule). */
    public static final int NEAR_PERCENT = 3;

    /** Replays {@code d} of {@code s} under {@code o}, and again under the other placement when near the edge. */
    public static WhatIf run(Snapshot s, Snapshot.Device d, SnapshotReplay.Options o, Replayer.Listener listener,
                             boolean record) {
        SnapshotReplay.Report main = SnapshotReplay.run(s, d, o, listener, record);
        SnapshotReplay.Report other = null;
        if (main.cardKnown() && near(main)) {
            other = SnapshotReplay.run(s, d, new SnapshotReplay.Options(o.policy(), o.card(),
                    main.placement().other(), o.release()), (step, e, result, bytes, a) -> { }, false);
        }
        return new WhatIf(main, other);
    }

    /** An OOM, or a peak within {@link #NEAR_PERCENT}% of what the card offers PyTorch. */
    static boolean near(SnapshotReplay.Report r) {
        return !r.replayedOoms().isEmpty()
                || r.replayedPeak() * 100 >= room(r) * (100L - NEAR_PERCENT);
    }

    /**
     * What PyTorch may reserve: the card, or less under a memory fraction. PyTorch refuses a
     * segment that would take reserved past {@code allowed_memory_maximum = fraction *
     * device_total} (c10/cuda/CUDACachingAllocator.cpp, setMemoryFraction and alloc_block), so
     * a run under {@code per_process_memory_fraction:0.99} (2.10's key; 2.9 sets the same limit only
     * from code) has 1% less room than the card.
     */
    static long room(SnapshotReplay.Report r) {
        long allowed = r.allocator().allowedMemory();
        return allowed >= 0 ? Math.min(r.cardAvailable(), allowed) : r.cardAvailable();
    }

    /** The highest peak reserved of the placements run. */
    public long peak() {
        return other == null ? main.replayedPeak() : Math.max(main.replayedPeak(), other.replayedPeak());
    }

    public boolean cardKnown() { return main.cardKnown(); }

    /** Whether the state the history starts from could be put back on the card whole. */
    public boolean startFits() {
        for (String note : main.start()) if (note.contains("could not be put back")) return false;
        return true;
    }

    /** Whether every placement run fits (no OOM, and the start state fits). */
    public boolean fits() {
        return startFits() && main.replayedOoms().isEmpty() && (other == null || other.replayedOoms().isEmpty());
    }

    /** Whether one placement fits and the other fails. */
    public boolean tooClose() {
        return other != null && main.replayedOoms().isEmpty() != other.replayedOoms().isEmpty();
    }

    /** The report that failed first: the main one if it failed, else the other. */
    SnapshotReplay.Report failing() {
        if (!main.replayedOoms().isEmpty()) return main;
        return other != null && !other.replayedOoms().isEmpty() ? other : null;
    }

    /** What the card (or the memory fraction, if less) leaves beyond the highest peak, when every placement fits. */
    public long spare() { return room(main) - peak(); }

    /** In words, one line: the verdict with its margin, or the peak alone when the card is unknown. */
    public String verdict() {
        if (!cardKnown()) {
            return "card unknown (no --device, no oom entry): whether it would have fitted cannot be said"
                    + " (pass --device SIZE for a verdict)";
        }
        if (!startFits()) {
            return "it would not have fitted: the state the recorded history starts from (rebuilt from the"
                    + " snapshot's segments) does not fit on " + formatSize(main.cardAvailable())
                    + ", so what follows is not this run";
        }
        String rules = other == null ? "" : " under both placement rules";
        if (fits()) {
            return "it would have fitted: fits with " + formatSize(spare()) + " to spare" + rules
                    + " (peak reserved " + formatSize(peak()) + " of " + formatSize(room(main))
                    + (room(main) < main.cardAvailable() ? " the memory fraction allows, of "
                            + formatSize(main.cardAvailable()) + " on the card" : "") + ")";
        }
        SnapshotReplay.Report f = failing();
        String fails = "fails by " + formatSize(f.firstOomShortfall()) + " at entry " + f.replayedOoms().get(0);
        if (tooClose()) {
            return "too close to call: fits under " + placementName(f.placement().other()) + ", " + fails
                    + " under " + placementName(f.placement());
        }
        return "it would not have fitted: " + fails + rules + " (" + f.replayedOoms().size()
                + (f.replayedOoms().size() == 1 ? " OOM" : " OOMs")
                + (room(f) < f.cardAvailable() ? ", against the " + formatSize(room(f))
                        + " the memory fraction allows, of " + formatSize(f.cardAvailable()) + " on the card" : "")
                + ")";
    }

    /**
     * The simplification a memory fraction's limit rests on, in one line, or null when none is
     * set. PyTorch's {@code setMemoryFraction} takes the fraction of the device's total
     * (c10/cuda/CUDACachingAllocator.cpp at pytorch/pytorch@001074d:
     * {@code allowed_memory_maximum = static_cast<size_t>(fraction * device_total)}, with
     * {@code device_total} from {@code cudaMemGetInfo}), which counts the CUDA context and other
     * processes too; the replay's card is PyTorch's share of it (--device, or reserved plus
     * {@code device_free} at an {@code oom} entry), the total not being in any snapshot. So the
     * replayed limit is the lowest the real one can be.
     */
    public static String fractionNote(SnapshotReplay.Report r) {
        double f = r.allocator().policy().memoryFraction();
        if (f < 0 || r.allocator().allowedMemory() < 0) return null;
        return "memory fraction " + f + ": the kit takes it of PyTorch's share of the card, "
                + formatSize(r.cardAvailable()) + ", so " + formatSize(room(r)) + " allowed; PyTorch takes it of"
                + " the card's total as CUDA reports it, which also counts the CUDA context and other processes"
                + " and is in no snapshot: the real limit is higher, so an OOM against it here may not happen"
                + " on the card";
    }

    /** Which placement rule ran, in words, and whether the other was run beside it. */
    public String placement() {
        return main.placement().words() + (other == null ? ""
                : "; near the edge, so also replayed under " + other.placement().words());
    }

    private static String placementName(SnapshotReplay.Placement p) {
        return p == SnapshotReplay.Placement.RECORDED ? "the recorded addresses" : "the driver's addresses";
    }

    /** The same as {@link #verdict()} and the summary, as plain values for JSON (bytes as numbers). */
    public java.util.Map<String, Object> map() {
        java.util.Map<String, Object> o = new java.util.LinkedHashMap<>();
        o.put("device", (long) main.device());
        o.put("policy", main.policy());
        o.put("recordingSettings", main.recordingPolicy());
        o.put("placement", main.placement().name().toLowerCase(java.util.Locale.ROOT));
        o.put("placementWords", main.placement().words());
        java.util.Map<String, Object> card = new java.util.LinkedHashMap<>();
        card.put("bytes", main.cardKnown() ? main.cardAvailable() : null);
        card.put("known", main.cardKnown());
        card.put("from", main.card());
        o.put("card", card);
        o.put("recordedPeak", main.recordedPeak());
        o.put("peak", main.replayedPeak());
        o.put("peakEntry", (long) main.replayedPeakPosition());
        o.put("recordedOoms", main.recordedOoms().stream().map(Long::valueOf).toList());
        o.put("ooms", main.replayedOoms().stream().map(Long::valueOf).toList());
        String outcome = !cardKnown() ? "unknown" : !startFits() ? "fails before the history"
                : tooClose() ? "too close to call" : fits() ? "fits" : "fails";
        o.put("outcome", outcome);
        o.put("spare", cardKnown() && fits() ? spare() : null);
        SnapshotReplay.Report f = failing();
        o.put("shortfall", cardKnown() && f != null ? f.firstOomShortfall() : null);
        o.put("failsAtEntry", cardKnown() && f != null ? (long) f.replayedOoms().get(0) : null);
        o.put("verdict", verdict());
        if (other != null) {
            java.util.Map<String, Object> alt = new java.util.LinkedHashMap<>();
            alt.put("placement", other.placement().name().toLowerCase(java.util.Locale.ROOT));
            alt.put("peak", other.replayedPeak());
            alt.put("ooms", other.replayedOoms().stream().map(Long::valueOf).toList());
            o.put("otherPlacement", alt);
        } else {
            o.put("otherPlacement", null);
        }
        return o;
    }
}
