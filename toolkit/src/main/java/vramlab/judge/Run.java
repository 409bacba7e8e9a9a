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
 * @param hostNanos     wall-clock time spent inside the entry's calls (measured, varies run to run), or
 *                      {@link #NOT_MEASURED} for a recorded run whose time was left out (a release's)
 * @param curve         memory held from the driver, the highest in each of {@link Judge#CURVE_POINTS} even
 *                      slices of the events (for the leaderboard page)
 * @param requestedCurve bytes requested by live blocks, the same way
 */
public record Run(String entry, String workload, long card, long events, boolean fit, long oomStep, String oom,
                  Broken broken, long peakReserved, long peakRequested, long driverCalls, double driverMicros,
                  long hostNanos, long[] curve, long[] requestedCurve) {
    /** {@code hostNanos} of a run whose host time is not known here. */
    public static final long NOT_MEASURED = -1;

    /** Peak reserved over peak requested: 1.0 is perfect, 1.25 holds a quarter more than needed. */
    public double overhead() { return peakRequested == 0 ? 1.0 : (double) peakReserved / peakRequested; }

    /** Whether the host time was measured (by this run, or by the run a recording kept). */
    public boolean hostTimeMeasured() { return hostNanos != NOT_MEASURED; }

    /** Host time per event, in nanoseconds (NaN when {@linkplain #hostTimeMeasured not measured}). */
    public double nanosPerEvent() { return !hostTimeMeasured() ? Double.NaN : events == 0 ? 0 : (double) hostNanos / events; }

    /** The host time per event as the table and the CSV print it: whole nanoseconds, or {@code none} when not measured. */
    public String nanosPerEvent(String none) {
        return hostTimeMeasured() ? String.format(java.util.Locale.ROOT, "%.0f", nanosPerEvent()) : none;
    }

    /** This run with its host time left out ({@link #NOT_MEASURED}): every other figure is exact and repeatable. */
    public Run withoutHostTime() {
        return new Run(entry, workload, card, events, fit, oomStep, oom, broken, peakReserved, peakRequested, driverCalls,
                driverMicros, NOT_MEASURED, curve, requestedCurve);
    }

    public boolean correct() { return broken == null; }
}
