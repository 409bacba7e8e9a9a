package vramlab.buddy;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.NavigableSet;
import java.util.TreeSet;

import vramlab.driver.CudaException;
import vramlab.driver.GpuProcess;
import vramlab.units.Bytes;

/**
 * A binary buddy allocator over one pool of device memory, in the manner of Linux's page
 * allocator ({@code mm/page_alloc.c}: {@code __rmqueue_smallest}, {@code expand},
 * {@code __free_one_page}). Sizes are powers of two between {@code 2^minOrder} and
 * {@code 2^maxOrder} bytes; orders are absolute ({@code order 21} is a 2 MiB block).
 *
 * <p>Invariants, checked by {@link #checkInvariants()}:
 * <ul>
 *   <li>every block, free or live, is aligned to its own size, relative to the pool's base;
 *   <li>the free blocks and the live blocks tile the pool: no gap, no overlap;
 *   <li>no two free buddies of one order (a free pair would have merged);
 *   <li>{@code requested <= allocated}, each the sum over live blocks;
 *   <li>the backing holds exactly the memory the live blocks need.
 * </ul>
 *
 * <p>Simplification: each order's free set is ordered by address and allocation takes the
 * lowest address. Linux keeps a list and takes its head, usually the block freed last; both
 * are correct buddy systems, and the address order makes runs reproducible.
 */
public final class BuddyAllocator {
    private final int minOrder;
    private final int maxOrder;
    private final long poolBytes;
    private final Backing backing;
    /** free.get(order - minOrder): offsets of the free blocks of that order. */
    private final List<NavigableSet<Long>> free = new ArrayList<>();
    /** Live blocks by offset: their order and request, so that free() is O(1) to look up. */
    private final Map<Long, Live> live = new HashMap<>();
    private long requested;
    private long allocated;
    private long allocCalls;
    private long failedCalls;

    /** A live block: its order and the bytes the caller asked for. */
    public record Live(int order, long requested) {}

    /** One block of the pool, for pictures: offset from the base, order, free or not. */
    public record Span(long offset, int order, boolean free, long requested) {
        public long size() { return 1L << order; }
    }

    /**
     * A pool of {@code poolBytes} (a whole number of max-order blocks) whose memory comes from
     * {@code backing}. Start-up puts every max-order block on the top free list.
     */
    public BuddyAllocator(long poolBytes, int minOrder, int maxOrder, Backing backing) {
        if (minOrder < 0 || maxOrder < minOrder || maxOrder > 62) {
            throw new IllegalArgumentException("orders must satisfy 0 <= min <= max <= 62, were "
                    + minOrder + " and " + maxOrder);
        }
        if (poolBytes <= 0 || poolBytes % (1L << maxOrder) != 0) {
            throw new IllegalArgumentException("pool of " + poolBytes
                    + " bytes is not a positive multiple of the max block 2^" + maxOrder);
        }
        this.minOrder = minOrder;
        this.maxOrder = maxOrder;
        this.poolBytes = poolBytes;
        this.backing = backing;
        for (int o = minOrder; o <= maxOrder; o++) free.add(new TreeSet<>());
        for (long off = 0; off < poolBytes; off += 1L << maxOrder) freeArea(maxOrder).add(off);
    }

    /** A pool backed by one cudaMalloc at start-up. */
    public static BuddyAllocator upfront(GpuProcess process, long poolBytes, int minOrder, int maxOrder) {
        return new BuddyAllocator(poolBytes, minOrder, maxOrder, Backing.upfront(process, poolBytes));
    }

    /** A pool whose 2 MiB pages are committed through the VMM calls when first used. */
    public static BuddyAllocator onDemand(GpuProcess process, long poolBytes, int minOrder, int maxOrder) {
        return new BuddyAllocator(poolBytes, minOrder, maxOrder, Backing.onDemand(process, poolBytes));
    }

    public int minOrder() { return minOrder; }
    public int maxOrder() { return maxOrder; }
    public long poolBytes() { return poolBytes; }
    public long base() { return backing.base(); }
    public Backing backing() { return backing; }
    /** Sum of the callers' requests over live blocks. */
    public long requested() { return requested; }
    /** Sum of live block sizes (powers of two). */
    public long allocated() { return allocated; }
    /** Device memory the pool holds from the driver now. */
    public long reserved() { return backing.reserved(); }
    /** Pool bytes in free blocks. */
    public long freeBytes() { return poolBytes - allocated; }
    public int liveBlocks() { return live.size(); }
    public long allocCalls() { return allocCalls; }
    public long failedCalls() { return failedCalls; }

