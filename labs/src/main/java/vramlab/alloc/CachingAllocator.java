package vramlab.alloc;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

import vramlab.driver.CudaException;
import vramlab.driver.GpuProcess;

/**
 * A caching allocator in the manner of PyTorch's {@code CUDACachingAllocator}: segments from
 * the driver, cut into blocks; freed blocks are cached in a free set per pool and reused by
 * best fit; a block splits when the policy allows and merges with free neighbours when freed.
 *
 * <p>Invariants, checked by {@link #checkInvariants()}:
 * <ul>
 *   <li>{@code requested <= allocated <= reserved};
 *   <li>the blocks of each segment tile it, and no two adjacent blocks are both free;
 *   <li>each pool's free set holds exactly the free blocks of that pool's segments;
 *   <li>{@code reserved} is the sum of the segments, and each segment is a live cudaMalloc of
 *       that size in the driver.
 * </ul>
 *
 * <p>Cost: {@code alloc} and {@code free} are O(log n) in the number of free blocks.
 */
public final class CachingAllocator {
    /** Free blocks ordered as PyTorch orders its pools: (stream, size, address). */
    static final Comparator<Block> BY_STREAM_SIZE_ADDRESS = Comparator
            .comparingInt(Block::stream)
            .thenComparingLong(Block::size)
            .thenComparingLong(Block::address);

    private final GpuProcess process;
    private final Policy policy;
    private final Map<PoolKind, TreeSet<Block>> freeBlocks = new EnumMap<>(PoolKind.class);
    private final Map<Integer, Segment> segments = new LinkedHashMap<>();
    private int nextSegmentId;
    private long requested;
    private long allocated;
    private long reserved;
    private long liveBlocks;

    public CachingAllocator(GpuProcess process, Policy policy) {
        this.process = process;
        this.policy = policy;
        for (PoolKind k : PoolKind.values()) freeBlocks.put(k, new TreeSet<>(BY_STREAM_SIZE_ADDRESS));
    }

    public Policy policy() { return policy; }
    public GpuProcess process() { return process; }

    /** Sum of the callers' unrounded requests over live blocks. */
    public long requested() { return requested; }
    /** Sum of live block sizes: requested plus the rounding tax and unsplit remainders. */
    public long allocated() { return allocated; }
    /** Sum of segment sizes: what this allocator got from the driver. */
    public long reserved() { return reserved; }
    /** Cached bytes no live block uses: {@code reserved - allocated}. */
    public long freeBytes() { return reserved - allocated; }
    public long liveBlocks() { return liveBlocks; }

    public Collection<Segment> segments() { return Collections.unmodifiableCollection(segments.values()); }

    /** The free blocks of one pool, smallest first. */
    public List<Block> freeBlocks(PoolKind pool) { return new ArrayList<>(freeBlocks.get(pool)); }

    /** The largest cached free block in either pool, 0 when there is none. */
    public long largestFreeBlock() {
        long max = 0;
        for (TreeSet<Block> set : freeBlocks.values()) {
            for (Block b : set.descendingSet()) { max = Math.max(max, b.size); break; }
        }
        return max;
    }

    // tag::alloc[]
    /**
     * Allocates {@code size} bytes: round, look in the pool's free set, else get a new segment
     * from the driver; then split off what the policy allows.
     *
     * @throws CudaOutOfMemoryError when no cached block fits and the driver has no segment
     */
    public Block alloc(long size) {
        if (size <= 0) throw new IllegalArgumentException("alloc(" + size + "): size must be positive");
        long rounded = policy.roundSize(size);
        PoolKind kind = policy.poolFor(rounded);
        TreeSet<Block> pool = freeBlocks.get(kind);
        Block block = findFreeBlock(pool, rounded);
        if (block == null) {
            block = newSegment(kind, rounded, size);        // the driver boundary: OOM is born here
        } else {
            pool.remove(block);
        }
        splitIfAllowed(block, rounded, pool);
        block.allocated = true;
        block.requested = size;
        requested += size;
        allocated += block.size;
        liveBlocks++;
        return block;
    }
    // end::alloc[]

    // tag::find[]
    /** Best fit: the smallest free block of at least {@code rounded} bytes, lowest address first. */
    Block findFreeBlock(TreeSet<Block> pool, long rounded) {
        throw new vramlab.lab.Todo("3.2", "Find a block", "ch03 \"Rule 3: best fit from the pool's free set\"", "labs/src/main/java/vramlab/alloc/CachingAllocator.java");
    }
    // end::find[]

    private static final Segment PROBE_SEGMENT = new Segment(-1, Long.MIN_VALUE, 0, PoolKind.LARGE, 0);

    /** A stand-in block that sorts before every real block of this stream and size. */
    private static Block probe(int stream, long size) {
        Segment s = stream == 0 ? PROBE_SEGMENT : new Segment(-1, Long.MIN_VALUE, 0, PoolKind.LARGE, stream);
        return new Block(s, 0, size);
    }

