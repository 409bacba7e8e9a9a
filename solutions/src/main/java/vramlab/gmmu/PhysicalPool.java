package vramlab.gmmu;

import java.util.BitSet;
import java.util.List;

import vramlab.units.AddressTable;
import vramlab.units.Bytes;

/**
 * One GPU's physical memory, owned by the driver and shared by every process: frames handed out
 * in naturally aligned chunks, each chunk with exactly one owner.
 *
 * <p>The frame is 64 KiB, RM's PMA granularity ({@code PMA_GRANULARITY 0x10000},
 * open-gpu-kernel-modules 595.45.04, src/nvidia/inc/kernel/gpu/mem_mgr/phys_mem_allocator/
 * map_defines.h). A 2 MiB page takes a 2 MiB-aligned run of 32 frames, as UVM's PMM takes 2 MiB
 * root chunks. Simplification: first fit from the lowest address, no per-type free lists and no
 * buddy splitting (chapter 6 builds the buddy).
 *
 * <p>Finding that first fit fast. Every cudaMalloc asks for 2 MiB pages, so the pool also keeps
 * a coarser map: one bit per 2 MiB granule of 32 frames, set when the granule holds a used frame.
 * A run of whole granules starting on a granule boundary is free exactly when none of its
 * granules is busy, so a request whose size and alignment are whole granules searches that map,
 * 32 times fewer bits, and lands on the same lowest address the frame search would find. Other
 * requests (the reserve, contexts: 64 KiB-aligned) search the frames. Each map keeps a hint
 * where its search starts, moved up lazily by the search itself. Both maps are
 * {@link SummaryBitmap}s, bitmaps with 64-way summaries in the shape of RM's former address
 * tree (addrtree.c, up to 545.29.06): each
 * step of the search (the next used bit, the next free one) reads at most two words a level,
 * so a cudaMalloc page costs a few word reads on any card, however full or however long the
 * run, where a plain bitmap read every word from the hint up (on a 1 TiB card, up to 8,192
 * words of granules, 262,144 of frames). A request of several frames costs that per used run it
 * passes before its fit; the kit asks for several only for the reserve and the contexts, once a
 * process. A chunk that starts a granule
 * and covers it whole (every cudaMalloc page) sits in that granule's slot, since no other chunk
 * can start in its granule: a 2 MiB page as its bare owner, made into a {@link Chunk} only when
 * one is asked for ({@link #chunkAt}, {@link #chunks}), so taking a page makes no object; a
 * longer chunk, or a page whose owner is itself a {@code Chunk}, as its {@code Chunk}. Any other
 * chunk sits in a hash table by first frame (an
 * {@link AddressTable}, keyed by {@link #key}); and a bitmap of the first frames gives
 * {@link #chunkAt} and address order. A cudaMalloc of several pages takes them in one call,
 * {@link #allocatePages}: each page is still the lowest free granule, as that many calls of
 * {@link #allocate} would give, but a run of free granules is marked in one range of each map.
 *
 * <p>Invariants: chunks do not overlap; each chunk's frames, and no others, are marked used;
 * {@code usedBytes} is the sum of the chunk sizes; each chunk's first frame, and no other, is
 * marked a start; a granule is marked busy exactly when one of its frames is used; no frame below
 * {@code lowestFree} is free, no granule below {@code lowestFreeGranule} is free; each map's
 * summaries agree with its bits ({@link SummaryBitmap#checkInvariants}).
 */
public final class PhysicalPool {
    public static final long FRAME = 64 * Bytes.KiB;

    /** Frames in a 2 MiB granule, the unit of the coarse map. */
    static final int GRANULE = 32;

    /** A 2 MiB page: one granule, what {@link #allocatePages} hands out. */
    public static final long PAGE = GRANULE * FRAME;

    /** A run of frames and whom it belongs to. */
    public record Chunk(long address, long size, Object owner) {
        public long end() { return address + size; }
    }

    private final int device;
    private final long capacity;
    private final int frames;
    final SummaryBitmap used;                // frame f is used
    private static final int LEAF = 4096;    // granule slots per leaf (8 GiB), made when first used
    private final Object[][] byGranule;      // chunks that start a granule and cover it whole:
                                             // a page's owner, or a Chunk (see the class comment)
    final AddressTable<Chunk> chunks = new AddressTable<>();  // the other chunks, by key(first frame)
    final BitSet starts;                     // each chunk's first frame: floor lookups, order
    final SummaryBitmap busyGranules;        // granule g holds a used frame
    int lowestFree;                          // no frame below this is free: where a search starts
    int lowestFreeGranule;                   // no granule below this is free
    private long usedBytes;

