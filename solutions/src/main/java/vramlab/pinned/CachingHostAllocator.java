package vramlab.pinned;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import vramlab.driver.CudaEvent;
import vramlab.driver.HostBuffer;
import vramlab.driver.HostMemory;
import vramlab.driver.Stream;

/**
 * PyTorch's caching host (pinned) allocator, {@code CachingHostAllocatorImpl} in
 * aten/src/ATen/core/CachingHostAllocator.h (CHA.h) @0445633 with the CUDA parts of
 * aten/src/ATen/cuda/CachingHostAllocator.cpp @03258ab; its CUDA-graph rules are those of the
 * later CHA.h with private pools (see {@link #fateOf}).
 *
 * <p>Rules: round every request up to a power of two; keep free blocks in one list per
 * power-of-two bucket ({@link FreeLists}) and reuse the block nearest the back of the request's
 * bucket that is at least as large, which is the last freed block of that size while every
 * request is rounded ({@link #takeFree}); never split; a freed block that a stream used waits until the event
 * recorded at free retires; events retire lazily, oldest first, at the next allocate or
 * empty_cache; a block allocated during a graph capture is kept for that graph; nothing goes
 * back to the OS except by {@link #emptyCache()}.
 *
 * <p>Invariants ({@link #checkInvariants()}): each owned block is in exactly one state
 * (checked out, waiting, free list, parked); free-list blocks have no pending events and are
 * filed in their size's bucket, in the default pool unless a capture allocated them, then in that
 * capture's pool; {@code owned} is the sum of the owned blocks and {@code active} the sum of
 * those not on a free list; {@code numHostAlloc - numHostFree} is the number of blocks.
 */
public final class CachingHostAllocator {
    /** What happens to a block once it is free and its events have retired. */
    public enum Fate { CACHE, RELEASE, PARK }

    private record PendingEvent(CudaEvent event, HostBlock block) {}

    private final HostMemory host;
    private final PinnedConfig config;
    private final Set<HostBlock> blocks = new LinkedHashSet<>();
    /** The default pool's free lists: one per power-of-two bucket (CHA.h {@code free_list_}). */
    private final FreeLists freeLists = new FreeLists();
    /** The private pools of graph captures: capture id -> its free lists (CHA.h graph_pools_). */
    private final Map<Integer, FreeLists> graphPools = new TreeMap<>();
    private int capture;                 // the current capture's pool id; 0 outside a capture
    /** Newest event at the front, oldest at the back (CHA.h push_front / pop back). */
    private final Deque<PendingEvent> events = new ArrayDeque<>();
    private final List<HostBlock> parked = new ArrayList<>();
    private ReserveSegment reserve;
    private boolean eventsEnabled = true;
    private boolean capturing;
    private long owned, ownedPeak, active, activeRequests;
    private long numHostAlloc, numHostFree, hostAllocNanos, hostFreeNanos;

    public CachingHostAllocator(HostMemory host, PinnedConfig config) {
        this.host = host;
        this.config = config;
    }

    public CachingHostAllocator(HostMemory host) { this(host, PinnedConfig.DEFAULT); }

    public PinnedConfig config() { return config; }
    public HostMemory host() { return host; }

    /**
     * The lab's switch, NOT a PyTorch option: with events off, a freed block goes straight back
     * to its free list even while a copy still reads it. Only for showing the corruption.
     */
    public void setEventsEnabled(boolean on) { this.eventsEnabled = on; }
    public boolean eventsEnabled() { return eventsEnabled; }

    // tag::round[]
    /**
     * The block size for a request: the next power of two (CHA.h {@code PowerOf2Ceil}), or the
     * exact size when the request is above {@code pinned_max_round_threshold_mb} or
     * {@code pinned_max_cached_size_mb} (options of pytorch/pytorch#171662, PyTorch 2.13; see
     * {@link PinnedConfig}).
     */
    public long roundSize(long size) {
        // lab:begin 7.1 "Round to a power of two" see ch07 "Rule 1: round up to a power of two"
        if (size > config.maxRoundThreshold() || size > config.maxCachedSize()) {
            return size;                      // exact size above either threshold
        }
        long p = Long.highestOneBit(size);
        return p == size ? size : Math.multiplyExact(p, 2L);
        // lab:end
    }
    // end::round[]

