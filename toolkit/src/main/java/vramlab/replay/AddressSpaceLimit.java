package vramlab.replay;

import vramlab.alloc.CachingAllocator;
import vramlab.alloc.Segment;
import vramlab.driver.CudaException;
import vramlab.driver.GpuProcess;
import vramlab.trace.TraceException;
import vramlab.units.Bytes;

/**
 * Why a replay under {@code expandable_segments:True} stops on a very large card. PyTorch's
 * {@code ExpandableSegment} constructor reserves address space for 1 1/8 of the card's memory,
 * one reservation per pool and stream ({@code max_handles_ = numSegments(prop.totalGlobalMem +
 * prop.totalGlobalMem / 8)}, then {@code cuMemAddressReserve_} under
 * {@code C10_CUDA_DRIVER_CHECK}: c10/cuda/CUDACachingAllocator.cpp, class ExpandableSegment), and
 * the kit gives one device {@link GpuProcess#WINDOW} of address space. Past about 3 TiB the
 * second reservation no longer fits there, although {@code --device} takes up to 4 TiB: that
 * is the kit's limit, not the workload's (a real process has 128 TiB), and not an OOM (PyTorch
 * raises a driver error there, not an {@code OutOfMemoryError}). So the replay ends with one
 * line and exit 2, naming the card and the largest one the kit can replay it on, rather than
 * an internal error.
 */
final class AddressSpaceLimit {
    private AddressSpaceLimit() {}

    /**
     * What to throw for {@code e}, raised by {@code a.alloc}: a {@link TraceException} when it is
     * the reservation of a new expandable segment that found no room, else {@code e} itself.
     *
     * @param line  the trace line, or 0 for a snapshot (then {@code where} names the entry)
     * @param where where the replay was, e.g. "at trace entry 41: ", or ""
     */
    static RuntimeException explain(CudaException e, CachingAllocator a, String file, long line, String where) {
        if (!e.isOutOfMemory() || !String.valueOf(e.getMessage()).contains("cuMemAddressReserve")) return e;
        long card = a.process().gpu().totalMemory();
        long reservation = card + card / 8;
        int held = 0;
        for (Segment s : a.segments()) if (s.isExpandable()) held++;
        long hundredths = largestCardHundredthsOfTiB(held + 1);
        return new TraceException(file, line, where + "expandable_segments:True on a card of "
                + Bytes.formatTiBDown(card) + ": a new expandable segment reserves "
                + Bytes.formatTiBDown(reservation) + " of address space (1 1/8 of the card, one per pool and"
                + " stream: CUDACachingAllocator.cpp, ExpandableSegment), " + held + " such reservation"
                + (held == 1 ? " is" : "s are") + " held already, and the " + Bytes.formatTiBDown(GpuProcess.WINDOW)
                + " of address space the kit simulates for one device has no room for another (a real"
                + " process has 128 TiB): this is the kit's limit, not the workload's; give --device "
                + Bytes.hundredths(hundredths, new StringBuilder()).append(" TiB") + " or less to replay it");
    }

    /**
     * The largest card, in hundredths of a TiB rounded down, on which {@code n} reservations of
     * 1 1/8 of it fill at most the window: {@code --device} takes the figure as printed.
     */
    static long largestCardHundredthsOfTiB(int n) {
        return GpuProcess.WINDOW / n / 9 * 8 / (Bytes.TiB / 100);
    }
}
