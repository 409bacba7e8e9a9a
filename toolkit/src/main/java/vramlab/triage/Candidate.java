package vramlab.triage;

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
 */
public record Candidate(Cause cause, long bytes, int share, boolean sufficient, boolean significant,
                            String evidence) {

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
}
