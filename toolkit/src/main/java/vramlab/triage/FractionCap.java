package vramlab.triage;

/**
 * A memory fraction's cap, whether the card was short as well (less free than asked) or had room:
 * whether the message's own figures show that the cap, not the card, refused the request. PyTorch's
 * {@code alloc_block} checks {@code set_fraction && total_allocated_memory + size >
 * allowed_memory_maximum} before it asks the device for a segment, and fails the allocation there
 * (c10/cuda/CUDACachingAllocator.cpp @001074d, {@code DeviceCachingAllocator::alloc_block}).
 * {@code total_allocated_memory} is what PyTorch reserved, the figure the message prints after its
 * last retry ({@code release_cached_blocks}, then {@code alloc_block} once more), and {@code size}
 * is the segment, never less than the request. So reserved plus the request past the printed
 * "X allowed" ({@code allowed_memory_maximum}, the fraction times the card's total,
 * {@code setMemoryFraction}) proves the cap refused it, whatever the card had free; the card's
 * shortfall was never asked about. Within the rounding of those figures it is a lead.
 *
 * <p>Under such a cap, bytes outside PyTorch's reserve (other processes, this process's non-PyTorch
 * memory) would give the card room, not the cap: freeing them is not enough alone. Bytes inside it
 * (a private pool's cache) count against the cap too, so freeing them makes room under it.
 *
 * @param binds {@code TRUE} where the figures prove the cap refused the request, {@code null}
 *              where their rounding alone could decide it, {@code FALSE} where they do not show it
 *              (no cap printed, or reserved or the request missing, or under the cap)
 * @param over  reserved plus the request minus the cap, with its rounding; null where unknown
 */
record FractionCap(Boolean binds, Rounded over) {
    static FractionCap of(Account a) {
        if (!a.hasCap() || a.reservedR == null || a.requestedR == null) {
            return new FractionCap(Boolean.FALSE, null);
        }
        Rounded over = a.reservedR.plus(a.requestedR).minus(a.allowedR);
        return new FractionCap(over.atLeast(1), over);
    }

    /**
     * The one rule for what the ranking's shares measure against: where the figures prove the cap
     * refused the request ({@link #binds} true, and the ladder names {@link Finding#MEMORY_FRACTION}),
     * the cap's excess (reserved + request - allowed), the figure that decided, whether the card was
     * short too or had room; null elsewhere, where they measure against the card's shortfall.
     */
    static Rounded rankingBasis(Account a, Finding finding) {
        if (finding != Finding.MEMORY_FRACTION) return null;
        FractionCap cap = of(a);
        return cap.binds() == Boolean.TRUE ? cap.over() : null;
    }

    /**
     * Where the ranking measures against the cap's excess ({@link #rankingBasis}): its header, which
     * says so and what the card had, short too or room; null elsewhere.
     */
    static String rankingHeader(Account a, Finding finding, long shortfall) {
        Rounded over = rankingBasis(a, finding);
        if (over == null) return null;
        String card = shortfall > 0 ? "the card was " + a.shortfallText(shortfall) + " short too"
                : a.free >= 0 && a.requested <= a.free ? "the card had room: " + a.freeR.text() + " free for the "
                        + a.requestedR.text() + " asked" : "the message gives no free figure for the card";
        return "Each cause against what refused the request, the memory fraction's cap: " + over.text()
                + " past the " + a.allowedR.text() + " allowed (" + card + ")";
    }

    /** Rung 6 where the cap surely binds: the sentence the decision rests on. */
    String spentSentence(Account a) {
        return "6. The memory fraction's cap refused the request before the card was asked: PyTorch holds "
                + a.reservedR.text() + " reserved, and with the " + a.requestedR.text() + " asked that makes "
                + a.reservedR.plus(a.requestedR).text() + ", past the " + a.allowedR.text() + " this process's "
                + "memory fraction allows (PyTorch checks the cap before it asks the device for a segment). "
                + "The card was short too, but freeing memory on it would not let PyTorch pass the cap.";
    }

