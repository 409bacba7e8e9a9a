package vramlab.triage;

/**
 * Whether a CUDA graph's private pool can hide inside a message's "reserved but unallocated"
 * figure, which the fragmentation rung weighs. Once a capture is over, a graph's pool is reserved
 * but not allocated, so it showed as unallocated (pytorch/pytorch#121932, March 2024). The fix,
 * pytorch/pytorch#124673 (April 2024, in 2.4), prints the unallocated bytes as
 * {@code reserved_bytes - allocated_bytes - allocated_in_private_pools} and the pool as
 * "with X allocated in private pools (e.g., CUDA Graphs), " only when X is above 0
 * (c10/cuda/CUDACachingAllocator.cpp, DeviceCachingAllocator::malloc, {@code private_pool_msg};
 * read in the PR's diff and in the stored source, whose later copies also print
 * {@code allowed_info}).
 *
 * <p>Before it, 2.2 and 2.3 printed "Of the allocated memory X is allocated by PyTorch, and Y is
 * reserved by PyTorch but unallocated." and the same hint ("... expandable_segments:True to
 * avoid fragmentation.  See documentation for Memory Management
 * (https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)"), word for word what
 * 2.4 prints with no pool: the stored pre-#124673 copy of the file and the 2.4 form differ in
 * nothing else a message shows (the release tags themselves are not stored). So the message
 * alone cannot tell a 2.2 or 2.3 message from a 2.4+ one with no pool. The text around it can:
 * the exception's name on the traceback's last line changed in 2.4, from
 * "torch.cuda.OutOfMemoryError" ({@link Clue#BEFORE_2_4}: the parser then leaves the pool figure
 * out, as for 2.1) to "torch.OutOfMemoryError", and a few warnings only 2.4 and later print
 * ({@link Clue#SINCE_2_4}: the missing clause then means no pool). A paste with neither (the
 * message alone, or a notebook's bare "OutOfMemoryError") stays {@link #AMBIGUOUS}. 2.1's wording
 * ("capacty", the max_split_size_mb hint) and 1.4 to 2.0's (reserved minus allocated) are older
 * than the fix.
 */
enum PoolClause {
    /** The pool figure is printed, or a 2.4+ line shows its absence means none; or no such figure is weighed. */
    SETTLED,
    /** Older than 2.4: any private pool is inside the unallocated figure. */
    INSIDE,
    /** 2.2 and 2.3's wording, or 2.4 and later's with no pool: the message cannot tell which. */
    AMBIGUOUS;

    static PoolClause of(Reading r) {
        if (r.family() == Family.RESERVED_IN_TOTAL) return INSIDE;
        if (r.family() != Family.SENTENCE || !r.has(Figure.ALLOCATED_BY_PYTORCH)) return SETTLED;
        if (!r.has(Figure.PRIVATE_POOLS)) return INSIDE;   // dated before 2.4: the parser leaves the figure out
        return r.get(Figure.PRIVATE_POOLS) == 0 && !r.has(Clue.SINCE_2_4) ? AMBIGUOUS : SETTLED;
    }

    /** For the fragmentation rung where it would blame these bytes: what a pool could do to them. */
    String fragmentationLead() {
        return switch (this) {
            case SETTLED -> "";
            case INSIDE -> " This message is older than 2.4, which counted a CUDA graph's private pool among these"
                    + " unallocated bytes (pytorch/pytorch#121932): if the run captures CUDA graphs (torch.compile's"
                    + " reduce-overhead mode, torch.cuda.graph, a serving engine), part of them may be a pool, not"
                    + " holes: a lead, not a finding.";
            case AMBIGUOUS -> " The message prints no private-pool clause, which 2.4 and later leave out when no"
                    + " pool holds memory but 2.2 and 2.3 never print: on those releases a CUDA graph's private pool"
                    + " counts among these unallocated bytes (pytorch/pytorch#121932), and nothing in the paste"
                    + " tells the release (print torch.__version__). If it is 2.2 or 2.3 and the run captures CUDA"
                    + " graphs, part of these bytes may be a pool, not holes: a lead, not a finding.";
        };
    }

    /** Rung 4's sentence where the message shows no pool. */
    String noneSentence() {
        return this == AMBIGUOUS ? "4. Graph pools: the message prints no private-pool clause: none on 2.4 and later,"
                + " which print it only when a pool holds memory; 2.2 and 2.3 never print it (see rung 1)."
                : "4. Graph pools: no memory cached in private pools.";
    }

    /** Appended to a decision for fragmentation where a pool may hide in its bytes. */
    String decisionNote() {
        return this == SETTLED ? "" : " Its bytes may include a CUDA graph's private pool (see its line):"
                + " check the release and the run's graphs before acting on it.";
    }
}
