package vramlab.alloc;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.TreeMap;
import java.util.function.BooleanSupplier;

import vramlab.alloc.DeviceTrace.Action;
import vramlab.driver.CudaException;
import vramlab.driver.GpuProcess;

/**
 * A caching allocator in the manner of PyTorch's {@code CUDACachingAllocator}
 * (c10/cuda/CUDACachingAllocator.cpp, 2024 main, cited as CCA:lines): segments from the
 * driver, cut into blocks; freed blocks are cached in a free set per pool and reused by best
 * fit; a block splits when the policy allows and merges with free neighbours when freed.
 * A {@link Policy} sets the numbers; the toy and PyTorch's rules share this one core.
 *
 * <p>Beyond the toy, the core has PyTorch's streams ({@link #alloc(long, int)},
 * {@link #recordStream}), the recovery order on a failed cudaMalloc, garbage collection under a
 * memory fraction, expandable segments on the driver's VMM calls, {@link #memoryStats()} and a
 * {@link #trace()} of {@code device_traces} entries.
 *
 * <p><b>Streams and events.</b> A block belongs to the stream it was allocated on. When a block
 * that {@link #recordStream} marked is freed, the allocator records one event per other stream
 * and the block stays pending ("active") until they complete. The simulator has no GPU, so
 * an event completes when someone says so: {@link #completeStream(int)} (that stream's work up
 * to now has run), {@link #synchronize()} (every stream), or a custom {@link EventQuery} set by
 * {@link #setEventQuery} (the hook for the driver's streams and events). Completed events are
 * collected by {@link #processEvents()}, which every {@code alloc} runs first (CCA:1208-1220).
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
    /** Free blocks ordered as PyTorch orders its pools: (stream, size, address) (CCA:746-754). */
    static final Comparator<Block> BY_STREAM_SIZE_ADDRESS = (a, b) -> {
        // Written out rather than chained: this runs log n times per alloc and free.
        if (a.stream != b.stream) return Integer.compare(a.stream, b.stream);
        if (a.size != b.size) return Long.compare(a.size, b.size);
        return Long.compare(a.address, b.address);
    };

    /** Unmapped ranges of expandable segments: (stream, address), lowest address first. */
    static final Comparator<Block> BY_STREAM_ADDRESS = (a, b) -> a.stream != b.stream
            ? Integer.compare(a.stream, b.stream)
            : Long.compare(a.address, b.address);

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
    private final Map<PoolKind, FreeSet> unmapped = new EnumMap<>(PoolKind.class);
    private final Map<Integer, Segment> segments = new LinkedHashMap<>();
    private final MemoryStats stats = new MemoryStats();
    private final DeviceTrace trace = new DeviceTrace();
    private final StreamEvents events = new StreamEvents();
    private final long[] getFreeBlockCalls = new long[PoolKind.values().length];
    private final TreeMap<Long, Segment> byAddress = new TreeMap<>();   // segments by address
    private final List<BooleanSupplier> freeMemoryCallbacks = new ArrayList<>();
    private long expectedAddress = NO_HINT;
    private int nextSegmentId;
    private long requested;
    private long allocated;
    private long reserved;
    private long liveBlocks;
    private long allowedMemoryMaximum = -1;   // set_per_process_memory_fraction; -1: not set
    /** Blocks cached whole since the last release (some may since have been used or merged). */
    private final List<Block> wholeCached = new ArrayList<>();
    /** Free blocks of expandable segments cached since the last unmap pass (some since used or merged). */
    private final List<Block> expandableCached = new ArrayList<>();
    boolean fastRelease = true;               // tests turn the shortcut off to compare
    private int expandableSegments;           // how many of the segments held are expandable

    /** {@link #expectSegmentAt}'s "no address expected". */
    public static final long NO_HINT = Long.MIN_VALUE;

    /**
     * {@code NativeCachingAllocator::allocate}'s front door (CCA:3412-3417): a request of 1 EiB
     * ({@code one_exa_bytes}, 2^60) or more is an OOM before the allocator looks at it.
     */
    public static final long ONE_EXA_BYTES = 1L << 60;

    public CachingAllocator(GpuProcess process, Policy policy) {
        this.process = process;
        this.policy = policy;
        for (PoolKind k : PoolKind.values()) {
            freeBlocks.put(k, new FreeSet(FreeSet.Order.STREAM_SIZE_ADDRESS));
            unmapped.put(k, new FreeSet(FreeSet.Order.STREAM_ADDRESS));
        }
        if (policy.maxSplitSize() != Long.MAX_VALUE) stats.maxSplitSize = policy.maxSplitSize();
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
    public long allowedMemory() { return allowedMemoryMaximum; }

    public Collection<Segment> segments() { return Collections.unmodifiableCollection(segments.values()); }

    /** The free blocks of one pool, smallest first. */
    public List<Block> freeBlocks(PoolKind pool) { return new ArrayList<>(freeBlocks.get(pool)); }

    /** The largest cached free block in either pool, 0 when there is none. */
    public long largestFreeBlock() {
        long max = 0;
        for (FreeSet set : freeBlocks.values()) {
            if (!set.isEmpty()) max = Math.max(max, set.last().size);
        }
        return max;
    }

    /**
     * {@code set_per_process_memory_fraction} (CCA setMemoryFraction @001074d): the allocator
     * may hold at most {@code fraction} of the device's total memory; 1.0 is a limit of the
     * whole device, so garbage collection can run and the OOM message says "allowed". Newer
     * releases (the 2025 allocator with {@code per_process_memory_fraction}, PR #161035) keep
     * no limit at all for 1.0: {@code allowed_memory_maximum} is set only when
     * {@code fraction < 1.0}.
     */
    public void setMemoryFraction(double fraction) {
        if (!(fraction >= 0 && fraction <= 1)) {
            throw new IllegalArgumentException("invalid fraction:" + fraction + ". Please set within [0, 1].");
        }
        allowedMemoryMaximum = (long) (fraction * process.cudaMemGetInfo().total());
    }

    /** {@code get_per_process_memory_fraction}: the limit over the total, 1.0 when none is set. */
    public double memoryFraction() {
        return allowedMemoryMaximum < 0 ? 1.0 : (double) allowedMemoryMaximum / process.cudaMemGetInfo().total();
    }

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

    /** Negative sizes are the caller's bug; 1 EiB and more is PyTorch's up-front OOM. */
    private void frontDoor(long size) {
        if (size < 0) throw new IllegalArgumentException("alloc(" + size + "): size must not be negative");
        if (size >= ONE_EXA_BYTES) {
            throw new CudaOutOfMemoryError("CUDA out of memory. Tried to allocate more than 1EB memory.",
                    new OomReport(size, size, size, PoolKind.LARGE, process.gpu().capacity(),
                            process.cudaMemGetInfo().free(), allocated, reserved, largestFreeBlock()));
        }
    }

    /**
     * Registers a free-memory callback ({@code FreeCudaMemoryCallbacksRegistry}): when no cached
     * block fits, malloc runs every callback and, if one freed memory, searches again
     * (CCA malloc: {@code trigger_free_memory_callbacks}). PyTorch registers one, which
     * collects CUDA memory shared with other processes over IPC (torch/csrc/CudaIPCTypes.cpp);
     * in one process it frees nothing, so a new allocator has no callbacks.
     */
    public void addFreeMemoryCallback(BooleanSupplier callback) { freeMemoryCallbacks.add(callback); }

    private boolean triggerFreeMemoryCallbacks() {
        if (freeMemoryCallbacks.isEmpty()) return false;     // no iterator per cache miss
        boolean freed = false;
        for (BooleanSupplier c : freeMemoryCallbacks) freed |= c.getAsBoolean();
        return freed;
    }

    /** Best fit on the default stream: {@link #findFreeBlock(NavigableSet, int, long)} with stream 0. */
    Block findFreeBlock(NavigableSet<Block> pool, long rounded) { return findFreeBlock(pool, 0, rounded); }

    // tag::find[]
    /**
     * Best fit: the smallest free block of this stream of at least {@code rounded} bytes, lowest
     * address first ({@code lower_bound} in CCA get_free_block, 2507-2509).
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
    private Block probe(int stream, long size) {
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
        if (gcEnabled()) getFreeBlockCalls[kind.ordinal()]++;
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
        if (gcEnabled()) garbageCollectCachedBlocks();
        Block block = allocBlock(kind, stream, rounded, allocSize, false);
        if (block == null && policy.retriesBeforeOom()) {
            if (releaseAvailableCachedBlocks(kind, stream, rounded)) {
                block = allocBlock(kind, stream, rounded, allocSize, false);
            }
            if (block == null) {
                releaseCachedBlocks();
                block = allocBlock(kind, stream, rounded, allocSize, true);
            }
        }
        if (block == null) throw outOfMemory(kind, stream, rounded, allocSize, size);
        return block;
    }
    // end::recovery[]

    /**
     * {@code alloc_block} (CCA:2630-2722): one cudaMalloc of the segment size, or pages of an
     * expandable segment. Returns null when the driver (or the memory fraction) says no.
     */
    private Block allocBlock(PoolKind kind, int stream, long rounded, long allocSize, boolean isRetry) {
        if (isRetry) stats.numAllocRetries++;
        if (allowedMemoryMaximum >= 0 && reserved + allocSize > allowedMemoryMaximum) return null;
        if (policy.expandableSegments()) return tryAllocateExpandableBlock(kind, stream, rounded);
        return cudaMallocSegment(kind, stream, allocSize);
    }

    /** One cudaMalloc, made a segment of one free block (not yet in the free set); null on OOM. */
    Block cudaMallocSegment(PoolKind kind, int stream, long allocSize) {
        long ptr;
        try {
            ptr = process.cudaMalloc(allocSize);
        } catch (CudaException e) {
            if (!e.isOutOfMemory()) throw e;
            return null;
        }
        Segment segment = new Segment(nextSegmentId++, segmentAddress(ptr, allocSize), ptr, allocSize,
                kind, stream, null);
        segment.first = new Block(segment, 0, allocSize);
        adopt(segment);
        reserved += allocSize;
        stats.increase(MemoryStats.SEGMENT, kind, 1);
        stats.increase(MemoryStats.RESERVED_BYTES, kind, allocSize);
        if (allocSize >= policy.maxSplitSize()) stats.oversizeSegments.increase(1);
        stats.numDeviceAlloc++;
        trace.add(Action.SEGMENT_ALLOC, segment.address, allocSize, stream);
        return segment.first;
    }

    // ---- where segments start ---------------------------------------------------------

    /**
     * A replay of a recorded run says where that run's next segment began: the address its
     * cudaMalloc (or, for an expandable segment, its cuMemAddressReserve) returned. PyTorch
     * orders free blocks of one size by address (CCA:746-754), so a replay that gives its
     * segments the recorded addresses breaks best-fit ties as the recorded run did. The next
     * segment this allocator makes takes that address unless it would overlap one it holds;
     * {@link #NO_HINT} clears it. Without a hint a segment takes the driver's pointer.
     */
    public void expectSegmentAt(long address) { expectedAddress = address; }

    private long segmentAddress(long ptr, long size) {
        long hint = expectedAddress;
        expectedAddress = NO_HINT;
        if (hint != NO_HINT && isUnused(hint, size)) return hint;
        if (byAddress.isEmpty() || isUnused(ptr, size)) return ptr;
        Segment top = byAddress.lastEntry().getValue();   // clear of every hinted segment
        return Math.max(ptr, top.address + top.size);
    }

    private boolean isUnused(long address, long size) {
        Map.Entry<Long, Segment> below = byAddress.floorEntry(address + size - 1);
        return below == null || below.getValue().address + below.getValue().size <= address;
    }

    private CudaOutOfMemoryError outOfMemory(PoolKind kind, int stream, long rounded, long allocSize, long size) {
        long deviceFree = process.cudaMemGetInfo().free();
        trace.add(Action.OOM, deviceFree, rounded, stream);
        stats.numOoms++;
        List<PyTorchOomMessage.ProcessUsage> procs = new ArrayList<>();
        for (GpuProcess p : process.gpu().processes()) {
            procs.add(new PyTorchOomMessage.ProcessUsage(p.pid(), p.physicalBytes(), p == process));
        }
        OomReport report = new OomReport(size, rounded, allocSize, kind, process.cudaMemGetInfo().total(),
                deviceFree, allocated, reserved, largestFreeBlock(), process.gpu().id(),
                List.copyOf(procs), allowedMemoryMaximum, 0);
        return new CudaOutOfMemoryError(policy.oomMessage(report), report);
    }

    /** {@code alloc_found_block} (CCA:1384-1474): split, mark live, count. */
    private Block allocFoundBlock(Block block, long rounded, long size) {
        boolean alreadySplit = block.isSplit();
        Block remainder = splitIfAllowed(block, rounded, freeBlocks.get(block.segment.pool));
        return markAllocated(block, size, alreadySplit, remainder);
    }

    /** The rest of {@code alloc_found_block}: the split statistics, then the block is live. */
    Block markAllocated(Block block, long size, boolean alreadySplit, Block remainder) {
        PoolKind kind = block.segment.pool;
        if (!block.segment.isExpandable()) {   // expandable blocks are left out (CCA:2378-2403)
            if (remainder != null && alreadySplit) {
                stats.decrease(MemoryStats.INACTIVE_SPLIT_BYTES, kind, block.size);
            } else if (remainder != null) {
                stats.increase(MemoryStats.INACTIVE_SPLIT_BYTES, kind, remainder.size);
                stats.increase(MemoryStats.INACTIVE_SPLIT, kind, 1);
            } else if (alreadySplit) {
                stats.decrease(MemoryStats.INACTIVE_SPLIT_BYTES, kind, block.size);
                stats.decrease(MemoryStats.INACTIVE_SPLIT, kind, 1);
            }
        }
        block.allocated = true;
        block.requested = size;
        requested += size;
        allocated += block.size;
        liveBlocks++;
        trace.add(Action.ALLOC, block.address(), size, block.stream);
        stats.increase(MemoryStats.ALLOCATION, kind, 1);
        stats.increase(MemoryStats.ALLOCATED_BYTES, kind, block.size);
        stats.increase(MemoryStats.ACTIVE, kind, 1);
        stats.increase(MemoryStats.ACTIVE_BYTES, kind, block.size);
        stats.increase(MemoryStats.REQUESTED_BYTES, kind, size);
        if (block.size >= policy.maxSplitSize()) stats.oversizeAllocations.increase(1);
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
    private void cache(Block b, NavigableSet<Block> pool) {
        b.gcStamp = getFreeBlockCalls[b.segment.pool.ordinal()];
        if (!b.isSplit()) noteCachedWhole(b);
        if (b.segment.isExpandable()) noteExpandableCached(b);
        pool.add(b);
    }

    /**
     * {@code record_stream}: {@code block} is also used on {@code stream}, so its memory may be
     * reused only after that stream's work queued so far has run (CCA:1570-1581). Uses on the
     * block's own stream need nothing.
     */
    public void recordStream(Block block, int stream) {
        if (!block.allocated) throw new IllegalArgumentException("recordStream(" + block + "): block is not live");
        if (stream == block.stream) return;
        if (block.streamUses == null) block.streamUses = new HashSet<>();
        block.streamUses.add(stream);
    }

    /** Segments record their allocator, so {@code free} checks ownership without a map lookup. */
    private void adopt(Segment s) {
        if (s.isExpandable()) expandableSegments++;
        segments.put(s.id, s);
        byAddress.put(s.address, s);
        s.owner = this;
    }

    private void disown(Segment s) {
        if (s.isExpandable()) expandableSegments--;
        segments.remove(s.id);
        byAddress.remove(s.address);
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
        PoolKind kind = block.segment.pool;
        block.allocated = false;
        allocated -= block.size;
        requested -= block.requested;
        liveBlocks--;
        stats.decrease(MemoryStats.ALLOCATION, kind, 1);
        stats.decrease(MemoryStats.ALLOCATED_BYTES, kind, block.size);
        trace.add(Action.FREE_REQUESTED, block.address(), block.requested, block.stream);
        if (block.size >= policy.maxSplitSize()) stats.oversizeAllocations.decrease(1);
        if (block.hasStreamUses()) {
            events.insert(block);
        } else {
            freeBlock(block);
        }
    }
    // end::free[]

    /** {@code free_block} (CCA:2331-2408): merge, cache, and only now count it inactive. */
    private void freeBlock(Block block) {
        PoolKind kind = block.segment.pool;
        trace.add(Action.FREE_COMPLETED, block.address(), block.requested, block.stream);
        long originalSize = block.size;
        long req = block.requested;
        block.requested = 0;
        long netSplitBlocks = 0, netSplitBytes = 0;
        if (canMerge(block.prev, block)) {
            netSplitBlocks--;
            netSplitBytes -= block.prev.size;
        }
        if (canMerge(block.next, block)) {
            netSplitBlocks--;
            netSplitBytes -= block.next.size;
        }
        FreeSet pool = freeBlocks.get(kind);
        Block merged = mergeWithNeighbours(block, pool);
        cache(merged, pool);
        if (merged.isSplit()) {
            netSplitBlocks++;
            netSplitBytes += merged.size;
        }
        if (!merged.segment.isExpandable()) {
            addSigned(MemoryStats.INACTIVE_SPLIT, kind, netSplitBlocks);
            addSigned(MemoryStats.INACTIVE_SPLIT_BYTES, kind, netSplitBytes);
        }
        stats.decrease(MemoryStats.ACTIVE, kind, 1);
        stats.decrease(MemoryStats.ACTIVE_BYTES, kind, originalSize);
        stats.decrease(MemoryStats.REQUESTED_BYTES, kind, req);
    }

    private void addSigned(int stat, PoolKind kind, long n) {
        if (n > 0) stats.increase(stat, kind, n);
        if (n < 0) stats.decrease(stat, kind, -n);
    }

    // tag::merge[]
    /**
     * [FREE a][block][FREE c] -> [FREE a+block+c]. Neighbours are in the same segment by
     * construction, so a merge never crosses segments. Returns the merged block, which is not
     * yet in the free set. {@code pool} is the set the neighbours that may merge live in.
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
        events.synchronizeAll(this::freeBlock);
    }

    // ---- releasing memory ---------------------------------------------------------------

    /**
     * {@code empty_cache} (CCA:1594-1598): wait for pending events, release every segment that
     * is entirely free, and unmap the whole free pages of expandable segments. Returns the
     * bytes given back to the driver. A segment with one live block keeps all of its bytes.
     */
    public long emptyCache() {
        return releaseCachedBlocks();
    }

    /**
     * {@code release_cached_blocks} (CCA:2772-2797): synchronise, then {@code release_blocks}
     * on the large pool and the small one. Each {@code release_blocks} walks its pool's free
     * set, not the segments, so {@code empty_cache} costs O(free blocks) (CCA release_blocks,
     * pytorch/pytorch@001074d25084fdb87a799823e395a50f5ec044d3, c10/cuda/CUDACachingAllocator.cpp).
     * Simplified: the source unmaps a pool's expandable blocks right after freeing that pool's
     * whole segments; here every pool's whole segments go first, then every pool's free pages.
     * The two orders differ only when one allocator holds both kinds of segment (a restored
     * snapshot), and then only in the order of the trace's entries.
     *
     * <p>Shortcuts, so that a trace calling {@code empty_cache} every few events does not walk
     * every free block each time (what is released, and in what order, is the same): a free
     * block becomes whole only when it is cached (a merged block is cached anew), so the
     * allocator notes the blocks cached whole, walks nothing when there are none, and beyond
     * {@link #FULL_WALK_MAX} free blocks releases those of them still cached whole; the walk
     * for free pages runs only while an expandable segment exists.
     */
    private long releaseCachedBlocks() {
        synchronize();
        long before = reserved;
        if (!wholeCached.isEmpty()) {
            if (fastRelease && freeBlockCount() > FULL_WALK_MAX) releaseCachedWholeBlocks();
            else releaseWholeFreeSegments();
            for (Block b : wholeCached) b.noted = false;
            wholeCached.clear();
        }
        if (expandableSegments > 0) unmapFreePages();
        return before - reserved;
    }

    /** Up to this many free blocks, empty_cache walks the free sets (step 3.5's body). */
    static final int FULL_WALK_MAX = 256;

    private int freeBlockCount() {     // the two pools by name: no iterator per empty_cache under C1
        return freeBlocks.get(PoolKind.SMALL).size() + freeBlocks.get(PoolKind.LARGE).size();
    }

    /**
     * What {@link #releaseWholeFreeSegments} releases, in its order, found among the blocks
     * cached whole since the last release instead of by walking every free block: the ones
     * still cached and still whole, large pool first, each pool in its free set's order.
     */
    private void releaseCachedWholeBlocks() {
        List<Block> whole = new ArrayList<>();
        for (Block b : wholeCached) if (isCachedWhole(b)) whole.add(b);
        whole.sort(RELEASE_ORDER_THEN_FREE_SET);
        for (Block b : whole) releaseBlock(b);     // the list holds a block once (Block.noted)
    }

    /**
     * A cached free block with no neighbour in a cudaMalloc segment this allocator holds. A
     * block merged into its neighbour keeps its old links, so it never passes.
     */
    private boolean isCachedWhole(Block b) {
        return !b.allocated && !b.isSplit() && b.segment.owner == this && !b.segment.isExpandable()
                && b.eventCount == 0 && !b.hasStreamUses();
    }

    private static final Comparator<Block> RELEASE_ORDER_THEN_FREE_SET =
            Comparator.<Block>comparingInt(b -> b.segment.pool == PoolKind.LARGE ? 0 : 1)
                    .thenComparing(BY_STREAM_SIZE_ADDRESS);

    /**
     * Notes a block cached whole, once: a block still in the list (cached whole before, then
     * taken and cached whole again) is not added twice. The list is kept no longer than twice
     * the free blocks: past that, the entries no longer cached whole are dropped.
     */
    private void noteCachedWhole(Block b) {
        if (b.noted) return;
        b.noted = true;
        wholeCached.add(b);
        if (wholeCached.size() > 2 * FULL_WALK_MAX && wholeCached.size() > 2 * freeBlockCount()) {
            wholeCached.removeIf(c -> {
                if (isCachedWhole(c)) return false;
                c.noted = false;
                return true;
            });
        }
    }

    /** The order {@code release_cached_blocks} visits the pools in: large, then small. */
    private static final List<PoolKind> RELEASE_ORDER = List.of(PoolKind.LARGE, PoolKind.SMALL);

    // tag::empty-cache[]
    /**
     * cudaFree every cudaMalloc segment that one free block covers whole: a free block with no
     * neighbour ({@code release_blocks}: {@code !block->prev && !block->next}, CCA:2916-2940).
     */
    long releaseWholeFreeSegments() {
        // lab:begin 3.5 "empty_cache" see ch03 "empty_cache releases whole free segments only"
        List<Block> whole = new ArrayList<>();
        for (PoolKind kind : RELEASE_ORDER) {
            for (Block b : freeBlocks.get(kind)) {
                if (!b.segment.isExpandable() && !b.isSplit()) whole.add(b);
            }
        }
        long released = 0;
        for (Block b : whole) {
            released += b.size;
            releaseBlock(b);
        }
        return released;
        // lab:end
    }
    // end::empty-cache[]

    /** {@code release_block} (CCA:2815-2848): cudaFree one whole free segment. */
    private void releaseBlock(Block block) {
        Segment s = block.segment;
        if (s.isExpandable() || block.isSplit() || block.allocated) {
            throw new IllegalStateException("release_block(" + block + "): not a whole free cudaMalloc segment");
        }
        PoolKind kind = s.pool;
        freeBlocks.get(kind).remove(block);
        stats.numDeviceFree++;
        trace.add(Action.SEGMENT_FREE, s.address, s.size, s.stream);
        process.cudaFree(s.ptr);
        reserved -= s.size;
        stats.decrease(MemoryStats.SEGMENT, kind, 1);
        stats.decrease(MemoryStats.RESERVED_BYTES, kind, s.size);
        if (s.size >= policy.maxSplitSize()) stats.oversizeSegments.decrease(1);
        disown(s);
    }

    /**
     * {@code release_available_cached_blocks} (CCA:2728-2770): only with {@code max_split_size}.
     * Releases the smallest cached oversize block of at least max(request, max_split_size), or
     * else the largest oversize blocks, biggest first, until they cover the request.
     */
    private boolean releaseAvailableCachedBlocks(PoolKind kind, int stream, long rounded) {
        long maxSplit = policy.maxSplitSize();
        if (maxSplit == Long.MAX_VALUE) return false;
        FreeSet pool = freeBlocks.get(kind);
        long key = Math.max(rounded, maxSplit);
        Block it = pool.ceiling(probe(stream, key));
        if (it != null && it.stream == stream) {
            if (!isWholeSegment(it)) return false;
            releaseBlock(it);
            return true;
        }
        Block cur = it == null ? (pool.isEmpty() ? null : pool.last()) : pool.lower(it);
        long released = 0;
        while (cur != null && released < key && cur.size >= maxSplit && cur.stream == stream
                && isWholeSegment(cur)) {
            Block lower = pool.lower(cur);
            released += cur.size;
            releaseBlock(cur);
            cur = lower;
        }
        return released >= key;
    }

    /** The source releases oversize blocks as whole segments; this guards that assumption. */
    private static boolean isWholeSegment(Block b) { return !b.segment.isExpandable() && !b.isSplit(); }

    private boolean gcEnabled() {
        return allowedMemoryMaximum >= 0 && policy.garbageCollectionThreshold() > 0;
    }

    /**
     * {@code garbage_collect_cached_blocks} (CCA:2566-2623): above threshold * allowed, release
     * unsplit cached large blocks whose age (free-set searches since cached) is at least the
     * average, pass after pass, until enough is reclaimed or a pass frees nothing.
     */
    private void garbageCollectCachedBlocks() {
        long threshold = (long) (policy.garbageCollectionThreshold() * allowedMemoryMaximum);
        if (reserved <= threshold) return;
        long target = reserved - threshold;
        FreeSet large = freeBlocks.get(PoolKind.LARGE);
        long now = getFreeBlockCalls[PoolKind.LARGE.ordinal()];
        long totalAge = 0;
        int count = 0;
        for (Block b : large) {
            if (isWholeSegment(b)) {
                totalAge += now - b.gcStamp;
                count++;
            }
        }
        long reclaimed = 0;
        boolean freed = true;
        while (reclaimed < target && freed && count > 0) {
            double ageThreshold = (double) totalAge / count;
            freed = false;
            for (Block b : new ArrayList<>(large)) {
                if (isWholeSegment(b) && now - b.gcStamp >= ageThreshold) {
                    freed = true;
                    reclaimed += b.size;
                    totalAge -= now - b.gcStamp;
                    count--;
                    releaseBlock(b);
                }
            }
        }
    }

    // ---- expandable segments ------------------------------------------------------------

    /**
     * {@code try_allocate_expandable_block} (CCA:2297-2328): find the lowest run of free and
     * unmapped space that fits, map what is missing, and return it as one free block.
     */
    private Block tryAllocateExpandableBlock(PoolKind kind, int stream, long size) {
        Block candidate = findExpandableBlock(kind, stream, size);
        if (!candidate.mapped) {
            candidate = mapBlock(candidate, Math.min(candidate.size, size));
            if (candidate == null) return null;
        }
        while (candidate.size < size) {              // free -> unmapped -> ...
            Block next = candidate.next;
            candidate = mapBlock(next, Math.min(size - candidate.size, next.size));
            if (candidate == null) return null;
        }
        freeBlocks.get(kind).remove(candidate);
        return candidate;
    }

    private static boolean allocatable(Block b) {
        return b != null && !b.allocated && b.eventCount == 0 && !b.hasStreamUses();
    }

    /**
     * {@code find_expandable_block} (CCA:2178-2232): the lowest-address unmapped range (with
     * the free block just before it) that has room, else a new segment for this (pool, stream).
     */
    private Block findExpandableBlock(PoolKind kind, int stream, long size) {
        FreeSet ranges = unmapped.get(kind);
        for (Block c = ranges.ceiling(probe(stream, 0)); c != null && c.stream == stream; c = ranges.higher(c)) {
            Block start = allocatable(c.prev) ? c.prev : c;
            long bytes = 0;
            for (Block b = start; b != null && bytes < size && allocatable(b); b = b.next) bytes += b.size;
            if (bytes >= size) return start;
        }
        return newExpandableSegment(kind, stream);
    }

    /** A new reservation for (pool, stream): one unmapped block over all of it (CCA:2214-2231). */
    Block newExpandableSegment(PoolKind kind, int stream) {
        ExpandableSegment pages = new ExpandableSegment(process, process.gpu().totalMemory(),   // totalGlobalMem
                policy.expandablePageSize(kind));
        Segment s = new Segment(nextSegmentId++, segmentAddress(pages.base(), pages.size()), pages.base(),
                pages.size(), kind, stream, pages);
        Block all = new Block(s, stream, 0, s.size);
        all.mapped = false;
        s.first = all;
        adopt(s);
        unmapped.get(kind).add(all);
        return all;
    }

    // tag::map-block[]
    /**
     * {@code map_block} (statistics at CCA:2275-2290): map pages under the front of an unmapped block, keep
     * the rest unmapped, and merge the new memory with free neighbours across the page
     * boundary. Returns the merged free block (now in the free set), or null when the driver
     * has no pages.
     */
    Block mapBlock(Block toMap, long size) {
        // lab:begin 5.2 "Map a block, merge across the page boundary" see ch05 "Growing: map pages on demand"
        ExpandableSegment.Range r = toMap.segment.pages.map(toMap.offset, size);
        if (r.size() == 0) return null;
        PoolKind kind = toMap.segment.pool;
        unmapped.get(kind).remove(toMap);
        toMap.mapped = true;
        if (r.size() < toMap.size) {                // [toMap mapped][rest unmapped]
            Block rest = new Block(toMap.segment, toMap.stream, toMap.offset + r.size(), toMap.size - r.size());
            rest.mapped = false;
            rest.prev = toMap;
            rest.next = toMap.next;
            if (toMap.next != null) toMap.next.prev = rest;
            toMap.next = rest;
            toMap.size = r.size();
            unmapped.get(kind).add(rest);
        }
        FreeSet pool = freeBlocks.get(kind);
        Block merged = mergeWithNeighbours(toMap, pool);
        cache(merged, pool);
        reserved += r.size();
        stats.increase(MemoryStats.RESERVED_BYTES, kind, r.size());
        stats.numDeviceAlloc++;
        trace.add(Action.SEGMENT_MAP, toMap.segment.address + r.offset(), r.size(), toMap.stream);
        return merged;
        // lab:end
    }
    // end::map-block[]

    /**
     * Unmaps the whole free pages of every free block of the expandable segments (CCA:2916-2940).
     * Beyond {@link #FULL_WALK_MAX} free blocks, only the blocks cached since the last pass are
     * looked at, in the walk's order: a free block's pages change only when it is cached anew
     * (merged, split or mapped), and after a pass no free block left holds a whole page, so the
     * others would unmap nothing. An OOM's retry or an empty_cache then costs what was cached
     * since, not every free block.
     */
    private void unmapFreePages() {
        List<Block> toUnmap = new ArrayList<>();
        boolean shortcut = fastRelease && freeBlockCount() > FULL_WALK_MAX;
        for (Block b : expandableCached) {
            b.notedExpandable = false;
            if (shortcut && isCachedExpandable(b) && holdsWholePage(b)) toUnmap.add(b);
        }
        expandableCached.clear();
        if (shortcut) {
            toUnmap.sort(RELEASE_ORDER_THEN_FREE_SET);
        } else {
            for (PoolKind kind : RELEASE_ORDER) {
                for (Block b : freeBlocks.get(kind)) if (b.segment.isExpandable()) toUnmap.add(b);
            }
        }
        for (Block b : toUnmap) {
            Block u = unmapBlock(b);
            if (u != null && u.prev == null && u.next == null) releaseExpandableSegment(u.segment);
        }
    }

    /** Notes a free block of an expandable segment, once; prunes the list as {@link #noteCachedWhole} does. */
    private void noteExpandableCached(Block b) {
        if (b.notedExpandable) return;
        b.notedExpandable = true;
        expandableCached.add(b);
        if (expandableCached.size() > 2 * FULL_WALK_MAX && expandableCached.size() > 2 * freeBlockCount()) {
            expandableCached.removeIf(c -> {
                if (isCachedExpandable(c)) return false;
                c.notedExpandable = false;
                return true;
            });
        }
    }

    /** This very block is in its pool's free set (not merged away, not taken). */
    private boolean isCachedExpandable(Block b) {
        return !b.allocated && b.mapped && b.segment.owner == this && freeBlocks.get(b.segment.pool).ceiling(b) == b;
    }

    /** Whether a page of its segment lies wholly inside the block: what {@code unmap} would unmap. */
    private static boolean holdsWholePage(Block b) {
        long page = b.segment.pages.pageSize();
        return (b.offset + page - 1) / page < (b.offset + b.size) / page;
    }

    /**
     * {@code unmap_block} (CCA:2850-2915): unmap the pages wholly inside a free block; the
     * partial pages at its ends stay mapped as free blocks of their own. Returns the unmapped
     * block after merging with unmapped neighbours, or null when no whole page was free.
     */
    private Block unmapBlock(Block block) {
        Segment s = block.segment;
        ExpandableSegment.Range r = s.pages.unmap(block.offset, block.size);
        if (r.size() == 0) return null;
        PoolKind kind = s.pool;
        FreeSet pool = freeBlocks.get(kind);
        pool.remove(block);
        long before = r.offset() - block.offset;
        if (before > 0) {                           // [before FREE][block]
            Block b = new Block(s, block.stream, block.offset, before);
            b.prev = block.prev;
            b.next = block;
            if (block.prev != null) block.prev.next = b; else s.first = b;
            block.prev = b;
            cache(b, pool);
        }
        long after = block.size - before - r.size();
        if (after > 0) {                            // [block][after FREE]
            Block a = new Block(s, block.stream, r.offset() + r.size(), after);
            a.prev = block;
            a.next = block.next;
            if (block.next != null) block.next.prev = a;
            block.next = a;
            cache(a, pool);
        }
        block.moveTo(r.offset());
        block.size = r.size();
        block.mapped = false;
        FreeSet unmappedSet = unmapped.get(kind);
        Block merged = mergeWithNeighbours(block, unmappedSet);
        unmappedSet.add(merged);
        reserved -= r.size();
        stats.decrease(MemoryStats.RESERVED_BYTES, kind, r.size());
        stats.numDeviceFree++;
        trace.add(Action.SEGMENT_UNMAP, s.address + r.offset(), r.size(), s.stream);
        return merged;
    }

    /** {@code release_expandable_segment} (CCA:2799-2813): its address space goes back. */
    private void releaseExpandableSegment(Segment s) {
        unmapped.get(s.pool).remove(s.first);
        s.pages.release();
        disown(s);
    }

    /** Checks every invariant in the class comment; throws with the segment map if one fails. */
    public void checkInvariants() { new AllocatorCheck(this).run(); }

    FreeSet freeSet(PoolKind pool) { return freeBlocks.get(pool); }
    List<Block> wholeCached() { return wholeCached; }
    int expandableSegmentCount() { return expandableSegments; }
    FreeSet unmappedSet(PoolKind pool) { return unmapped.get(pool); }

    @Override
    public String toString() { return SegmentMap.text(this); }
}
