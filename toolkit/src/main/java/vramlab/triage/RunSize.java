package vramlab.triage;

/**
 * What a paste shows of its run's size, for the rungs that would put memory on NCCL: a second
 * rank or a world above one ({@link Clue#DISTRIBUTED}), rank 0 alone ({@link Clue#RANK_ZERO}),
 * only words of torch.distributed or NCCL ({@link Clue#DISTRIBUTED_MENTION}), or nothing. Only
 * the first is a finding that puts non-PyTorch memory on NCCL's buffers; rank 0 and a mention
 * are printed by a run of one process too, so the ladder names NCCL there as a lead.
 */
enum RunSize {
    SHOWN, RANK_ZERO, MENTIONED, NONE;

    static RunSize of(Reading r) {
        if (r.has(Clue.DISTRIBUTED)) return SHOWN;
        if (r.has(Clue.RANK_ZERO)) return RANK_ZERO;
        if (r.has(Clue.DISTRIBUTED_MENTION)) return MENTIONED;
        return NONE;
    }

    boolean shown() { return this == SHOWN; }

    /** Whether the paste hints at a process group without showing a second rank. */
    boolean lead() { return this == RANK_ZERO || this == MENTIONED; }

    /** What the paste shows, as rung 3 ends its sentence on memory beyond a context. */
    String outsideClause() {
        return switch (this) {
            case SHOWN -> ", and the paste shows a distributed run.";
            case RANK_ZERO -> "; the paste shows rank 0 alone, which a run of one process prints too: it cannot tell "
                    + "one GPU from several, so not NCCL by default: " + HOLDERS + "NCCL if other ranks share the run, "
                    + "or a larger context.";
            case MENTIONED -> "; the paste mentions torch.distributed or NCCL but shows no second rank, and a run of "
                    + "one process prints those words too, so not NCCL by default: " + HOLDERS + "NCCL if other "
                    + "ranks share the run (the mention is a lead, not a finding), or a larger context.";
            case NONE -> "; the paste shows no distributed run, so not NCCL by default: " + HOLDERS
                    + "NCCL if a process group exists after all, or a larger context.";
        };
    }

    private static final String HOLDERS = "a library's own cudaMalloc, cuBLAS or cuDNN workspaces outside "
            + "PyTorch's cache, ";

    /** Rung 3's parenthesis where no figure measures this process's non-PyTorch memory. */
    String cannotMeasure() {
        return switch (this) {
            case SHOWN -> " (the paste does show a distributed run).";
            case RANK_ZERO -> " (the paste shows rank 0 alone, which a run of one process prints too).";
            case MENTIONED -> " (the paste mentions torch.distributed or NCCL, but shows no second rank).";
            case NONE -> ".";
        };
    }

    /** Rung 2's addition where a large gap has no process list to name its holder. */
    String gapClause() {
        return switch (this) {
            case SHOWN -> " The paste shows a distributed run, so NCCL's buffers in this process are as likely as a "
                    + "co-tenant.";
            case RANK_ZERO -> " The paste shows rank 0 alone, which a run of one process prints too: NCCL's buffers "
                    + "in this process, if other ranks share the run, are a lead, not a finding.";
            case MENTIONED -> " The paste mentions torch.distributed or NCCL but shows no second rank: NCCL's buffers "
                    + "in this process are a lead, not a finding.";
            case NONE -> "";
        };
    }

    /** A raw CUDA error with a hint of a process group but no second rank: the lead, as rung 3 words it. */
    String rawErrorLead() {
        return "3. NCCL: a raw CUDA call failed, and the paste "
                + (this == RANK_ZERO ? "shows rank 0 alone" : "mentions torch.distributed or NCCL but shows no second rank")
                + ", which a run of one process prints too: communicator set-up, which allocates outside PyTorch's "
                + "allocator, is a lead, not a finding.";
    }
}