    /**
     * Where the words name a subsystem (NCCL's own allocation, a CUDA-graph capture, cuDNN's search)
     * and the figures prove the cap refused the request: why the cap leads and the subsystem is the
     * runner-up. The refusal is arithmetic on the message's own figures (alloc_block's check, above);
     * that the subsystem filled the cap is a likelihood: its bytes count against the cap only where
     * PyTorch's allocator holds them (a capture's private pool does, NCCL's own cudaMalloc does not),
     * and raising the cap lets the request through either way. Empty where nothing is named, or the
     * cap does not surely bind (the subsystem then leads, as before).
     */
    String aheadOf(Candidate named) {
        if (named == null || binds != Boolean.TRUE) return "";
        return " The paste's words name " + named.cause().name() + " too, a likelihood (its bytes count against the cap"
                + " only where PyTorch's allocator holds them), but the figures prove the cap refused this request:"
                + " the cap leads, and " + named.cause().name() + " is the runner-up.";
    }

    /** The sentence where the rounding alone could put the cap on either side; empty elsewhere. */
    String leadSentence(Account a) {
        if (binds != null) return "";
        return "6. The memory fraction: PyTorch's " + a.reservedR.text() + " reserved plus the "
                + a.requestedR.text() + " asked make " + a.reservedR.plus(a.requestedR).text()
                + ", within the rounding of the message's figures of the " + a.allowedR.text()
                + " allowed: whether the cap refused the request before the card was asked is a lead, not a finding.";
    }

    /**
     * A rung whose bytes lie outside PyTorch's reserve: under a cap that binds they make no room
     * ({@code FALSE}); where the cap may bind, a fit becomes a lead ({@code null}).
     */
    Boolean outsideFits(Boolean fits) {
        if (binds == Boolean.TRUE) return Boolean.FALSE;
        return binds == null && fits == Boolean.TRUE ? null : fits;
    }

    /** What {@link #outsideFits} changed, in words for the rung's sentence; empty where nothing. */
    String outsideClause(Boolean fits) {
        if (binds == Boolean.FALSE || fits == Boolean.FALSE) return "";
        return binds == Boolean.TRUE
                ? " But the memory fraction's cap, not the card, refused the request (rung 6): freeing these"
                        + " bytes gives the card room, not the cap, so they are not enough alone."
                : " The memory fraction's cap may have refused the request (rung 6), and freeing these bytes"
                        + " gives the card room, not the cap: a lead, not a finding.";
    }

    /**
     * A rung whose bytes are inside PyTorch's reserve (a private pool's cache): freeing them lowers
     * what counts against the cap, so they fit under it where they cover the cap's shortfall as well.
     */
    Boolean insideFits(Rounded bytes, Boolean fits) {
        if (binds == Boolean.FALSE || over == null) return fits;
        Boolean underCap = bytes.minus(over).atLeast(0);
        if (binds == null && underCap == Boolean.FALSE) underCap = null;   // the cap may not bind at all
        if (fits == Boolean.FALSE || underCap == Boolean.FALSE) return Boolean.FALSE;
        return fits == Boolean.TRUE && underCap == Boolean.TRUE ? Boolean.TRUE : null;
    }

    /**
     * The graph-pool rung's words where its pools are not enough alone: under a cap that binds (or
     * may), what they were measured against, since they may cover the card's shortfall and still
     * not the cap's excess ({@link #insideClause} follows); elsewhere the shortfall, as before.
     */
    String poolsShort(Account a, boolean large, Boolean onCard, long shortfall) {
        if (binds == Boolean.FALSE || over == null) return "; too little to explain the shortfall.";
        String card = "the card's shortfall" + (shortfall > 0 ? " of " + a.shortfallText(shortfall) : "");
        if (!large) return "; too little to count, against " + card + " or the cap's excess of " + over.text() + ".";
        if (onCard == Boolean.FALSE) return "; too little to cover " + card + ".";
        return (onCard == null ? "; within the rounding of " : "; enough for ") + card + ".";
    }

    /** What {@link #insideFits} said where it differs from the card's verdict; empty where nothing. */
    String insideClause(Rounded bytes, Boolean fits) {
        Boolean capped = insideFits(bytes, fits);
        if (capped == fits) return "";
        return " Under the memory fraction's cap they would have to cover " + over.text()
                + " past it as well (rung 6)" + (capped == Boolean.FALSE ? ", and do not." : ": within the"
                + " rounding of the message's figures, a lead, not a finding.");
    }
}