    public PhysicalPool(int device, long capacity) {
        if (capacity <= 0) throw new IllegalArgumentException("PhysicalPool: capacity " + capacity);
        long n = capacity / FRAME;
        if (n > Integer.MAX_VALUE) throw new IllegalArgumentException("PhysicalPool: too large " + capacity);
        this.device = device;
        this.capacity = capacity;
        this.frames = (int) n;
        this.used = new SummaryBitmap(frames);
        this.busyGranules = new SummaryBitmap(granules(frames));
        this.starts = new BitSet(frames);
        this.byGranule = new Object[(granules(frames) + LEAF - 1) / LEAF][];
    }

    public int device() { return device; }

    public long capacity() { return capacity; }

    public long usedBytes() { return usedBytes; }

    /** Bytes in whole free frames. */
    public long freeBytes() { return frames * FRAME - usedBytes; }

    // tag::allocate[]
    /**
     * Takes the lowest free run of {@code bytes} aligned to {@code alignment} for {@code owner}.
     *
     * @return the chunk's physical address, or -1 when no such run is free
     * @throws IllegalArgumentException for a null owner (every chunk has one)
     */
    public long allocate(long bytes, long alignment, Object owner) {
        requireOwner(owner);
        if (bytes <= 0 || bytes % FRAME != 0 || alignment % FRAME != 0 || !Bytes.isPowerOfTwo(alignment)) {
            throw new IllegalArgumentException("allocate(" + bytes + ", align " + alignment
                    + "): sizes and alignments are whole 64 KiB frames, alignment a power of two");
        }
        int n = (int) (bytes / FRAME);
        int step = (int) (alignment / FRAME);
        int start;
        if (n % GRANULE == 0 && step % GRANULE == 0) {   // whole granules: the coarse map
            lowestFreeGranule = busyGranules.nextClearBit(lowestFreeGranule);
            int g = firstFit(busyGranules, lowestFreeGranule, n / GRANULE, step / GRANULE,
                    frames / GRANULE);
            start = g < 0 ? -1 : g * GRANULE;
        } else {
            lowestFree = used.nextClearBit(lowestFree);
            start = firstFit(used, lowestFree, n, step, frames);
        }
        return start < 0 ? -1 : take(start, n, owner);
    }

    /**
     * The lowest {@code start >= from}, a multiple of {@code step}, with bits
     * {@code [start, start + n)} all clear and {@code start + n <= limit}; -1 if none.
     */
    private static int firstFit(SummaryBitmap busy, int from, int n, int step, int limit) {
        int start = alignUp(from, step);
        while (start + n <= limit) {
            int clash = busy.nextSetBit(start);
            if (clash < 0 || clash >= start + n) return start;
            start = alignUp(busy.nextClearBit(clash), step);
        }
        return -1;
    }
    // end::allocate[]

    /**
     * Takes {@code into.length} 2 MiB pages for {@code owner}, each the lowest free 2 MiB-aligned
     * run of 32 frames, exactly as that many {@code allocate(PAGE, PAGE, owner)} calls in a row
     * would, and writes their addresses into {@code into} in that order. A run of free granules
     * is marked used in one range of each map rather than a page at a time.
     *
     * @return how many pages were taken: {@code into.length}, or fewer when no free granule is
     *     left (those taken stay taken, as the single calls before the failing one would leave them)
     * @throws IllegalArgumentException for a null owner (every chunk has one)
     */
    public int allocatePages(long[] into, Object owner) {
        requireOwner(owner);
        Object slot = owner instanceof Chunk ? null : owner;    // a Chunk owner: a Chunk per page
        int limit = frames / GRANULE;                    // whole granules only, as allocate has it
        int k = 0;
        int g = busyGranules.nextClearBit(lowestFreeGranule);
        while (k < into.length && g < limit) {
            int busy = busyGranules.nextSetBit(g);
            int run = Math.min(busy < 0 ? limit : Math.min(busy, limit), g + into.length - k) - g;
            used.set(g * GRANULE, (g + run) * GRANULE);
            busyGranules.set(g, g + run);
            for (int end = g + run; g < end; g++) {
                int start = g * GRANULE;
                long addr = start * FRAME;
                putSlot(g, slot != null ? slot : new Chunk(addr, PAGE, owner));
                starts.set(start);
                into[k++] = addr;
            }
            usedBytes += run * PAGE;
            g = busyGranules.nextClearBit(g);
        }
        lowestFreeGranule = Math.min(g, busyGranules.size());
        return k;
    }

    private static void requireOwner(Object owner) {
        if (owner == null) throw new IllegalArgumentException("PhysicalPool: a chunk needs an owner, was null");
    }

    private long take(int start, int n, Object owner) {
        used.set(start, start + n);
        busyGranules.set(start / GRANULE, granules(start + n));
        long addr = start * FRAME;
        putChunk(start, n, owner);
        starts.set(start);
        usedBytes += n * FRAME;
        return addr;                         // both hints stay lower bounds: nothing was freed
    }

