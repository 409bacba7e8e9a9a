package vramlab.judge;

/**
 * One entry on one workload: whether it fit, its first broken check, and what it cost.
 *
 * @param entry         the entry's name
 * @param workload      the workload's name
 * @param card          the card's bytes
 * @param events        events applied (all of them, unless it ran out of memory or broke a check)
 * @param fit           every event was served, no check broken
 * @param oomStep       the event that ran out of memory, or -1
 * @param oom           the out-of-memory error's first line, or ""
 * @param broken        the first broken check, or null
 * @param peakReserved  the most memory held from the driver at once (cudaMalloc and cuMemCreate bytes)
 * @param peakRequested the most bytes requested by live blocks at once
 * @param driverCalls   every driver call the entry made
 * @param driverMicros  their simulated cost under {@code CostModel.ORDER_OF_MAGNITUDE}
 * @param hostNanos     wall-clock time spent inside the entry's calls (measured, varies run to run)
 * @param curve         memory held from the driver, the highest in each of {@link Judge#CURVE_POINTS} even
 *                      slices of the events (for the leaderboard page)
 * @param requestedCurve bytes requested by live blocks, the same way
 */
public record Run(String entry, String workload, long card, long events, boolean fit, long oomStep, String oom,
                  Broken broken, long peakReserved, long peakRequested, long driverCalls, double driverMicros,
                  long hostNanos, long[] curve, long[] requestedCurve) {
    /** Peak reserved over peak requested: 1.0 is perfect, 1.25 holds a quarter more than needed. */
    public double overhead() { return peakRequested == 0 ? 1.0 : (double) peakReserved / peakRequested; }

    /** Host time per event, in nanoseconds. */
    public double nanosPerEvent() { return events == 0 ? 0 : (double) hostNanos / events; }

    public boolean correct() { return broken == null; }
}
