package vramlab.triage;

import static vramlab.units.Bytes.formatSize;

/**
 * Rung 6 where the card itself had room (more free than asked): whose limit the allocation hit.
 * A memory fraction the message prints ("X allowed") and that PyTorch's reserved bytes plus the
 * request reach; else what the figures leave open (a fraction some releases do not print, a free
 * figure this process cannot use, memory freed before the message was written).
 *
 * @param fractionSpent whether the message's memory fraction explains the failure
 * @param why           the clause that says so, for the rung's sentence
 */
record OwnLimit(boolean fractionSpent, String why) {
    static OwnLimit of(Reading r, Account a) {
        long allowed = a.allowed;
        boolean spent = fractionSpent(a);
        String lead = a.hasCap() && spentWithinRounding(r, a, allowed) == null ? "; within the rounding of the "
                + "message's figures the cap may be reached or not: a lead, not a finding" : "";
        if (spent) {
            boolean past = a.reserved < 0 || a.requested < 0 || a.reserved + a.requested > allowed;
            return new OwnLimit(true, "this process's memory fraction allows only " + formatSize(allowed)
                    + (a.reserved >= 0 ? ", and PyTorch holds " + formatSize(a.reserved) + " of it" : "")
                    + (a.reserved < 0 || a.requested < 0 ? ""
                            : past ? ": the " + formatSize(a.requested) + " asked does not fit under that cap"
                            : ": the " + formatSize(a.requested) + " asked reaches the cap within the kit's "
                                    + "margin of " + formatSize(allowanceMargin(allowed))
                                    + " (the figures are rounded, and so is the segment PyTorch asks for)")
                    + "; the cap was hit, not the card" + lead);
        }
        if (a.hasCap()) {
            return new OwnLimit(false, "a memory fraction allows " + formatSize(allowed) + ", yet PyTorch's "
                    + formatSize(a.reserved) + " plus the " + formatSize(a.requested) + " asked "
                    + "stay under it; the free figure may not be what this process can use "
                    + "(Windows WDDM), or memory was freed between the failure and the message" + lead);
        }
        if (r.family() == Family.SENTENCE) {
            return new OwnLimit(false, "the message shows no memory fraction, but some 2.x releases leave its "
                    + "'allowed' figure out: a fraction set in code, or the free figure is not what "
                    + "this process may use (Windows WDDM), or memory was freed between the failure "
                    + "and the message");
        }
        if (Release.beforeMemoryFraction(r)) {
            return new OwnLimit(false, "the message shows no memory fraction, and its release had none to set "
                    + "(this wording is PyTorch 0.4 to 1.3's; set_per_process_memory_fraction came in 1.8): "
                    + "the free figure is not what this process may use (Windows WDDM), or memory was "
                    + "freed between the failure and the message");
        }
        return new OwnLimit(false, "the message shows no memory fraction, and this format prints one when it is "
                + "set: the free figure is not what this process may use (Windows WDDM), or "
                + "memory was freed between the failure and the message");
    }

    /**
     * Whether the message's memory fraction explains the failure: PyTorch refuses a new segment
     * once what it reserved plus the segment would pass the cap (alloc_block in
     * c10/cuda/CUDACachingAllocator.cpp; mallocAsync counts what is allocated). Printed figures
     * are rounded and the segment is rounded up, so "within the margin" counts as past the cap.
     */
    static boolean fractionSpent(Account a) {
        if (!a.hasCap()) return false;
        if (a.reserved < 0 || a.requested < 0) return true;
        return a.reserved + a.requested + allowanceMargin(a.allowed) > a.allowed;
    }

    /**
     * {@link #fractionSpent} at both ends of what the printed figures' rounding allows
     * ({@link Rounded}): {@code TRUE} or {@code FALSE} where they agree, {@code null} where the
     * rounding alone could put PyTorch's bytes plus the request on either side of the line.
     */
    static Boolean spentWithinRounding(Reading r, Account a, long allowed) {
        if (a.reserved < 0 || a.requested < 0) return Boolean.TRUE;
        Rounded over = a.reservedR.plus(a.requestedR).minus(Rounded.of(allowed, r.family()));
        return over.atLeast(1 - allowanceMargin(allowed));
    }

    /** The kit's slack for rounding against a fraction's cap: as {@link Ladder#NEAR_FULL_MARGIN}, or 1% of the cap. */
    static long allowanceMargin(long allowed) {
        return Math.max(Ladder.NEAR_FULL_MARGIN, allowed / 100);
    }
}
