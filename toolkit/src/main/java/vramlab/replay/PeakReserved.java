package vramlab.replay;

/**
 * The most a replay's allocator held from the driver (reserved bytes), and the most its live
 * blocks held (allocated bytes) while it held that much. The holes at the peak, {@code reserved()
 * - allocated()}, are then the slack at the peak's fullest moment, not at whichever event first
 * reached it.
 *
 * <p>The difference shows when a replay starts at its peak: a snapshot whose history begins with
 * its segments already reserved, replayed under a setting that never asks the driver for more
 * ({@code roundup_power2_divisions:4} on a training run whose segments were all made before the
 * history began). Its first event is its peak, and the holes there are the rebuilt start's, however
 * full the same segments were later: measured at the first event, {@code advise} put such a setting
 * at 59.5% holes while its peak reserved was the lowest of all.
 */
public final class PeakReserved {
    private long reserved = -1;
    private long allocated;
    private int raises;

    /** Sees the allocator's figures after one event; true when {@code reserved} is a new peak. */
    public boolean see(long reserved, long allocated) {
        if (reserved > this.reserved) {
            this.reserved = reserved;
            this.allocated = allocated;
            raises++;
            return true;
        }
        if (reserved == this.reserved && allocated > this.allocated) this.allocated = allocated;
        return false;
    }

    /** The peak of reserved bytes (0 before any event). */
    public long reserved() { return Math.max(reserved, 0); }

    /** The most live blocks held while the allocator held {@link #reserved()}. */
    public long allocated() { return allocated; }

    /**
     * Whether the first figures seen were the peak throughout: for a snapshot replay, whose first
     * figures are the state its history starts from, that the history never reserved more.
     */
    public boolean peakIsFirst() { return raises <= 1; }
}