    NavigableSet<Long> freeArea(int order) { return free.get(order - minOrder); }

    // tag::alloc[]
    /**
     * Allocates a block of at least {@code size} bytes and returns its device address: take
     * the smallest free block of a large enough order, split it down, keep the lower half.
     *
     * @throws BuddyOutOfMemoryError when no free block is large enough
     */
    public long alloc(long size) {
        int order = orderFor(size);
        allocCalls++;
        int from = smallestFreeOrderAtLeast(order);
        if (from < 0) throw oom(size, order, "no free block of order >= " + order);
        long offset = freeArea(from).first();
        try {
            backing.commit(offset, 1L << order);          // pages first: nothing changes on OOM
        } catch (CudaException e) {
            if (!e.isOutOfMemory()) throw e;
            throw oom(size, order, "the driver has no page to commit: " + e.getMessage());
        }
        freeArea(from).remove(offset);
        splitDown(offset, from, order);
        live.put(offset, new Live(order, size));
        requested += size;
        allocated += 1L << order;
        return base() + offset;
    }
    // end::alloc[]

    /** The lowest order at or above {@code order} with a free block, or -1. */
    int smallestFreeOrderAtLeast(int order) {
        for (int o = order; o <= maxOrder; o++) if (!freeArea(o).isEmpty()) return o;
        return -1;
    }

    // tag::order[]
    /**
     * The order of the block a request of {@code size} bytes gets: the smallest {@code o}
     * with {@code 2^o >= size}, and at least {@code minOrder}.
     *
     * @throws IllegalArgumentException when {@code size} is not positive or is larger than the
     *     largest block, which no state of the pool could ever serve
     */
    public int orderFor(long size) {
        // lab:begin 6.1 "The order for a size" see ch06 "Rule 1: round up to a power of two"
        if (size <= 0) {
            throw new IllegalArgumentException("alloc(" + size + "): size must be positive");
        }
        int order = Math.max(minOrder, 64 - Long.numberOfLeadingZeros(size - 1));
        if (order > maxOrder) {
            throw new IllegalArgumentException("alloc(" + size + "): larger than the largest block,"
                    + " 2^" + maxOrder + " = " + (1L << maxOrder) + " bytes");
        }
        return order;
        // lab:end
    }
    // end::order[]

    // tag::buddy[]
    /**
     * The buddy of the block at {@code offset} (relative to the pool's base) of the given
     * order: the one address that differs in bit {@code order}. Linux: {@code __find_buddy_pfn}
     * in mm/internal.h.
     */
    public static long buddyOf(long offset, int order) {
        // lab:begin 6.2 "Find the buddy" see ch06 "Rule 3: the buddy is one XOR away"
        return offset ^ (1L << order);
        // lab:end
    }
    // end::buddy[]

    /** The block two buddies of {@code order} merge into: the lower of the two. */
    public static long parentOf(long offset, int order) {
        return offset & ~(1L << order);
    }

    // tag::split[]
    /**
     * Linux's {@code expand}: halves the block at {@code offset} from order {@code high} down
     * to {@code low}, putting each upper half on its order's free list and keeping the lower
     * half. {@code [.... high ....] -> [low][low][ high-2 ][   high-1   ]}, first kept.
     */
    long splitDown(long offset, int high, int low) {
        // lab:begin 6.3 "Split down" see ch06 "Rule 2: split, keep the lower half"
        while (high > low) {
            high--;
            freeArea(high).add(offset + (1L << high));     // the upper half goes back
        }
        return offset;
        // lab:end
    }
    // end::split[]

    // tag::free[]
    /** Frees the live block at {@code address}; it merges with its buddy while that is free. */
    public void free(long address) {
        long offset = address - base();
        Live block = live.get(offset);
        if (block == null) {
            throw new IllegalArgumentException("free(0x" + Long.toHexString(address)
                    + "): not a live block of this pool (never allocated, or already freed)");
        }
        // The merge (step 6.4) runs before any book changes: in a student's cores where it is not
        // written yet its Todo leaves the pool as it was (the block still live), so the next call
        // works or names the step again, rather than failing on a block in no list at all.
        mergeUp(offset, block.order());
        live.remove(offset);
        requested -= block.requested();
        allocated -= 1L << block.order();
        backing.release(offset, 1L << block.order());
    }
    // end::free[]