    /** {@code torch.empty(size, pin_memory=True)}'s allocation; null for size 0 (CHA.h). */
    public HostBlock allocate(long size) {
        if (size < 0) throw new IllegalArgumentException("allocate: negative size " + size);
        if (size == 0) return null;
        if (!config.useBackgroundThreads() && !events.isEmpty()) processEvents();
        long round = roundSize(size);
        HostBlock b = takeFree(round);
        if (b == null && config.useBackgroundThreads()) {
            processEventsForSize(round);
            b = takeFree(round);
        }
        if (b == null) {
            b = newBlock(round);
            b.pool = capture;                // was_allocated_during_stream_capture_, owning_pool_
        }
        b.allocated = true;
        active += b.size();
        activeRequests++;
        return b;
    }

    /**
     * Copy.cu's {@code record_event}: a non-blocking copy on {@code s} used the block. It only
     * adds the stream (CHA.h {@code record_event}); whether a capture is under way does not
     * matter here, only whether the block was allocated during one.
     */
    public void recordEvent(HostBlock b, Stream s) {
        requireOwned("recordEvent", b);
        if (!b.allocated) throw new IllegalStateException("recordEvent(" + b + "): block is not in use");
        if (eventsEnabled) b.streams.add(s);
    }

    // tag::free[]
    /**
     * The last reference dropped: the block waits for its streams, then becomes free. A block
     * allocated during a capture records no events ({@code cudaEventRecord} means nothing
     * while a capture runs), so its fate is decided at once.
     */
    public void free(HostBlock b) {
        requireOwned("free", b);
        if (!b.allocated) throw new IllegalStateException("free(" + b + "): block already free");
        b.used = !b.streams.isEmpty();
        if (!b.used || b.captured()) {
            Fate fate = fateOf(b);          // decided before the books change (see makeAvailable)
            b.allocated = false;
            b.streams.clear();
            makeAvailable(b, fate);
            return;
        }
        b.allocated = false;
        for (Stream s : b.streams) events.addFirst(new PendingEvent(s.recordEvent(), b));
        b.eventCount += b.streams.size();
        b.streams.clear();
    }
    // end::free[]

    // tag::fate[]
    /**
     * Where a free block goes once its events retired (or at once when it had none). A block
     * allocated during a capture that a stream used is never recycled: the graph replays into
     * it (CHA.h {@code free}: its {@code event_count_} never returns to 0; PR #161583). Any
     * other block larger than {@code pinned_max_cached_size_mb} ({@link PinnedConfig#maxCachedSize},
     * the block's own size, rounded, compared) is released to the OS instead of cached
     * ({@code maybe_cache_block}, pytorch/pytorch#171662). The rest are cached, an unused captured
     * one in its capture's private pool ({@link #takeFree}).
     */
    public Fate fateOf(HostBlock b) {
        // lab:begin 7.2 "Never recycle a captured block" see ch07 "Rule 3: graphs keep their blocks"
        if (b.captured() && b.used()) return Fate.PARK;         // a graph holds its address forever
        if (b.size() > config.maxCachedSize()) return Fate.RELEASE;
        return Fate.CACHE;
        // lab:end
    }
    // end::fate[]

    private void makeAvailable(HostBlock b) { makeAvailable(b, fateOf(b)); }

    /**
     * {@code b} goes where {@code fate} says. {@code free} asks {@link #fateOf} before it marks the
     * block free: in a student's cores where step 7.2 is not written yet, its Todo then leaves the
     * block allocated, so the next call works or names the step again, rather than failing on a
     * block that is free yet on no list.
     */
    private void makeAvailable(HostBlock b, Fate fate) {
        switch (fate) {
            case PARK -> parked.add(b);       // never reaches a free list, so stays "active"
            case RELEASE -> { active -= b.size(); activeRequests--; release(b); }
            case CACHE -> {
                active -= b.size();
                activeRequests--;
                lists(b.pool).add(b);
            }
        }
    }

    // tag::events[]
    /** Retires events oldest first and stops at the first one not yet complete (CHA.h). */
    public void processEvents() {
        // lab:begin 7.3 "Reuse only when the events retired" see ch07 "Rule 2: a freed block waits for its events"
        while (!events.isEmpty()) {
            PendingEvent oldest = events.peekLast();
            if (!oldest.event().query()) return;          // lazily: try again next time
            events.pollLast();
            HostBlock b = oldest.block();
            if (--b.eventCount == 0) makeAvailable(b);
        }
        // lab:end
    }
    // end::events[]