    private Block newSegment(PoolKind kind, long rounded, long size) {
        long segmentSize = policy.segmentSize(rounded);
        long ptr;
        try {
            ptr = process.cudaMalloc(segmentSize);
        } catch (CudaException e) {
            if (!e.isOutOfMemory()) throw e;
            OomReport report = new OomReport(size, rounded, segmentSize, kind,
                    process.gpu().capacity(), process.gpu().free(), allocated, reserved,
                    largestFreeBlock());
            throw new CudaOutOfMemoryError(policy.oomMessage(report), report);
        }
        Segment segment = new Segment(nextSegmentId++, ptr, segmentSize, kind, 0);
        segment.first = new Block(segment, 0, segmentSize);
        segments.put(segment.id, segment);
        reserved += segmentSize;
        return segment.first;
    }

    // tag::split[]
    /** [block .................] -> [block rounded][remainder FREE], if the policy allows. */
    private void splitIfAllowed(Block block, long rounded, TreeSet<Block> pool) {
        if (!policy.shouldSplit(block.segment.pool, block.size, rounded)) return;
        Block remainder = new Block(block.segment, block.offset + rounded, block.size - rounded);
        remainder.prev = block;
        remainder.next = block.next;
        if (block.next != null) block.next.prev = remainder;
        block.next = remainder;
        block.size = rounded;
        pool.add(remainder);
    }
    // end::split[]

    // tag::free[]
    /** Frees a live block: it merges with free neighbours and goes back to its pool's free set. */
    public void free(Block block) {
        if (block == null || segments.get(block.segment.id) != block.segment) {
            throw new IllegalArgumentException("free(" + block + "): not a block of this allocator");
        }
        if (!block.allocated) throw new IllegalArgumentException("free(" + block + "): block already free");
        block.allocated = false;
        allocated -= block.size;
        requested -= block.requested;
        block.requested = 0;
        liveBlocks--;
        TreeSet<Block> pool = freeBlocks.get(block.segment.pool);
        pool.add(mergeWithNeighbours(block, pool));
    }
    // end::free[]

    // tag::merge[]
    /**
     * [FREE a][block][FREE c] -> [FREE a+block+c]. Neighbours are in the same segment by
     * construction, so a merge never crosses segments. Returns the merged block, which is not
     * yet in the free set.
     */
    Block mergeWithNeighbours(Block block, TreeSet<Block> pool) {
        throw new vramlab.lab.Todo("3.4", "Merge on free", "ch03 \"Rule 5: merge with free neighbours\"", "labs/src/main/java/vramlab/alloc/CachingAllocator.java");
    }
    // end::merge[]

    /** [a][b] -> [a+b]: {@code a} takes over its next neighbour's bytes and links. */
    private static void absorbNext(Block a) {
        Block b = a.next;
        a.size += b.size;
        a.next = b.next;
        if (b.next != null) b.next.prev = a;
    }

    // tag::empty-cache[]
    /**
     * Releases every segment that is entirely free back to the driver (cudaFree) and returns
     * the bytes released. A segment with one live block keeps all of its bytes.
     */
    public long emptyCache() {
        throw new vramlab.lab.Todo("3.5", "empty_cache", "ch03 \"empty_cache releases whole free segments only\"", "labs/src/main/java/vramlab/alloc/CachingAllocator.java");
    }
    // end::empty-cache[]

    /** Checks every invariant in the class comment; throws with the segment map if one fails. */
    public void checkInvariants() {
        long sumAllocated = 0, sumRequested = 0, sumReserved = 0, live = 0;
        Map<PoolKind, Integer> freeCount = new EnumMap<>(PoolKind.class);
        for (Segment s : segments.values()) {
            sumReserved += s.size;
            if (process.allocationSize(s.address) != s.size) fail("segment " + s.id + " is not a live cudaMalloc");
            long expected = 0;
            Block prev = null;
            for (Block b = s.first; b != null; b = b.next) {
                if (b.segment != s || b.prev != prev || b.offset != expected || b.size <= 0) {
                    fail("blocks of segment " + s.id + " do not tile it at " + b);
                }
                if (prev != null && !prev.allocated && !b.allocated) fail("adjacent free blocks " + prev + " " + b);
                if (b.allocated) {
                    sumAllocated += b.size;
                    sumRequested += b.requested;
                    live++;
                    if (b.requested > b.size) fail("block " + b + " smaller than its request " + b.requested);
                    if (freeBlocks.get(s.pool).contains(b)) fail("live block in free set: " + b);
                } else {
                    if (!freeBlocks.get(s.pool).contains(b)) fail("free block missing from its pool: " + b);
                    freeCount.merge(s.pool, 1, Integer::sum);
                }
                expected += b.size;
                prev = b;
            }
            if (expected != s.size) fail("blocks of segment " + s.id + " cover " + expected + " of " + s.size);
        }
        for (PoolKind k : PoolKind.values()) {
            if (freeBlocks.get(k).size() != freeCount.getOrDefault(k, 0)) fail("stale entries in " + k + " free set");
        }
        if (sumAllocated != allocated || sumRequested != requested || sumReserved != reserved || live != liveBlocks) {
            fail("counters disagree with blocks: allocated " + allocated + " vs " + sumAllocated
                    + ", requested " + requested + " vs " + sumRequested + ", reserved " + reserved
                    + " vs " + sumReserved);
        }
        if (!(requested <= allocated && allocated <= reserved)) {
            fail("requested <= allocated <= reserved broken: " + requested + ", " + allocated + ", " + reserved);
        }
    }

    private void fail(String what) {
        throw new IllegalStateException(what + "\n" + SegmentMap.text(this));
    }

    @Override
    public String toString() { return SegmentMap.text(this); }
}