    /** Gives back the whole chunk that starts at {@code address}. */
    public void release(long address) {
        long size = address < 0 || address % FRAME != 0 || address / FRAME >= frames ? -1
                : removeChunk((int) (address / FRAME));
        if (size < 0) {
            throw new IllegalStateException("release(0x" + Long.toHexString(address) + "): no chunk starts there on GPU " + device);
        }
        int start = (int) (address / FRAME);
        int end = start + (int) (size / FRAME);
        starts.clear(start);
        used.clear(start, end);
        freeGranules(start, end);
        usedBytes -= size;
        lowestFree = Math.min(lowestFree, start);
    }

    /**
     * Gives back the chunks that start at {@code addresses}, in that order, as that many
     * {@link #release} calls would. The 2 MiB pages among them ({@link #allocatePages}'s) are
     * cleared a run of neighbouring granules at a time: a page covers its granule alone, so no
     * other chunk's frame is left to keep the granule busy.
     */
    public void releasePages(long[] addresses) {
        int runStart = 0, runEnd = -1;                   // granules [runStart, runEnd) to clear
        for (long a : addresses) {
            int g = pageGranule(a);
            if (g < 0) {                                 // not a page in a granule slot: the long way
                clearGranules(runStart, runEnd);
                runEnd = -1;
                release(a);
                continue;
            }
            byGranule[g / LEAF][g % LEAF] = null;
            starts.clear(g * GRANULE);
            usedBytes -= PAGE;
            if (g != runEnd) {
                clearGranules(runStart, runEnd);
                runStart = g;
            }
            runEnd = g + 1;
        }
        clearGranules(runStart, runEnd);
    }

    /**
     * The granule of the 2 MiB page chunk that starts at {@code address}, or -1 when none does.
     * A chunk in granule {@code g}'s slot covers the granule and perhaps more; it is a page
     * exactly when the next granule's first frame is not its: free, or another chunk's first.
     * That reads the bitmap words the release clears anyway rather than the chunk, which a long
     * replay has long pushed out of the cache. Pages given back before, whose frames
     * {@link #releasePages} clears later, still read used there: a page taken for a longer
     * chunk only sends it the long way ({@link #release}), never the reverse.
     */
    private int pageGranule(long address) {
        if (address < 0 || address % PAGE != 0 || address / FRAME >= frames) return -1;
        int g = (int) (address / PAGE);
        Object[] leaf = byGranule[g / LEAF];
        if (leaf == null || leaf[g % LEAF] == null) return -1;
        int next = (g + 1) * GRANULE;
        return next >= frames || !used.get(next) || starts.get(next) ? g : -1;
    }

    /** Frees whole granules {@code [from, to)}, whose frames only released pages held. */
    private void clearGranules(int from, int to) {
        if (to <= from) return;
        used.clear(from * GRANULE, to * GRANULE);
        busyGranules.clear(from, to);
        lowestFree = Math.min(lowestFree, from * GRANULE);
        lowestFreeGranule = Math.min(lowestFreeGranule, from);
    }

    /** Clears the granules frames {@code [start, end)} touched, but an end one another chunk shares. */
    private void freeGranules(int start, int end) {
        int first = start / GRANULE;
        int last = granules(end) - 1;
        busyGranules.clear(first, last + 1);
        if (holdsUsedFrame(first)) busyGranules.set(first, first + 1);
        if (holdsUsedFrame(last)) busyGranules.set(last, last + 1);
        lowestFreeGranule = Math.min(lowestFreeGranule, first);
    }

    private boolean holdsUsedFrame(int granule) {
        int frame = used.nextSetBit(granule * GRANULE);
        return frame >= 0 && frame < (granule + 1) * GRANULE;
    }

    /** The chunk that holds {@code address}, or null. */
    public Chunk chunkAt(long address) {
        if (address < 0 || address >= capacity) return null;
        int start = starts.previousSetBit((int) (address / FRAME));
        Chunk c = start < 0 ? null : chunkStartingAt(start);
        return c != null && address < c.end() ? c : null;
    }

    /** How many chunks there are: {@code chunks().size()}, without making the list. */
    public int chunkCount() { return starts.cardinality(); }

    /** Every chunk, in address order (a copy). */
    public List<Chunk> chunks() {
        return starts.stream().mapToObj(this::chunkStartingAt).toList();
    }

    /** Books the chunk of frames {@code [start, start + n)} for {@code owner}: a slot or the table. */
    private void putChunk(int start, int n, Object owner) {
        long addr = start * FRAME;
        if (start % GRANULE == 0 && n >= GRANULE) {
            putSlot(start / GRANULE, n == GRANULE && !(owner instanceof Chunk) ? owner
                    : new Chunk(addr, n * FRAME, owner));
        } else {
            chunks.put(key(start), new Chunk(addr, n * FRAME, owner));
        }
    }