    // tag::merge[]
    /**
     * Linux's {@code __free_one_page}: while the buddy of the block is free at the same order,
     * take it off its free list and become the parent, one order up; then put the result on
     * its order's free list. {@code [F][me] -> [   F   ]}. Returns the final order.
     */
    int mergeUp(long offset, int order) {
        // lab:begin 6.4 "Merge up" see ch06 "Rule 4: merge while the buddy is free"
        while (order < maxOrder && freeArea(order).remove(buddyOf(offset, order))) {
            offset = parentOf(offset, order);
            order++;
        }
        freeArea(order).add(offset);
        return order;
        // lab:end
    }
    // end::merge[]

    /** {@code nr_free} per order, from {@code minOrder} (index 0) to {@code maxOrder}. */
    public long[] freeCounts() {
        long[] counts = new long[maxOrder - minOrder + 1];
        for (int o = minOrder; o <= maxOrder; o++) counts[o - minOrder] = freeArea(o).size();
        return counts;
    }

    // tag::buddyinfo[]
    /**
     * One line in the layout of Linux's {@code /proc/buddyinfo} ({@code frag_show_print} in
     * {@code mm/vmstat.c}): {@code "Node %d, zone %8s "}, then {@code "%6lu "} per order from
     * the smallest up, then a newline. Column k counts free blocks of 2^k minimum blocks.
     */
    public String buddyinfo() {
        // lab:begin 6.5 "buddyinfo" see ch06 "Monitoring: free blocks per order"
        StringBuilder line = new StringBuilder();
        line.append(String.format(Locale.ROOT, "Node %d, zone %8s ", 0, "Normal"));
        for (long n : freeCounts()) line.append(String.format(Locale.ROOT, "%6d ", n));
        return line.append('\n').toString();
        // lab:end
    }
    // end::buddyinfo[]

    /** The largest free block in bytes, 0 when the pool is full. */
    public long largestFreeBlock() {
        for (int o = maxOrder; o >= minOrder; o--) if (!freeArea(o).isEmpty()) return 1L << o;
        return 0;
    }

    /** Whether a request of {@code size} bytes would find a block now (pages aside). */
    public boolean fits(long size) {
        return size > 0 && size <= 1L << maxOrder && smallestFreeOrderAtLeast(orderFor(size)) >= 0;
    }

    /**
     * Whether {@link #compact()} would make room for {@code size} bytes: compaction packs the
     * live blocks into {@code [0, allocated)}, so a block of the request's order fits when it
     * fits, aligned, in the rest of the pool.
     */
    public boolean fitsAfterCompaction(long size) {
        long block = 1L << orderFor(size);
        long start = (allocated + block - 1) / block * block;
        return start + block <= poolBytes;
    }

    // tag::unusable[]
    /**
     * Linux's unusable free space index for {@code order} ({@code unusable_free_index} in
     * {@code mm/vmstat.c}, shown in debugfs {@code extfrag/unusable_index}), in thousandths:
     * the share of free memory that sits in blocks too small for a request of that order.
     * 0 means every free byte is usable; 1000 means none is (or nothing is free).
     */
    public int unusableIndex(int order) {
        long freeUnits = 0, suitable = 0;
        for (int o = minOrder; o <= maxOrder; o++) {
            long n = freeArea(o).size();
            freeUnits += n << (o - minOrder);
            if (o >= order) suitable += n << (o - order);
        }
        if (freeUnits == 0) return 1000;
        return (int) ((freeUnits - (suitable << (order - minOrder))) * 1000 / freeUnits);
    }
    // end::unusable[]

    /** Every block of the pool, free and live, in address order. */
    public List<Span> spans() {
        List<Span> spans = new ArrayList<>();
        for (int o = minOrder; o <= maxOrder; o++) {
            for (long off : freeArea(o)) spans.add(new Span(off, o, true, 0));
        }
        live.forEach((off, b) -> spans.add(new Span(off, b.order(), false, b.requested())));
        spans.sort(Comparator.comparingLong(Span::offset));
        return spans;
    }

    /** The live blocks, offset to block, in address order. */
    public Map<Long, Live> liveByOffset() {
        Map<Long, Live> m = new LinkedHashMap<>();
        live.keySet().stream().sorted().forEach(off -> m.put(off, live.get(off)));
        return m;
    }

