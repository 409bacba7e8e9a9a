package vramlab.pinned;

import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Set;

import vramlab.driver.Buffer;
import vramlab.driver.HostBuffer;
import vramlab.driver.Stream;
import vramlab.units.Bytes;

/**
 * One pinned block, as PyTorch's {@code HostBlock} (CHA.h): a whole power-of-two (or exact)
 * allocation, never split. The caller writes into it and copies from or to it.
 *
 * <p>State, exactly one of: checked out ({@code allocated}); waiting for events
 * ({@code !allocated && eventCount > 0}); on a free list (its pool's); parked forever because a
 * graph capture allocated it and a stream used it ({@link #captured()} and {@code used}).
 */
public final class HostBlock implements Buffer {
    private final long address;
    private final long size;
    /** The cudaHostAlloc this block is, or null when it is carved from the reserve segment. */
    final HostBuffer buffer;
    boolean allocated;
    /** Streams that used the block since it was handed out (CHA.h {@code streams_}). */
    final Set<Stream> streams = new LinkedHashSet<>();
    /** Events recorded at free and not yet retired (CHA.h {@code event_count_}). */
    int eventCount;
    /** The private pool of the capture that allocated it (CHA.h {@code owning_pool_}); 0: none. */
    int pool;
    /** A stream used it between its allocation and its last free. */
    boolean used;
    private long contents;

    HostBlock(long address, long size, HostBuffer buffer) {
        this.address = address;
        this.size = size;
        this.buffer = buffer;
    }

    @Override public long address() { return address; }
    /** The block's size: the rounded request, not what the caller asked for. */
    @Override public long size() { return size; }
    @Override public long contents() { return contents; }
    /** The host writes into the block (fills a batch). */
    @Override public void store(long tag) { contents = tag; }

    public boolean allocated() { return allocated; }
    public int eventCount() { return eventCount; }
    /** Allocated while a graph capture ran ({@code was_allocated_during_stream_capture_}). */
    public boolean captured() { return pool != 0; }
    /** Whether a stream used it between its allocation and its last free (set at free). */
    public boolean used() { return used; }
    /** The capture pool it belongs to, 0 for the default pool. */
    public int pool() { return pool; }
    public boolean fromReserve() { return buffer == null; }
    public Set<Stream> streams() { return Collections.unmodifiableSet(streams); }

    @Override public String toString() {
        String state = allocated ? "in use" : eventCount > 0 ? "waiting " + eventCount + " event(s)"
                : captured() && used ? "captured" : "free";
        return "pinned@0x" + Long.toHexString(address) + "[" + Bytes.formatSize(size) + ", " + state + "]";
    }
}
