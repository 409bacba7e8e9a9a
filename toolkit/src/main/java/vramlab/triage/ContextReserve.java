package vramlab.triage;

import static vramlab.units.Bytes.GiB;
import static vramlab.units.Bytes.MiB;
import static vramlab.units.Bytes.formatSize;

/**
 * The one place where the triage estimates memory that no allocator figure shows: the CUDA
 * context, the libraries' own memory and a desktop. The driver's reserve is not among them: the
 * total in PyTorch's message is {@code cudaMemGetInfo}'s, which already leaves it out (see
 * {@code vramlab.driver.Gpu#totalMemory}). Every number here is
 * this kit's rule of thumb, not a figure from PyTorch, CUDA or NVIDIA; {@link #assumption}
 * says so in the report, so a reader can weigh it.
 *
 * <p>What the estimates stand for:
 * <ul>
 *   <li>A process's CUDA context with PyTorch's kernels loaded (lazily, as CUDA 11.7 and later
 *       do) takes a few hundred MiB; cuBLAS and cuDNN workspaces come from PyTorch's own
 *       allocator, so they are inside "allocated by PyTorch".</li>
 *   <li>A card that drives a display lends memory to the desktop, which NVML does not list
 *       among the compute processes; the share grows with the card.</li>
 * </ul>
 */
public final class ContextReserve {
    /** A process's context with PyTorch's kernels and libraries loaded (kit's estimate). */
    public static final long PROCESS_CONTEXT = 512 * MiB;

    /**
     * The most non-PyTorch memory one process holds before something else must be allocating
     * on its own (NCCL's buffers, another library): "this process" minus what PyTorch reserved.
     */
    public static final long NON_PYTORCH_ALLOWANCE = GiB;

    /** Used when a message does not say how large the card is. */
    private static final long UNKNOWN_CARD_CEILING = 2 * GiB;

    private ContextReserve() {}

    /** What a context and the libraries typically take on a card of this size. */
    public static long typical(long capacity) {
        return capacity > 0 ? PROCESS_CONTEXT + capacity / 100 : PROCESS_CONTEXT;
    }

    /**
     * The most that a context, the libraries and a desktop take on a card of this size:
     * memory that is neither free nor PyTorch's beyond this points at another holder.
     */
    public static long ceiling(long capacity) {
        return capacity > 0 ? 3 * GiB / 2 + capacity / 25 : UNKNOWN_CARD_CEILING;
    }

    /** The sentence a report prints so the reader knows what was assumed. */
    public static String assumption(long capacity) {
        String card = capacity > 0 ? "a " + formatSize(capacity) + " card" : "a card of unknown size";
        return "Assumed (this kit's rule of thumb, not a measured figure): on " + card + " a CUDA "
                + "context and the libraries typically take " + formatSize(typical(capacity))
                + " and at most " + formatSize(ceiling(capacity)) + " (a desktop included); one "
                + "process's non-PyTorch memory beyond " + formatSize(NON_PYTORCH_ALLOWANCE)
                + " is more than a context.";
    }
}