    /** Granule {@code g}'s slot gets {@code entry}: a page's owner, or a Chunk. */
    private void putSlot(int g, Object entry) {
        Object[] leaf = byGranule[g / LEAF];
        if (leaf == null) leaf = byGranule[g / LEAF] = new Object[LEAF];
        leaf[g % LEAF] = entry;
    }

    /** What granule {@code g}'s slot holds (a page's owner, a Chunk), or null. */
    private Object slot(int g) {
        Object[] leaf = byGranule[g / LEAF];
        return leaf == null ? null : leaf[g % LEAF];
    }

    /** The chunk whose first frame is {@code start}, or null; a page's is made here. */
    private Chunk chunkStartingAt(int start) {
        if (start % GRANULE == 0) {
            Object e = slot(start / GRANULE);
            if (e instanceof Chunk c) return c;
            if (e != null) return new Chunk(start * FRAME, PAGE, e);
        }
        return chunks.get(key(start));
    }

    /** A chunk's key in {@link #chunks}: its first frame + 1, since 0 is no key there. */
    static long key(int frame) { return frame + 1L; }

    /** Forgets the chunk whose first frame is {@code start}; its size, or -1 when none starts there. */
    private long removeChunk(int start) {
        if (start % GRANULE == 0) {
            Object[] leaf = byGranule[start / GRANULE / LEAF];
            Object e = leaf == null ? null : leaf[start / GRANULE % LEAF];
            if (e != null) {
                leaf[start / GRANULE % LEAF] = null;
                return e instanceof Chunk c ? c.size() : PAGE;
            }
        }
        Chunk c = chunks.remove(key(start));
        return c == null ? -1 : c.size();
    }

    public void checkInvariants() {
        used.checkInvariants();
        busyGranules.checkInvariants();
        checkChunks();
        checkGranules();
    }

    /** Words both maps have read in their searches so far: what the tests hold to log n. */
    long searchSteps() { return used.steps + busyGranules.steps; }

    private void checkChunks() {
        chunks.checkInvariants();
        long end = 0;
        long sum = 0;
        BitSet expect = new BitSet(frames);
        List<Chunk> inOrder = chunks();
        int inSlots = 0;
        for (Object[] leaf : byGranule) {
            if (leaf != null) for (Object e : leaf) if (e != null) inSlots++;
        }
        int held = inSlots + chunks.size();
        if (inOrder.size() != held || inOrder.contains(null)) {
            throw new IllegalStateException("PhysicalPool: " + held + " chunks (" + inSlots + " in granule slots, "
                    + chunks.size() + " in the table) but " + starts.cardinality() + " marked starts");
        }
        for (Chunk c : inOrder) {
            if (c.address() < end) throw new IllegalStateException("PhysicalPool: chunks overlap at " + c);
            end = c.end();
            sum += c.size();
            expect.set((int) (c.address() / FRAME), (int) (c.end() / FRAME));
        }
        if (!expect.equals(used.toBitSet()) || sum != usedBytes || used.nextClearBit(0) < lowestFree) {
            throw new IllegalStateException("PhysicalPool: frames used " + used.cardinality()
                    + " vs chunks " + expect.cardinality() + ", usedBytes " + usedBytes + " vs "
                    + sum + ", first free frame " + used.nextClearBit(0)
                    + " vs hint " + lowestFree);
        }
    }

    private void checkGranules() {
        BitSet busy = new BitSet(granules(frames));
        BitSet usedFrames = used.toBitSet();
        for (int f = usedFrames.nextSetBit(0); f >= 0; f = usedFrames.nextSetBit((f / GRANULE + 1) * GRANULE)) {
            busy.set(f / GRANULE);
        }
        int firstFree = busyGranules.nextClearBit(0);
        if (!busy.equals(busyGranules.toBitSet()) || firstFree < lowestFreeGranule) {
            throw new IllegalStateException("PhysicalPool: granules busy "
                    + busyGranules.cardinality() + " vs frames' " + busy.cardinality()
                    + ", first free granule " + firstFree + " vs hint " + lowestFreeGranule);
        }
    }

    private static int alignUp(int n, int step) { return (n + step - 1) / step * step; }

    /** Granules that frames {@code [0, frames)} touch. */
    private static int granules(int frames) { return (frames + GRANULE - 1) / GRANULE; }

    @Override public String toString() {
        return "GPU " + device + " pool: " + Bytes.formatSize(usedBytes) + " used of "
                + Bytes.formatSize(capacity) + " in " + starts.cardinality() + " chunks";
    }
}
