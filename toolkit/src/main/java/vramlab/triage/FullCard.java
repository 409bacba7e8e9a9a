package vramlab.triage;

import static vramlab.units.Bytes.MiB;
import static vramlab.units.Bytes.formatSize;

import java.util.List;

/**
 * Rung 6's sentence where no cause alone makes the request fit: the card simply full, or the
 * request needing about all the free memory (the near-full rule, {@link Ladder#NEAR_FULL_MARGIN}),
 * with what the figures say of the rest of the card.
 */
final class FullCard {
    private FullCard() {}

    /** The sentence for {@link Cause#FULL_OR_DRIVER_RESERVE} as the last rung decides it. */
    static String sentence(Reading r, Account a, boolean nearFull, List<Candidate> candidates) {
        long cap = a.capacity, free = a.free, alloc = a.allocated;
        StringBuilder sb;
        if (nearFull) {
            sb = new StringBuilder("6. The request needs about all the free memory: "
                    + formatSize(a.requested) + " asked with " + formatSize(free) + " free, and "
                    + "the device could not place it (the driver's own share of a mapping, and "
                    + "free memory that is not one run, take the difference)");
            if (cap > 0) {
                sb.append("; the request alone is ").append(Rounded.percent(a.requested, cap))
                  .append(" of the ").append(formatSize(cap)).append(" card");
            }
            if (alloc >= 0) sb.append(", and PyTorch has ").append(formatSize(alloc)).append(" allocated");
        } else {
            sb = new StringBuilder("6. Otherwise the card is simply full");
            if (alloc >= 0 && cap > 0) {
                sb.append(": PyTorch has " + formatSize(alloc) + " of " + formatSize(cap));
            }
            if (free >= 0) sb.append(", ").append(formatSize(free)).append(" is free");
        }
        sb.append('.');
        if (a.self >= 0 && a.reserved >= 0 && a.self >= a.reserved) {
            sb.append(" This process holds ").append(a.nonPyTorchR().text())
              .append(" beyond what PyTorch reserved: its CUDA context and libraries.");
        }
        if (cap > 0) sb.append(' ').append(ContextReserve.driverReserveSentence(cap));
        Rounded nobody = a.heldByNoProcessR();
        if (nobody != null && nobody.atLeast(64 * MiB) == Boolean.TRUE) {   // not where rounding alone makes it
            sb.append(" ").append(nobody.text()).append(" of the total is held by no process "
                    + "the message lists (one in another container, or the driver's own).");
        }
        Candidate partial = Candidate.nearestPartial(candidates);
        if (partial != null) {
            sb.append(" No single cause explains the whole shortfall; the nearest is ")
              .append(partial.cause().name()).append(" (").append(partial.share()).append("%).");
        }
        if (r.family() == Family.THC_LEGACY || r.family() == Family.CUDA_ERROR
                || r.family() == Family.WRAPPED) {
            sb.append(" (Without figures this is the fallback, not a finding.)");
        } else if (!r.missing().isEmpty()) {
            sb.append(" (Figures are missing, so earlier steps could not all be ruled out: "
                    + "this is the fallback, not a finding.)");
        }
        return sb.toString();
    }
}