    /**
     * With background threads on, allocate looks only at events of the size it needs (CHA.h
     * {@code process_events_for_specific_size}). Toy simplification: no thread polls every
     * 100 us; between allocations the queue simply waits.
     */
    private void processEventsForSize(long size) {
        for (Iterator<PendingEvent> it = events.descendingIterator(); it.hasNext(); ) {
            PendingEvent p = it.next();
            if (p.block().size() != size || !p.event().query()) continue;
            it.remove();
            if (--p.block().eventCount == 0) { makeAvailable(p.block()); return; }
        }
    }

    // tag::empty[]
    /** {@code empty_host_cache()}: frees every block on a free list, and nothing else. */
    public long emptyCache() {
        // lab:begin 7.4 "empty_host_cache" see ch07 "Giving it back: empty_host_cache"
        if (!events.isEmpty()) processEvents();
        long freed = 0;
        for (HostBlock b : freeLists.drain()) { freed += b.size(); release(b); }   // bucket by bucket
        return freed;
        // lab:end
    }
    // end::empty[]

    /** Drops a block from the allocator; a reserve-segment block's pages stay pinned. */
    private void release(HostBlock b) {
        blocks.remove(b);
        owned -= b.size();
        numHostFree++;
        if (!b.fromReserve()) {
            long before = host.unpinNanos();
            host.cudaFreeHost(b.buffer);
            hostFreeNanos += host.unpinNanos() - before;
        }
    }

    /**
     * A free block for a request of {@code size} bytes (already rounded), from the pool the
     * current stream allocates from: the running capture's private pool, else the default one
     * ({@code get_allocation_pool_for_current_stream}). {@link FreeLists#take} is CHA.h's
     * {@code get_free_block}: in the request's bucket, the block nearest the back that is at
     * least as large. When every request is rounded (the default) a bucket holds one size and
     * this is the last freed block of the request's size; only {@code pinned_max_round_threshold_mb}
     * below {@code pinned_max_cached_size_mb} caches unrounded blocks, and then a request may get
     * a larger block of its bucket (pytorch/pytorch#192722, PyTorch 2.14. Before it, 2.13 took
     * the back block even when it was smaller than the request: the heap overflow that PR
     * fixed. The kit does not model it.)
     */
    private HostBlock takeFree(long size) {
        return lists(capture).take(size);
    }

    private FreeLists lists(int pool) {
        return pool == 0 ? freeLists : graphPools.computeIfAbsent(pool, k -> new FreeLists());
    }

    private HostBlock newBlock(long size) {
        long before = host.pinNanos();
        HostBlock b = carveFromReserve(size);
        if (b == null) {
            HostBuffer buf = host.cudaHostAlloc(size);
            b = new HostBlock(buf.address(), size, buf);
        }
        hostAllocNanos += host.pinNanos() - before;
        blocks.add(b);
        owned += size;
        ownedPeak = Math.max(ownedPeak, owned);
        numHostAlloc++;
        return b;
    }

    private HostBlock carveFromReserve(long size) {
        if (config.reserveSegmentSize() == 0) return null;
        if (reserve == null) reserve = new ReserveSegment(host.cudaHostAlloc(config.reserveSegmentSize()));
        long address = reserve.carve(size);
        return address < 0 ? null : new HostBlock(address, size, null);
    }

    /**
     * A graph capture begins: until {@link #endCapture}, new blocks belong to its private pool
     * and allocations draw on that pool ({@code begin_allocate_to_pool}). Each capture here
     * gets a pool of its own; the kit never releases a graph, so a pool is never freed.
     */
    public void beginCapture() {
        capturing = true;
        capture = graphPools.size() + 1;
        graphPools.put(capture, new FreeLists());
    }

    public void endCapture() {
        capturing = false;
        capture = 0;
    }

    public boolean capturing() { return capturing; }

    public HostStats stats() {
        return new HostStats(blocks.size(), owned, ownedPeak, activeRequests, active,
                numHostAlloc, numHostFree, hostAllocNanos, hostFreeNanos);
    }

