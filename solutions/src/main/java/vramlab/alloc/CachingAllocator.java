package vramlab.alloc;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.function.BooleanSupplier;

import vramlab.alloc.DeviceTrace.Action;
import vramlab.driver.GpuProcess;

/**
 * A caching allocator in the manner of PyTorch's {@code CUDACachingAllocator}
 * (c10/cuda/CUDACachingAllocator.cpp, 2024 main, cited as CCA:lines): segments from the
 * driver, cut into blocks; freed blocks are cached in a free set per pool and reused by best
 * fit; a block splits when the policy allows and merges with free neighbours when freed.
 * A {@link Policy} sets the numbers; the toy and PyTorch's rules share this one core.
 * This class holds PyTorch's malloc/free/split/merge path, the functions the chapters teach.
 *
 * <p>Beyond the toy, the core has PyTorch's streams ({@link #alloc(long, int)},
 * {@link #recordStream}; how a freed block waits for them: {@link StreamEvents}), the recovery
 * order on a failed cudaMalloc, {@link #memoryStats()} and a {@link #trace()} of
 * {@code device_traces} entries. What PyTorch keeps beside this path has a class of its own:
 * {@link ExpandableBlocks} (expandable segments), {@link CacheRelease} (memory back to the
 * driver), {@link GarbageCollection}, {@link MemoryFraction}, {@link FreeMemoryCallbacks},
 * {@link StatUpdates} (the statistics hooks) and {@link OutOfMemory} (the error); two are the
 * kit's own: {@link WholeSegmentRelease} (empty_cache's shortcut) and {@link SegmentPlacement}
 * (a replay's address hints).
 *
 * <p>Invariants, checked by {@link #checkInvariants()}:
 * <ul>
 *   <li>{@code requested <= allocated <= reserved};
 *   <li>the blocks of each segment tile it, and no two adjacent blocks could merge;
 *   <li>each pool's free set holds exactly the free, mapped, event-free blocks of that pool,
 *       and its unmapped set exactly the unmapped blocks;
 *   <li>{@code reserved} is the sum of the segments' device memory, and each cudaMalloc
 *       segment is a live cudaMalloc of that size in the driver;
 *   <li>the statistics agree with the blocks.
 * </ul>
 *
 * <p>Cost: {@code alloc} and {@code free} are O(log n) in the number of free blocks (expandable
 * segments add a walk over the few unmapped ranges of the pool). The free sets are
 * {@link FreeSet}s: {@code NavigableSet}s in exactly a {@code TreeSet}'s order, stored as
 * sorted arrays so that a search at 100k free blocks stays in cache.
 */
public final class CachingAllocator {
    /**
     * The allocator's view of CUDA events: it records event number {@code seq} on
     * {@code stream} when a block used there is freed ({@code cudaEventRecord}), and later asks
     * whether it has completed ({@code cudaEventQuery}). A driver with streams connects here.
     */
    @FunctionalInterface
    public interface EventQuery {
        boolean isComplete(int stream, long seq);

        /** Called when the allocator records event {@code seq} on {@code stream}. */
        default void recorded(int stream, long seq) {}
    }

    private final GpuProcess process;
    private final Policy policy;
    private final Map<PoolKind, FreeSet> freeBlocks = new EnumMap<>(PoolKind.class);
    private final Map<Integer, Segment> segments = new LinkedHashMap<>();
    private final MemoryStats stats = new MemoryStats();
    private final DeviceTrace trace = new DeviceTrace();
    private final StreamEvents events = new StreamEvents();
    private final FreeMemoryCallbacks freeMemoryCallbacks = new FreeMemoryCallbacks();
    private final MemoryFraction fraction;
    private final StatUpdates statUpdates;
    private final ExpandableBlocks expandable;
    private final GarbageCollection gc = new GarbageCollection(this);
    private final CacheRelease release;
    private final WholeSegmentRelease wholeRelease;
    private final OutOfMemory oom = new OutOfMemory(this);
    final SegmentPlacement placement = new SegmentPlacement(segments.values());
    private int nextSegmentId;
    private long requested;
    private long allocated;
    long reserved;                            // also written by ExpandableBlocks (map, unmap)
    private long liveBlocks;
    boolean fastRelease = true;               // tests turn the shortcuts off to compare
    private int expandableSegments;           // how many of the segments held are expandable