    // tag::compact[]
    /**
     * Compaction by moving live blocks: every live block is placed again, largest first, as
     * if its owner copied it to a new address. Placing in descending size order packs a buddy
     * pool with no hole between live blocks, so the free space merges into the largest blocks
     * it can. Returns old address to new address for every block that moved.
     *
     * <p>Simplification: the copy is not simulated; a real one needs the bytes moved (see
     * {@link Compaction#bytesMoved()}) of device bandwidth and every owner to be paused.
     */
    public Compaction compact() {
        List<Map.Entry<Long, Live>> blocks = new ArrayList<>(live.entrySet());
        blocks.sort(Comparator.comparing((Map.Entry<Long, Live> e) -> -e.getValue().order())
                .thenComparing(Map.Entry::getKey));
        for (var e : blocks) backing.release(e.getKey(), 1L << e.getValue().order());
        live.clear();
        requested = 0;
        allocated = 0;
        free.forEach(NavigableSet::clear);
        for (long off = 0; off < poolBytes; off += 1L << maxOrder) freeArea(maxOrder).add(off);
        Map<Long, Long> moved = new LinkedHashMap<>();
        long bytesMoved = 0;
        for (var e : blocks) {
            long now = alloc(e.getValue().requested()) - base();
            if (now != e.getKey()) {
                moved.put(base() + e.getKey(), base() + now);
                bytesMoved += 1L << e.getValue().order();
            }
        }
        allocCalls -= blocks.size();                        // re-placements are not new calls
        return new Compaction(moved, bytesMoved);
    }
    // end::compact[]

    /** What a compaction did: which blocks moved, and the bytes a real copy would move. */
    public record Compaction(Map<Long, Long> moved, long bytesMoved) {
        /** {@code compaction: 8 blocks moved, 512.00 MiB copied}. */
        @Override public String toString() {
            return "compaction: " + moved.size() + " blocks moved, " + Bytes.formatSize(bytesMoved) + " copied";
        }
    }

    private BuddyOutOfMemoryError oom(long size, int order, String why) {
        failedCalls++;
        return new BuddyOutOfMemoryError("buddy alloc(" + size + ") of order " + order + " failed: "
                + why + "; largest free block " + largestFreeBlock() + " of " + freeBytes()
                + " free bytes\n" + buddyinfo(), size, order);
    }

    /** Checks every invariant in the class comment; throws with the pool's map if one fails. */
    public void checkInvariants() {
        long cursor = 0, sumAllocated = 0, sumRequested = 0;
        List<Span> liveSpans = new ArrayList<>();
        for (Span s : spans()) {
            if (s.offset() != cursor) fail("gap or overlap at offset " + cursor + ": next block " + s);
            if (s.offset() % s.size() != 0) fail("block not aligned to its size: " + s);
            if (s.free() && s.order() < maxOrder && freeArea(s.order()).contains(buddyOf(s.offset(), s.order()))) {
                fail("two free buddies of order " + s.order() + " at " + s.offset());
            }
            if (!s.free()) {
                sumAllocated += s.size();
                sumRequested += s.requested();
                if (s.requested() > s.size()) fail("block smaller than its request: " + s);
                liveSpans.add(s);
            }
            cursor += s.size();
        }
        if (cursor != poolBytes) fail("blocks cover " + cursor + " of " + poolBytes + " bytes");
        if (sumAllocated != allocated || sumRequested != requested) {
            fail("counters allocated=" + allocated + " requested=" + requested + " but blocks sum to "
                    + sumAllocated + " and " + sumRequested);
        }
        try {
            backing.check(liveSpans);
        } catch (IllegalStateException e) {
            fail(e.getMessage());
        }
    }

    private void fail(String what) {
        throw new IllegalStateException(what + "\n" + map() + "\n" + buddyinfo());
    }

    // tag::map[]
    /**
     * The pool as text, one bracket per block in address order, sizes in minimum blocks:
     * {@code [A 1][F 1][F 2][A 4][F 8]} (A for a live block, F for a free one).
     */
    public String map() {
        StringBuilder sb = new StringBuilder();
        for (Span s : spans()) {
            long units = s.size() >> minOrder;
            sb.append(s.free() ? "[F " : "[A ").append(units).append(']');
        }
        return sb.toString();
    }
    // end::map[]

    @Override
    public String toString() { return map(); }
}
