package vramlab.driver;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

import vramlab.units.Bytes;

/**
 * The host-side driver calls for page-locked memory: {@code cudaHostAlloc} /
 * {@code cudaFreeHost}, and {@code cudaHostRegister} / {@code cudaHostUnregister} over an
 * ordinary {@code malloc}. Each pin or unpin blocks the host for {@link HostCostModel} time.
 *
 * <p>Invariant: {@code pinnedBytes} is the sum of the sizes of the live pinned buffers.
 * Toy simplifications: addresses are 4 KiB aligned and never handed out twice (a real OS may
 * reuse them); host RAM has no capacity limit.
 */
public final class HostMemory {
    public static final long PAGE = 4 * Bytes.KiB;

    private final Clock clock;
    private final HostCostModel cost;
    private final Map<Long, HostBuffer> live = new LinkedHashMap<>();
    private long nextAddress = 0x7f00_0000_0000L;
    private long pinnedBytes;
    private long pageableBytes;
    private long hostAllocCalls, freeHostCalls, registerCalls, unregisterCalls;
    private long pinNanos, unpinNanos;

    public HostMemory(Clock clock, HostCostModel cost) {
        this.clock = clock;
        this.cost = cost;
    }

    public Clock clock() { return clock; }
    public HostCostModel cost() { return cost; }

    /** {@code cudaHostAlloc(size, cudaHostAllocDefault)}: new page-locked memory. */
    public HostBuffer cudaHostAlloc(long size) {
        checkSize("cudaHostAlloc", size);
        HostBuffer b = place(size, HostBuffer.Kind.HOST_ALLOC);
        pin(b, "cudaHostAlloc");
        hostAllocCalls++;
        return b;
    }

    /** {@code cudaFreeHost}: unlocks and returns the pages to the OS. */
    public void cudaFreeHost(HostBuffer b) {
        requireLive("cudaFreeHost", b, HostBuffer.Kind.HOST_ALLOC);
        unpin(b, "cudaFreeHost");
        b.live = false;
        live.remove(b.address());
        freeHostCalls++;
    }

    /** {@code malloc}: ordinary pageable memory, free of charge here. */
    public HostBuffer malloc(long size) {
        checkSize("malloc", size);
        HostBuffer b = place(size, HostBuffer.Kind.PAGEABLE);
        pageableBytes += size;
        return b;
    }

    /** {@code free} of a pageable buffer; a registered one must be unregistered first. */
    public void free(HostBuffer b) {
        requireLive("free", b, HostBuffer.Kind.PAGEABLE);
        b.live = false;
        live.remove(b.address());
        pageableBytes -= b.size();
    }

    /** {@code cudaHostRegister}: pins a pageable buffer in place, exactly its size. */
    public void cudaHostRegister(HostBuffer b) {
        requireLive("cudaHostRegister", b, HostBuffer.Kind.PAGEABLE);
        pageableBytes -= b.size();
        b.kind = HostBuffer.Kind.REGISTERED;
        pin(b, "cudaHostRegister");
        registerCalls++;
    }

    /** {@code cudaHostUnregister}: the buffer is pageable again (and still allocated). */
    public void cudaHostUnregister(HostBuffer b) {
        requireLive("cudaHostUnregister", b, HostBuffer.Kind.REGISTERED);
        unpin(b, "cudaHostUnregister");
        b.kind = HostBuffer.Kind.PAGEABLE;
        pageableBytes += b.size();
        unregisterCalls++;
    }

    public long pinnedBytes() { return pinnedBytes; }
    public long pageableBytes() { return pageableBytes; }
    public long hostAllocCalls() { return hostAllocCalls; }
    public long freeHostCalls() { return freeHostCalls; }
    public long registerCalls() { return registerCalls; }
    public long unregisterCalls() { return unregisterCalls; }
    /** Host time spent in pin calls (cudaHostAlloc, cudaHostRegister). */
    public long pinNanos() { return pinNanos; }
    /** Host time spent in unpin calls (cudaFreeHost, cudaHostUnregister). */
    public long unpinNanos() { return unpinNanos; }
    public Map<Long, HostBuffer> liveBuffers() { return Collections.unmodifiableMap(live); }

    /** Throws with the state when the pinned-bytes sum disagrees with the live buffers. */
    public void checkInvariants() {
        long pinned = 0;
        for (HostBuffer b : live.values()) if (b.pinned()) pinned += b.size();
        if (pinned != pinnedBytes) {
            throw new IllegalStateException("HostMemory: pinnedBytes " + pinnedBytes
                    + " but live pinned buffers sum to " + pinned + ": " + live.values());
        }
    }

    private HostBuffer place(long size, HostBuffer.Kind kind) {
        HostBuffer b = new HostBuffer(nextAddress, size, kind);
        nextAddress = Bytes.alignUp(nextAddress + size, PAGE);
        live.put(b.address(), b);
        return b;
    }

    private void pin(HostBuffer b, String call) {
        long start = clock.now();
        long t = cost.pinNanos(b.size());
        clock.advanceBy(t);
        pinNanos += t;
        pinnedBytes += b.size();
        clock.recordHost(call + " " + Bytes.formatSize(b.size()), start);
    }

    private void unpin(HostBuffer b, String call) {
        long start = clock.now();
        long t = cost.unpinNanos(b.size());
        clock.advanceBy(t);
        unpinNanos += t;
        pinnedBytes -= b.size();
        clock.recordHost(call + " " + Bytes.formatSize(b.size()), start);
    }

    private static void checkSize(String call, long size) {
        if (size <= 0) throw new IllegalArgumentException(call + ": size must be positive, was " + size);
    }

    private void requireLive(String call, HostBuffer b, HostBuffer.Kind kind) {
        if (!b.live || live.get(b.address()) != b) {
            throw new IllegalStateException(call + "(" + b + "): not a live host buffer");
        }
        if (b.kind != kind) {
            throw new IllegalStateException(call + "(" + b + "): expected a " + kind + " buffer");
        }
    }
}
