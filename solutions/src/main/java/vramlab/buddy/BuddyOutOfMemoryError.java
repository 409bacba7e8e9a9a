package vramlab.buddy;

/**
 * A buddy allocation that found no free block of a large enough order (or whose pages the
 * driver could not commit). The message carries the request, its order and the pool's
 * buddyinfo line, because the free blocks per order are what explain the failure.
 */
public final class BuddyOutOfMemoryError extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final long requested;
    private final int order;

    public BuddyOutOfMemoryError(String message, long requested, int order) {
        super(message);
        this.requested = requested;
        this.order = order;
    }

    /** The bytes the caller asked for. */
    public long requested() { return requested; }

    /** The order the request was rounded to. */
    public int order() { return order; }
}
