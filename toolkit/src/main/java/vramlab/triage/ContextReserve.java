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

    /**
     * Memory sizes cards are commonly sold with, in GiB (a "16 GB" card carries 16 GiB), MIG
     * slices (5, 10, 20, 40) included. The total a card reports is its size less the driver's
     * reserve, and with ECC on GDDR that reserve is a sixteenth and more: a T4 reports 14.75 GiB
     * of 16, an A10G 22.49 of 24, an L4 about 22 of 24, so rounding the total up to the next
     * whole GiB (15, 23) names sizes no such card has.
     */
    private static final int[] COMMON_SIZES_GIB = {
        1, 2, 3, 4, 5, 6, 8, 10, 11, 12, 16, 20, 24, 32, 40, 48, 64, 80, 94, 96};

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

    /**
     * The size a card reporting {@code capacity} bytes is most likely sold as: the smallest
     * common size at least that large (the kit's estimate, not a figure from the message);
     * -1 for no card, or one larger than the sizes the kit lists (H200, B200: their marketed
     * sizes are not whole GiB), where the kit does not guess.
     */
    /**
     * The rung-6 sentence on the driver's reserve: the total is cudaMemGetInfo's, so the reserve
     * is the estimated marketed size less it (no guess past the sizes the kit lists).
     */
    static String driverReserveSentence(long capacity) {
        long nominal = soldAs(capacity);
        if (nominal <= 0) {
            return "The total is cudaMemGetInfo's, already without the driver's reserve (ECC, display, firmware);"
                    + " the kit does not guess the size a card this large is sold as.";
        }
        return "The total is cudaMemGetInfo's, already without the driver's reserve (ECC, display, firmware):"
                + " if the card is sold as " + nominal / GiB + " GiB (the kit's estimate: the next common size"
                + " above the total), that reserve is about " + formatSize(nominal - capacity) + ".";
    }

    public static long soldAs(long capacity) {
        if (capacity <= 0) return -1;
        for (int g : COMMON_SIZES_GIB) if ((long) g * GiB >= capacity) return g * GiB;
        return -1;
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
