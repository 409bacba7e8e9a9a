package vramlab.triage;

/**
 * The kit's rule that free memory within a margin of the request counts as none (see
 * {@link Ladder#NEAR_FULL_MARGIN}: 64 MiB, or 1% of the card where that is more), weighed with
 * the rounding of the printed figures ({@link Rounded}): free memory and the request are each
 * printed with two decimals, so their difference can sit on either side of the margin.
 *
 * @param margin the margin in bytes
 * @param within whether the difference is surely within the margin ({@code TRUE}), surely beyond
 *               it ({@code FALSE}), or either within the rounding ({@code null})
 */
record NearFull(long margin, Boolean within) {
    static NearFull of(Account a) {
        long margin = Math.max(Ladder.NEAR_FULL_MARGIN, a.capacity > 0 ? a.capacity / 100 : 0);
        Boolean beyond = a.freeR.minus(a.requestedR).atLeast(margin + 1);
        return new NearFull(margin, beyond == null ? null : !beyond);
    }

    /** The sentence that says the rule's verdict rests on the rounding; empty where it does not. */
    String lead() {
        return within != null ? "" : " The message's figures are rounded to two decimals, and within that rounding "
                + "the free memory may lie within the kit's margin of the request or beyond it: a lead, not a finding.";
    }
}