    /** {@link #expectSegmentAt}'s "no address expected". */
    public static final long NO_HINT = Long.MIN_VALUE;

    public CachingAllocator(GpuProcess process, Policy policy) {
        this.process = process;
        this.policy = policy;
        for (PoolKind k : PoolKind.values()) freeBlocks.put(k, new FreeSet(FreeSet.Order.STREAM_SIZE_ADDRESS));
        this.statUpdates = new StatUpdates(stats, policy);
        this.expandable = new ExpandableBlocks(this, freeBlocks, stats, trace);
        this.release = new CacheRelease(this, freeBlocks, statUpdates);
        this.wholeRelease = release.wholeRelease();
        this.fraction = new MemoryFraction(process, policy.wholeCardIsNoLimit());
        if (policy.memoryFraction() >= 0) setMemoryFraction(policy.memoryFraction());
    }

    public Policy policy() { return policy; }
    public GpuProcess process() { return process; }

    /** Sum of the callers' unrounded requests over live blocks. */
    public long requested() { return requested; }
    /** Sum of live block sizes: requested plus the rounding tax and unsplit remainders. */
    public long allocated() { return allocated; }
    /** Device memory held: cudaMalloc'd segments plus the mapped pages of expandable ones. */
    public long reserved() { return reserved; }
    /** Cached bytes no live block uses: {@code reserved - allocated}. */
    public long freeBytes() { return reserved - allocated; }
    public long liveBlocks() { return liveBlocks; }
    /** PyTorch's statistics, updated where the source updates them. */
    public MemoryStats memoryStats() { return stats; }
    /** The recorded history ({@code device_traces}); off until {@code trace().record(true, n)}. */
    public DeviceTrace trace() { return trace; }
    /** The per-process limit in bytes, or -1 when no memory fraction is set. */
    public long allowedMemory() { return fraction.allowedMemoryMaximum(); }

    public Collection<Segment> segments() { return Collections.unmodifiableCollection(segments.values()); }

    /** The free blocks of one pool, smallest first. */
    public List<Block> freeBlocks(PoolKind pool) { return new ArrayList<>(freeBlocks.get(pool)); }

    /** The largest cached free block in either pool, 0 when there is none. */
    public long largestFreeBlock() {
        // the two pools by name: no iterator per OOM (each one's report reads this)
        return Math.max(lastSize(freeBlocks.get(PoolKind.SMALL)), lastSize(freeBlocks.get(PoolKind.LARGE)));
    }

    private static long lastSize(FreeSet set) { return set.isEmpty() ? 0 : set.last().size; }

    /** {@code set_per_process_memory_fraction}: at most {@code fraction} of the device ({@link MemoryFraction}). */
    public void setMemoryFraction(double fraction) { this.fraction.set(fraction); }

    /** {@code get_per_process_memory_fraction}: the limit over the total, 1.0 when none is set. */
    public double memoryFraction() { return fraction.get(); }

    // tag::alloc[]
    /** Allocates {@code size} bytes on the default stream (0). */
    public Block alloc(long size) { return alloc(size, 0); }

    /**
     * Allocates {@code size} bytes for use on {@code stream} (CCA malloc, 1198-1382): round,
     * look in the pool's free set (again after the free-memory callbacks), else get new memory
     * from the driver (recovering as the policy says when it has none); then split off what
     * the policy allows. Size 0 is a null pointer and no malloc at all (CCA allocate, 3436).
     *
     * @throws CudaOutOfMemoryError when no cached block fits and the driver has no segment
     */
    public Block alloc(long size, int stream) {
        if (size == 0) return null;
        frontDoor(size);
        processEvents();
        long rounded = policy.roundSize(size);
        PoolKind kind = policy.poolFor(rounded);
        Block block = getFreeBlock(kind, stream, rounded);
        if (block == null && triggerFreeMemoryCallbacks()) block = getFreeBlock(kind, stream, rounded);
        if (block == null) block = newMemory(kind, stream, rounded, size);   // OOM is born here
        return allocFoundBlock(block, rounded, size);
    }
    // end::alloc[]