    /** Every owned block, in creation order. */
    public Collection<HostBlock> blocks() { return Collections.unmodifiableSet(blocks); }
    /**
     * Blocks on the default pool's free lists, grouped by size, each group oldest first: a view
     * for reading sizes; the allocator keeps them by bucket ({@link #freeBuckets(int)}).
     */
    public Map<Long, List<HostBlock>> freeLists() { return freeLists(0); }

    /** {@link #freeLists()} for a pool: 0 the default one, else the capture that made it. */
    public Map<Long, List<HostBlock>> freeLists(int pool) {
        return pool == 0 || graphPools.containsKey(pool) ? lists(pool).bySize() : Map.of();
    }

    /**
     * A pool's free lists as the allocator keeps them: the non-empty buckets by
     * {@code size_index} (bucket {@code i} holds sizes in {@code (2^(i-1), 2^i]}), each list
     * front (oldest) to back (the next to be reused).
     */
    public Map<Integer, List<HostBlock>> freeBuckets(int pool) {
        return pool == 0 || graphPools.containsKey(pool) ? lists(pool).byBucket() : Map.of();
    }
    public int pendingEvents() { return events.size(); }
    public List<HostBlock> parked() { return Collections.unmodifiableList(parked); }
    /** Bytes of the reserve slab (0 when none was pinned); never freed. */
    public long reserveSlabBytes() { return reserve == null ? 0 : reserve.slab().size(); }

    private void requireOwned(String op, HostBlock b) {
        if (b == null || !blocks.contains(b)) {
            throw new IllegalStateException(op + "(" + b + "): not a block of this allocator");
        }
    }

    /** A text picture of the allocator: one line per block, then the counters. */
    public String map() {
        StringBuilder sb = new StringBuilder();
        for (HostBlock b : blocks) sb.append("  ").append(b).append('\n');
        return sb.append("  ").append(stats()).append(", pending events=").append(events.size())
                .append('\n').toString();
    }

    /** Checks every invariant in the class comment; throws with {@link #map()} on failure. */
    public void checkInvariants() {
        Map<HostBlock, Integer> seen = new IdentityHashMap<>();
        long sumOwned = 0, sumActive = 0, checkedOut = 0;
        for (HostBlock b : blocks) sumOwned += b.size();
        Map<Integer, FreeLists> pools = new TreeMap<>(graphPools);
        pools.put(0, freeLists);
        for (Map.Entry<Integer, FreeLists> pool : pools.entrySet()) {
            for (Map.Entry<Integer, List<HostBlock>> e : pool.getValue().byBucket().entrySet()) {
                for (HostBlock b : e.getValue()) {
                    check(FreeLists.sizeIndex(b.size()) == e.getKey(), b + " filed in bucket " + e.getKey());
                    check(!b.allocated && b.eventCount == 0, b + " on a free list");
                    check(b.pool == pool.getKey(), b + " on the free lists of pool " + pool.getKey());
                    check(blocks.contains(b), b + " on a free list but not owned");
                    check(seen.put(b, 1) == null, b + " twice in free lists");
                }
            }
        }
        Map<HostBlock, Integer> counted = new IdentityHashMap<>();
        for (PendingEvent p : events) counted.merge(p.block(), 1, Integer::sum);
        for (HostBlock b : blocks) {
            if (seen.containsKey(b)) continue;
            sumActive += b.size();
            int states = (b.allocated ? 1 : 0) + (b.eventCount > 0 ? 1 : 0)
                    + (parked.contains(b) ? 1 : 0);
            check(states == 1, b + " is in " + states + " states");
            check(counted.getOrDefault(b, 0) == b.eventCount, b + " event count vs queue");
            if (b.allocated) checkedOut++;
            if (!b.fromReserve()) check(b.buffer.live() && b.buffer.pinned(), b + " not pinned");
        }
        check(sumOwned == owned, "owned " + owned + " != sum of blocks " + sumOwned);
        check(sumActive == active, "active " + active + " != sum of unfree blocks " + sumActive);
        check(numHostAlloc - numHostFree == blocks.size(), "alloc - free != number of blocks");
        check(checkedOut + events.stream().map(PendingEvent::block).distinct().count()
                + parked.size() == activeRequests, "active requests " + activeRequests);
    }

    private void check(boolean ok, String what) {
        if (!ok) throw new IllegalStateException("CachingHostAllocator: " + what + "\n" + map());
    }
}
