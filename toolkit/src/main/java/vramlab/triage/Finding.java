package vramlab.triage;

import java.util.List;

/**
 * What the figures show where the card itself was not short: a narrower story inside
 * {@link Cause#FULL_OR_DRIVER_RESERVE}, the ladder's last rung, with its own headline, check and
 * fix ladder. The cause stays {@code FULL_OR_DRIVER_RESERVE} (the ladder has six rungs, and the
 * course's quiz and flowchart name those), so {@code triage --json} keeps its {@code cause} and
 * adds {@code finding}; the report's headline names the finding, since "the card is full" would
 * contradict a message that shows more free than asked.
 *
 * <p>PyTorch raises when the device allocation fails after it has released its cached segments,
 * or when a memory fraction would be exceeded: {@code alloc_block} refuses a segment once
 * {@code total_allocated_memory + size > allowed_memory_maximum}, and the message then prints
 * "X allowed;" (c10/cuda/CUDACachingAllocator.cpp, {@code DeviceCachingAllocator::malloc} and
 * {@code alloc_block}; the cudaMallocAsync backend's "PyTorch limit (set by user-supplied memory
 * fraction)" in CUDAMallocAsyncAllocator.cpp, {@code mallocAsync}). Some 2.x releases build that
 * "allowed" text and leave it out of the message, so a fraction can hide behind a message
 * without one.
 */
public enum Finding {
    MEMORY_FRACTION("this process's memory fraction is spent, not the card: PyTorch may reserve "
            + "only what torch.cuda.set_per_process_memory_fraction allows",
            Fix.plain("Print torch.cuda.memory_reserved() and the fraction's cap (the message's 'allowed'"
                    + " figure) next to torch.cuda.mem_get_info(), then rerun once with the fraction"
                    + " raised (or its call removed): if the OOM goes away, the cap was the cause."),
            List.of(Fix.plain(
            "Raise the fraction or remove its call: torch.cuda.set_per_process_memory_fraction(f, "
                    + "device) caps what PyTorch may reserve at f times the card's total, and the "
                    + "message's 'allowed' figure is that cap. Search your code, its launcher and the "
                    + "libraries it runs for the call."), Fix.plain(
            "If the cap is there on purpose (several jobs share the card), keep it and fit the "
                    + "workload inside it: lower the batch size or accumulate gradients, checkpoint "
                    + "activations, train in bf16/fp16."), new Fix(
            "Bytes PyTorch reserved but left unallocated count against the cap too: if the message "
                    + "shows many, the fragmentation rungs apply inside the cap (steady shapes, "
                    + "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True).", Fix.Sets.EXPANDABLE_SEGMENTS))),
    ROOM_ON_CARD("the card had more free than asked and the allocation still failed: a limit of "
            + "this process's own, or free memory it could not use",
            new Fix("Print torch.cuda.mem_get_info() and torch.cuda.memory_reserved() just before the "
                    + "failing step, and search the code for set_per_process_memory_fraction: a "
                    + "fraction explains the failure whether or not the message printed it.",
                    Fix.Sets.MEMORY_FRACTION),
            List.of(new Fix(
            "Look for a memory fraction: torch.cuda.set_per_process_memory_fraction in your code, its "
                    + "launcher or a library. The messages before 2.1 print 'X allowed' when one is "
                    + "set; some 2.x releases leave it out. Raise it or remove the call.",
                    Fix.Sets.MEMORY_FRACTION), Fix.plain(
            "On Windows (WDDM) the free figure is the operating system's, which may not be what "
                    + "this process can allocate: rerun on Linux or in WSL2 to compare, or leave "
                    + "headroom below the free figure."), Fix.plain(
            "The free figure is read after the failure and after PyTorch released its cache: "
                    + "another process may have let go of memory in between. nvidia-smi during "
                    + "the run shows who holds what."), Fix.plain(
            "If none of these applies, budget as for a full card: lower the batch size, "
                    + "checkpoint activations, train in bf16/fp16."))),
    FREE_BARELY_COVERS("the request needs about all the free memory, and the device could not "
            + "serve it from what was free: the request, not the cache, fills the card",
            Fix.plain("torch.cuda.max_memory_allocated() after one step at two batch sizes, and the "
                    + "shape of the tensor that asked: a request that size needs a card with room to spare."),
            null);

    private final String title;
    private final Fix check;
    private final List<Fix> fixes;

    Finding(String title, Fix check, List<Fix> fixes) {
        this.title = title;
        this.check = check;
        this.fixes = fixes;
    }

    /** The cause the ladder files this finding under. */
    public Cause cause() { return Cause.FULL_OR_DRIVER_RESERVE; }

    /** The headline the report prints in place of the cause's title. */
    public String title() { return title; }

    /**
     * The headline where the card was short as well ({@code cardShort}): a memory fraction's cap
     * that refused the request before the card was asked ({@link FractionCap}) is spent, but so
     * was the card, and "not the card" would deny the message's own shortfall. Elsewhere {@link #title()}.
     */
    public String title(boolean cardShort) {
        if (this != MEMORY_FRACTION || !cardShort) return title;
        return "this process's memory fraction is spent, and its cap refused the request before the card"
                + " was asked (the card was short too): PyTorch may reserve only what"
                + " torch.cuda.set_per_process_memory_fraction allows";
    }

    /** The command or experiment that confirms this finding. */
    public String check() { return check.text(); }

    /** {@link #check()} with what it touches (ROOM_ON_CARD's looks for a memory fraction). */
    public Fix checkEntry() { return check; }

    /** The fix ladder, cheapest first; the cause's own where this finding has none of its own. */
    public List<String> fixes() { return Fix.texts(fixEntries()); }

    /** Whether this finding has a fix ladder of its own (else {@link #fixEntries} is the cause's). */
    boolean hasOwnFixes() { return fixes != null; }

    /** The fix ladder, each entry with the allocator setting it changes. */
    public List<Fix> fixEntries() { return fixes != null ? fixes : cause().fixEntries(); }
}