    /**
     * A replay counts OOMs as results: their errors then skip the stack trace ({@link OutOfMemory}),
     * and so do the driver's refusals this allocator catches ({@link GpuProcess#expectOoms}).
     */
    public void expectOoms(boolean expected) {
        oom.expect(expected);
        process.expectOoms(expected);
    }

    /** Negative sizes are the caller's bug; 1 EiB and more is PyTorch's up-front OOM. */
    private void frontDoor(long size) {
        if (size < 0) throw new IllegalArgumentException("alloc(" + size + "): size must not be negative");
        if (size >= OutOfMemory.ONE_EXA_BYTES) throw oom.overOneExaByte(size);
    }

    /** Registers a callback malloc runs when no cached block fits ({@link FreeMemoryCallbacks}). */
    public void addFreeMemoryCallback(BooleanSupplier callback) { freeMemoryCallbacks.add(callback); }

    private boolean triggerFreeMemoryCallbacks() { return freeMemoryCallbacks.trigger(); }

    /** Best fit on the default stream: {@link #findFreeBlock(NavigableSet, int, long)} with stream 0. */
    Block findFreeBlock(NavigableSet<Block> pool, long rounded) { return findFreeBlock(pool, 0, rounded); }

    // tag::find[]
    /**
     * Best fit: the smallest free block of this stream of at least {@code rounded} bytes, lowest address
     * first ({@code lower_bound} in CCA get_free_block, 2507-2509); null when no block of this stream
     * fits. The pool is ordered by (stream, size, address); {@link #probe} gives the key of a stream and size.
     */
    Block findFreeBlock(NavigableSet<Block> pool, int stream, long rounded) {
        // lab:begin 3.2 "Find a block" see ch03 "Rule 3: best fit from the pool's free set"
        Block found = pool.ceiling(probe(stream, rounded));
        return found != null && found.stream() == stream ? found : null;
        // lab:end
    }
    // end::find[]

    private static final Segment PROBE_SEGMENT = new Segment(-1, Long.MIN_VALUE, 0, PoolKind.LARGE, 0);

    private final Block streamZeroProbe = new Block(PROBE_SEGMENT, 0, 0, 0);

    /**
     * A stand-in block that sorts before every real block of this stream and size. A search
     * only reads it, so stream 0's (nearly every search) is one block reused: no garbage per
     * search, which matters where the JIT does not remove the allocation (the launcher's C1).
     */
    Block probe(int stream, long size) {
        Block p = stream == 0 ? streamZeroProbe : new Block(PROBE_SEGMENT, stream, 0, size);
        p.size = size;
        return p;
    }

    // tag::get-free-block[]
    /**
     * {@code get_free_block} (CCA:2498-2555): best fit, then PyTorch's extra rules. With
     * expandable segments a block counts as large as it could grow; with
     * {@code max_split_size}, a small request never takes an oversize block and an oversize
     * request takes only a block under its size plus 20 MiB.
     */
    private Block getFreeBlock(PoolKind kind, int stream, long rounded) {
        if (gc.enabled()) gc.countSearch(kind);
        FreeSet pool = freeBlocks.get(kind);
        Block b = findFreeBlock(pool, stream, rounded);
        if (b == null) return null;
        if (b.segment.isExpandable() && policy.expandableSegments()) {
            Block next = pool.higher(b);
            while (b.segment.isExpandable() && next != null && next.stream == stream
                    && expandableSize(next) < expandableSize(b)) {
                b = next;
                next = pool.higher(b);
            }
        }
        long maxSplit = policy.maxSplitSize();
        if (rounded < maxSplit && b.size >= maxSplit) return null;
        if (rounded >= maxSplit && b.size >= rounded + policy.oversizeSlack()) return null;
        pool.remove(b);
        return b;
    }
    // end::get-free-block[]

    /** A block of an expandable segment counts as large as it could grow: itself and the unmapped range after it. */
    private static long expandableSize(Block b) {
        return b.size + (b.next != null && !b.next.mapped ? b.next.size : 0);
    }

