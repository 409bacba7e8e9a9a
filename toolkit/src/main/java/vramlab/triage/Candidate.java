package vramlab.triage;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * One cause weighed against the shortfall: how many bytes removing it would give back, what
 * share of the shortfall that is, and whether the kit counts it as enough to name.
 *
 * @param cause       the cause
 * @param bytes       bytes a fix of this cause would give back; -1 when no figure measures it
 *                    (a cause named by the traceback's words)
 * @param share       share of the shortfall those bytes explain, 0 to 100 (percent); 0 when
 *                    the shortfall is unknown; 100 when words say this is what failed
 * @param sufficient  whether removing it alone would have made the request fit
 * @param significant whether it is large enough to count (the kit's thresholds)
 * @param evidence    the sentence with the figures behind it
 * @param error       how far the true bytes may lie from {@code bytes}, from the rounding of the
 *                    printed figures they were computed from ({@link Rounded}); 0 when exact
 * @param lead        whether the rounding of those figures alone could flip the verdict
 *                    ({@link #qualifies}, the ranking's "enough alone"): the ladder decides it once, where
 *                    its sentence says "a lead, not a finding", and the ranking's table, its JSON row and
 *                    the decision read it from here
 */
public record Candidate(Cause cause, long bytes, int share, boolean sufficient, boolean significant,
                            String evidence, long error, boolean lead) {

    /** A candidate whose bytes are exact (or none). */
    public Candidate(Cause cause, long bytes, int share, boolean sufficient, boolean significant, String evidence) {
        this(cause, bytes, share, sufficient, significant, evidence, 0, false);
    }

    Candidate withError(long e) { return new Candidate(cause, bytes, share, sufficient, significant, evidence, e, lead); }

    Candidate withLead(boolean l) { return new Candidate(cause, bytes, share, sufficient, significant, evidence, error, l); }

    /** The ranking's verdict in words, "enough alone" and the like, marked where it is a lead. */
    public String verdict() {
        String v = cause == Cause.CANNOT_TELL ? "no figure to weigh" : qualifies() ? "enough alone"
                : significant ? "not enough alone" : "too small to count";
        return lead ? v + ": a lead, not a finding" : v;
    }

    /** The bytes as precise as their figures ("0.45 GiB ± 0.01 GiB"); null when no figure measures it. */
    public String bytesText() { return bytes < 0 ? null : new Rounded(bytes, error).text(); }

    /** A cause measured in bytes against a shortfall of {@code shortfall} bytes. */
    static Candidate measured(Cause cause, long bytes, long shortfall, boolean sufficient,
                              boolean significant, String evidence) {
        int share = shortfall <= 0 ? 0 : (int) Math.min(100, Math.max(0, bytes) * 100 / shortfall);
        return new Candidate(cause, bytes, share, sufficient, significant, evidence);
    }

    /** A cause named by what the paste says failed, not by a figure. */
    static Candidate named(Cause cause, String evidence) {
        return new Candidate(cause, -1, 100, true, true, evidence);
    }

    /** Whether the kit would name it: large enough and, alone, enough. */
    public boolean qualifies() { return sufficient && significant; }

    /**
     * The qualifying cause that gives back the most; any within a factor of two of it ties,
     * and the earliest in the ladder's order wins the tie.
     */
    static Candidate choose(List<Candidate> candidates) {
        long most = -1;
        for (Candidate c : candidates) if (c.qualifies()) most = Math.max(most, c.bytes());
        if (most < 0) return null;
        Candidate best = null;
        for (Candidate c : candidates) {
            if (!c.qualifies() || c.bytes() * 2 < most) continue;
            if (best == null || c.cause().step() < best.cause().step()) best = c;
        }
        return best;
    }

    /** The significant cause (not the full card) that explains the largest share, or null. */
    static Candidate nearestPartial(List<Candidate> candidates) {
        Candidate best = null;
        for (Candidate c : candidates) {
            if (c.cause() == Cause.FULL_OR_DRIVER_RESERVE || c.share() <= 0) continue;
            if (!c.significant()) continue;
            if (best == null || c.share() > best.share()) best = c;
        }
        return best;
    }

    /** The decided cause first, then the rest: qualifying first, larger share, ladder order. */
    static List<Candidate> rank(List<Candidate> candidates, Candidate picked, Cause decided) {
        if (decided == Cause.NOT_PYTORCH_OOM) return List.of();
        List<Candidate> rest = new ArrayList<>();
        Candidate first = picked != null && picked.cause() == decided ? picked : null;
        for (Candidate c : candidates) {
            if (first == null && c.cause() == decided) first = c;
            else if (c.cause() != decided) rest.add(c);
        }
        rest.sort(Comparator.comparing((Candidate c) -> !c.qualifies())
                .thenComparing(c -> !c.significant())
                .thenComparing(Comparator.comparingInt(Candidate::share).reversed())
                .thenComparingInt(c -> c.cause().step()));
        List<Candidate> out = new ArrayList<>();
        if (first != null) out.add(first);
        out.addAll(rest);
        return out;
    }
}