    // tag::recovery[]
    /**
     * New memory when the cache has none that fits, in PyTorch's order (CCA:1235-1255):
     * garbage-collect (with a memory fraction and a threshold), try the driver; then release
     * oversize cached blocks (only with {@code max_split_size}) and try again; then
     * synchronise, release every wholly free segment and try a last time; then OOM.
     */
    private Block newMemory(PoolKind kind, int stream, long rounded, long size) {
        long allocSize = policy.segmentSize(rounded);
        if (gc.enabled()) gc.collect();
        Block block = allocBlock(kind, stream, rounded, allocSize, false);
        if (block == null && policy.retriesBeforeOom()) {
            if (release.releaseAvailableCachedBlocks(kind, stream, rounded)) {
                block = allocBlock(kind, stream, rounded, allocSize, false);
            }
            if (block == null) {
                release.releaseCachedBlocks();
                block = allocBlock(kind, stream, rounded, allocSize, true);
            }
        }
        if (block == null) throw oom.afterRecovery(kind, stream, rounded, allocSize, size);
        return block;
    }
    // end::recovery[]

    /**
     * {@code alloc_block} (CCA:2630-2722): one cudaMalloc of the segment size, or pages of an
     * expandable segment. Returns null when the driver (or the memory fraction) says no.
     */
    private Block allocBlock(PoolKind kind, int stream, long rounded, long allocSize, boolean isRetry) {
        if (isRetry) stats.numAllocRetries++;
        if (fraction.refuses(reserved + allocSize)) return null;
        if (policy.expandableSegments()) return expandable.tryAllocate(kind, stream, rounded);
        return cudaMallocSegment(kind, stream, allocSize);
    }

    /** One cudaMalloc, made a segment of one free block (not yet in the free set); null on OOM. */
    Block cudaMallocSegment(PoolKind kind, int stream, long allocSize) {
        long ptr = process.tryCudaMalloc(allocSize);
        if (ptr == 0) return null;
        Segment segment = new Segment(newSegmentId(), placement.address(ptr, allocSize), ptr, allocSize,
                kind, stream, null);
        segment.first = new Block(segment, 0, allocSize);
        adopt(segment);
        reserved += allocSize;
        statUpdates.segmentAllocated(kind, allocSize);
        trace.add(Action.SEGMENT_ALLOC, segment.address, allocSize, stream);
        return segment.first;
    }

    /**
     * A replay of a recorded run says where that run's next segment began, so that best-fit
     * ties break as they did there ({@link SegmentPlacement}): the next segment this allocator
     * makes takes {@code address} unless it would overlap one it holds; {@link #NO_HINT} clears
     * it. Without a hint a segment takes the driver's pointer.
     */
    public void expectSegmentAt(long address) { placement.expect(address); }

    int newSegmentId() { return nextSegmentId++; }

    /** {@code alloc_found_block} (CCA:1384-1474): split, mark live, count. */
    private Block allocFoundBlock(Block block, long rounded, long size) {
        boolean alreadySplit = block.isSplit();
        Block remainder = splitIfAllowed(block, rounded, freeBlocks.get(block.segment.pool));
        return markAllocated(block, size, alreadySplit, remainder);
    }

    /** The rest of {@code alloc_found_block}: the split statistics, then the block is live. */
    Block markAllocated(Block block, long size, boolean alreadySplit, Block remainder) {
        statUpdates.blockAllocated(block, size, alreadySplit, remainder);
        block.allocated = true;
        block.requested = size;
        requested += size;
        allocated += block.size;
        liveBlocks++;
        trace.add(Action.ALLOC, block.address(), size, block.stream);
        return block;
    }

    // tag::split[]
    /**
     * [block .................] -> [block rounded][remainder FREE], if the policy allows. The
     * new block is carved from the front (CCA:1401-1417). Returns the remainder, or null.
     */
    private Block splitIfAllowed(Block block, long rounded, NavigableSet<Block> pool) {
        if (!policy.shouldSplit(block.segment.pool, block.size, rounded)) return null;
        return splitFront(block, rounded, pool);
    }

    /** [block .........] -> [block rounded][remainder FREE], the remainder cached. */
    Block splitFront(Block block, long rounded, NavigableSet<Block> pool) {
        Block remainder = new Block(block.segment, block.stream, block.offset + rounded, block.size - rounded);
        remainder.prev = block;
        remainder.next = block.next;
        if (block.next != null) block.next.prev = remainder;
        block.next = remainder;
        block.size = rounded;
        cache(remainder, pool);
        return remainder;
    }
    // end::split[]

    /** Puts a free block into its set, stamping its age for garbage collection. */
    void cache(Block b, NavigableSet<Block> pool) {
        gc.stamp(b);
        if (!b.isSplit()) wholeRelease.note(b);
        if (b.segment.isExpandable()) expandable.noteCached(b);
        pool.add(b);
    }

    /**
     * {@code record_stream}: {@code block} is also used on {@code stream}, so its memory may be
     * reused only after that stream's work queued so far has run (CCA:1570-1581). Uses on the
     * block's own stream need nothing.
     */
    public void recordStream(Block block, int stream) {
        if (!block.allocated) throw new IllegalArgumentException("recordStream(" + block + "): block is not live");
        StreamEvents.recordStream(block, stream);
    }

    /** Segments record their allocator, so {@code free} checks ownership without a map lookup. */
    void adopt(Segment s) {
        if (s.isExpandable()) expandableSegments++;
        segments.put(s.id, s);
        placement.add(s);
        s.owner = this;
    }

    void disown(Segment s) {
        if (s.isExpandable()) expandableSegments--;
        segments.remove(s.id);
        placement.remove(s);
        s.owner = null;
    }

    // tag::free[]
    /**
     * Frees a live block (CCA:1476-1525). {@code allocated} drops now; if other streams used the
     * block, one event is recorded per stream and the rest waits for them; otherwise the block
     * merges with free neighbours and goes back to its pool's free set.
     */
    public void free(Block block) {
        if (block == null) return;                  // a null pointer: nothing (CCA free)
        if (block.segment.owner != this) {
            throw new IllegalArgumentException("free(" + block + "): not a block of this allocator");
        }
        if (!block.allocated) throw new IllegalArgumentException("free(" + block + "): block already free");
        if (block.hasStreamUses()) {
            freeRequested(block, block.size);
            events.insert(block);
        } else {
            freeBlock(block, true);
        }
    }

    /** {@code allocated} drops: the block is no longer the caller's, though its memory may still be in use. */
    private void freeRequested(Block block, long size) {
        block.allocated = false;
        allocated -= size;
        requested -= block.requested;
        liveBlocks--;
        statUpdates.blockFreed(block.segment.pool, size);
        trace.add(Action.FREE_REQUESTED, block.address(), block.requested, block.stream);
    }
    // end::free[]

    /** {@code free_block} (CCA:2331-2408), after a stream's events retired: merge, cache, count it inactive. */
    private void freeBlock(Block block) { freeBlock(block, false); }

    /**
     * {@code free_block} (CCA:2331-2408): merge, cache, and only now count it inactive; with
     * {@code requested}, the block was live until this call, and {@code allocated} drops too.
     * The merge (step 3.4) runs before any book changes: in a student's cores where it is not
     * written yet its Todo leaves the allocator as it was, so the next call works, or names the
     * step again, rather than failing on a block half freed (free but in no free set).
     */
    private void freeBlock(Block block, boolean requested) {
        long originalSize = block.size;
        long req = block.requested;
        long address = block.address();
        long absorbed = 0, absorbedBytes = 0;       // free split neighbours the merge takes in
        if (canMerge(block.prev, block)) { absorbed++; absorbedBytes += block.prev.size; }
        if (canMerge(block.next, block)) { absorbed++; absorbedBytes += block.next.size; }
        FreeSet pool = freeBlocks.get(block.segment.pool);
        boolean wasAllocated = block.allocated;
        block.allocated = false;                    // the merge sees the block free, as it now is
        Block merged;
        try {
            merged = mergeWithNeighbours(block, pool);
        } catch (vramlab.lab.Todo notWritten) {
            block.allocated = wasAllocated;
            throw notWritten;
        }
        if (requested) freeRequested(block, originalSize);
        trace.add(Action.FREE_COMPLETED, address, req, block.stream);
        block.requested = 0;
        cache(merged, pool);
        statUpdates.blockInactive(merged, absorbed, absorbedBytes, originalSize, req);
    }

    // tag::merge[]
    /**
     * [FREE a][block][FREE c] -> [FREE a+block+c], never across segments (neighbours share one by
     * construction). A neighbour {@link #canMerge} accepts leaves {@code pool} first (ordered by size
     * and address); the left block takes the right one's bytes and links ({@code absorbNext}), so the
     * result is {@code a} grown when {@code a} merges (the segment's {@code first} may point at it),
     * else {@code block} grown. Not yet in the free set; {@code pool} is the neighbours' set.
     */
    Block mergeWithNeighbours(Block block, NavigableSet<Block> pool) {
        // lab:begin 3.4 "Merge on free" see ch03 "Rule 5: merge with free neighbours"
        Block prev = block.prev;
        if (canMerge(prev, block)) {
            pool.remove(prev);
            absorbNext(prev);
            block = prev;
        }
        Block next = block.next;
        if (canMerge(next, block)) {
            pool.remove(next);
            absorbNext(block);
        }
        return block;
        // lab:end
    }
    // end::merge[]

    /**
     * {@code try_merge_blocks}'s test (CCA:2412-2443): the neighbour exists, is free, has no
     * pending events or stream uses, and is mapped exactly when the block is.
     */
    static boolean canMerge(Block neighbour, Block block) {
        return neighbour != null && !neighbour.allocated && neighbour.eventCount == 0
                && !neighbour.hasStreamUses() && neighbour.mapped == block.mapped;
    }

    /** [a][b] -> [a+b]: {@code a} takes over its next neighbour's bytes and links. */
    private static void absorbNext(Block a) {
        Block b = a.next;
        a.size += b.size;
        a.next = b.next;
        if (b.next != null) b.next.prev = a;
    }

    // ---- streams and events (the queue itself is StreamEvents) -------------------------

    /**
     * The simulated GPU has run all work queued on {@code stream} so far: every event recorded
     * there until now is complete. The blocks they held are collected by the next
     * {@link #processEvents()} (the next {@code alloc} runs it).
     */
    public void completeStream(int stream) { events.completeStream(stream); }

    /** Replaces how events are queried: the hook for a driver with real streams and events. */
    public void setEventQuery(EventQuery query) { events.setQuery(query); }

    /** Number of events still pending. */
    public int pendingEvents() { return events.pending(); }

    /**
     * {@code process_events} (CCA:3031-3071): per stream, in order, collect completed events,
     * stopping at the first that is not; a block whose last event completes is freed for real.
     */
    public void processEvents() {
        if (!events.isEmpty()) events.process(this::freeBlock);
    }

    /**
     * {@code synchronize_and_free_events} (CCA:2948-2973): wait for every pending event, as a
     * device-wide synchronise does, and free the blocks they held.
     */
    public void synchronize() {
        stats.numSyncAllStreams++;
        if (events.isEmpty()) return;   // nothing pending: no walk, no method reference made (issue 38)
        events.synchronizeAll(this::freeBlock);
    }

    /**
     * {@code empty_cache} (CCA:1594-1598): wait for pending events, release every segment that
     * is entirely free, and unmap the whole free pages of expandable segments ({@link
     * CacheRelease}). Returns the bytes given back to the driver. A segment with one live block
     * keeps all of its bytes.
     */
    public long emptyCache() { return release.releaseCachedBlocks(); }

    /** The two pools by name: no iterator per empty_cache under C1. */
    int freeBlockCount() { return freeBlocks.get(PoolKind.SMALL).size() + freeBlocks.get(PoolKind.LARGE).size(); }

    /** Checks every invariant in the class comment; throws with the segment map if one fails. */
    public void checkInvariants() { new AllocatorCheck(this).run(); }

    FreeSet freeSet(PoolKind pool) { return freeBlocks.get(pool); }
    List<Block> wholeCached() { return wholeRelease.wholeCached(); }
    CacheRelease release() { return release; }
    int expandableSegmentCount() { return expandableSegments; }
    FreeSet unmappedSet(PoolKind pool) { return expandable.unmappedSet(pool); }
    ExpandableBlocks expandable() { return expandable; }

    @Override
    public String toString() { return SegmentMap.text(this); }
}
