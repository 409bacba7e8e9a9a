package vramlab.contest;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import vramlab.driver.CudaException;
import vramlab.driver.Gpu;
import vramlab.driver.GpuProcess;
import vramlab.units.Bytes;

/**
 * The student's entry in chapter 8's contest: a segregated-free-lists allocator, the starting
 * point to improve on. In CS:APP's terms (3rd ed., section 9.9.14) its small-request path is
 * simple segregated storage (one block size per list, carved from a slab, never split or
 * coalesced), not segregated fits, which splits and coalesces within a class.
 * <ul>
 *   <li>A small request (up to 1 MiB) gets a block of its size class, a power of two from
 *       512 B to 1 MiB, from that class's free list; an empty list gets a new 2 MiB slab from
 *       {@code cudaMalloc}, carved into blocks of the class. A slab serves one class until
 *       {@link #emptyCache} gives it back, empty.
 *   <li>A large request is rounded up to whole 2 MiB pages and takes a cached segment of that
 *       size or at most a quarter larger, or a new {@code cudaMalloc}. When the driver is out of
 *       memory, the cache is emptied and the call tried once more: the last of the retries in
 *       {@code DeviceCachingAllocator::malloc} ({@code CUDACachingAllocator.cpp} @001074d,
 *       {@code release_cached_blocks} then {@code alloc_block}). Simplification: PyTorch first
 *       tries {@code release_available_cached_blocks}, which frees only enough; this entry skips it.
 * </ul>
 */
public final class SegregatedFits implements DeviceAllocator {
    /** A slab, and the granularity of a large segment: one 2 MiB page. */
    public static final long SLAB = Gpu.PAGE;
    /** Size classes 512 B, 1 KiB, ... 1 MiB. */
    public static final int CLASSES = 12;
    /** A cached segment serves a request it exceeds by at most a quarter. */
    public static final int WASTE_DIVISOR = 4;

    private final GpuProcess process;
    private final List<ArrayDeque<Long>> freeLists = new ArrayList<>();
    private final TreeMap<Long, Slab> slabs = new TreeMap<>();                // base -> slab
    private final Map<Long, Long> segments = new HashMap<>();                 // large: address -> size
    private final TreeMap<Long, ArrayDeque<Long>> cached = new TreeMap<>();   // size -> free segments
    private final Map<Long, Long> live = new HashMap<>();                     // address -> block size

    /** A 2 MiB slab carved into blocks of one class, and how many of them are live. */
    private static final class Slab {
        final long base;
        final int sizeClass;
        int live;

        Slab(long base, int sizeClass) {
            this.base = base;
            this.sizeClass = sizeClass;
        }
    }

    public SegregatedFits(GpuProcess process) {
        this.process = process;
        for (int c = 0; c < CLASSES; c++) freeLists.add(new ArrayDeque<>());
    }

    @Override public String name() { return "segregated-fits"; }

    /** The block size of class {@code c}: 512 B times 2^c. */
    public static long classSize(int c) { return ALIGNMENT << c; }

    // tag::sizeClass[]
    /**
     * The size class of a request: the smallest {@code c} with {@code classSize(c) >= size};
     * -1 for a large request, over {@code classSize(CLASSES - 1)} (1 MiB).
     *
     * @throws IllegalArgumentException when {@code size} is not positive
     */
    public static int sizeClass(long size) {
        // lab:begin 8.1 "Pick a size class" see ch08 "A segregated-fits allocator"
        if (size <= 0) throw new IllegalArgumentException("size " + size + " is not positive");
        if (size > classSize(CLASSES - 1)) return -1;
        int c = 0;
        while (classSize(c) < size) c++;
        return c;
        // lab:end
    }
    // end::sizeClass[]

    // tag::alloc[]
    /**
     * Serves a request (the stream is not used: one set of lists for all).
     * <ul>
     *   <li>Small ({@link #sizeClass} {@code >= 0}): the first block of the class's free list; an
     *       empty list first gets a new slab ({@code carve}). The block's slab counts one more live
     *       block, which {@link #emptyCache} reads to find the empty slabs.
     *   <li>Large: the size rounded up to whole {@link #SLAB}s, served by a cached segment
     *       ({@code takeCached}) or else a new one ({@code cudaMalloc}, which retries once after
     *       emptying the cache).
     *   <li>Either way, the block is recorded in {@code live}, its address to its size (the class's
     *       block size, or the whole segment's): {@link #free} and {@link #blockSize} read it
     *       there, and {@link #free} refuses an address missing from it.
     * </ul>
     *
     * @return the block's device address
     */
    @Override
    public long alloc(long size, int stream) {
        // lab:begin 8.2 "Serve a request" see ch08 "A segregated-fits allocator"
        int c = sizeClass(size);
        if (c >= 0) {
            ArrayDeque<Long> list = freeLists.get(c);
            if (list.isEmpty()) carve(c);
            long address = list.pop();
            slabs.floorEntry(address).getValue().live++;
            live.put(address, classSize(c));
            return address;
        }
        long bytes = Bytes.alignUp(size, SLAB);
        long address = takeCached(bytes);
        if (address < 0) address = cudaMalloc(bytes);
        live.put(address, segments.get(address));
        return address;
        // lab:end
    }
    // end::alloc[]

    /** A new slab for class {@code c}, every block of it on the class's free list. */
    private void carve(int c) {
        long base = cudaMalloc(SLAB);
        slabs.put(base, new Slab(base, c));
        for (long at = base; at < base + SLAB; at += classSize(c)) freeLists.get(c).add(at);
    }

    /** A cached segment of at least {@code bytes} and at most a quarter more, now taken; -1 if none. */
    private long takeCached(long bytes) {
        Map.Entry<Long, ArrayDeque<Long>> fit = cached.ceilingEntry(bytes);
        if (fit == null || fit.getKey() > bytes + bytes / WASTE_DIVISOR) return -1;
        long address = fit.getValue().pop();
        if (fit.getValue().isEmpty()) cached.remove(fit.getKey());
        return address;
    }

    /** {@code cudaMalloc}, and once more after {@link #emptyCache} when the driver is out of memory. */
    private long cudaMalloc(long bytes) {
        long address;
        try {
            address = process.cudaMalloc(bytes);
        } catch (CudaException e) {
            if (!e.isOutOfMemory() || emptyCache() == 0) throw e;
            address = process.cudaMalloc(bytes);
        }
        segments.put(address, bytes);
        return address;
    }

    @Override
    public void free(long address) {
        Long size = live.remove(address);
        if (size == null) throw new IllegalArgumentException("free(0x" + Long.toHexString(address) + "): no live block");
        Map.Entry<Long, Slab> slab = slabs.floorEntry(address);
        if (slab != null && address < slab.getKey() + SLAB) {
            slab.getValue().live--;
            freeLists.get(slab.getValue().sizeClass).push(address);
        } else {
            cached.computeIfAbsent(size, k -> new ArrayDeque<>()).push(address);
        }
    }

    @Override public long blockSize(long address) { return live.getOrDefault(address, -1L); }

    // tag::emptyCache[]
    /** Gives back every slab with no live block and every cached large segment. */
    @Override
    public long emptyCache() {
        long released = 0;
        for (Iterator<Slab> it = slabs.values().iterator(); it.hasNext(); ) {
            Slab s = it.next();
            if (s.live > 0) continue;
            freeLists.get(s.sizeClass).removeIf(a -> a >= s.base && a < s.base + SLAB);
            it.remove();
            released += release(s.base);
        }
        for (ArrayDeque<Long> free : cached.values()) {
            for (long address : free) released += release(address);
        }
        cached.clear();
        return released;
    }
    // end::emptyCache[]

    /**
     * What JShell shows: the slabs by size class, the large segments and how many of them are
     * cached, and the live blocks (totals as {@code format_size} prints them), e.g.
     * {@code segregated-fits: 2 slabs of 2 MiB (512 B: 1, 64 KiB: 1), 1 large segment: 20.00 MiB (0 cached),
     * 3 live blocks: 20.06 MiB}. The live blocks are those {@link #alloc} recorded in {@code live}.
     */
    @Override
    public String toString() {
        TreeMap<Integer, Integer> perClass = new TreeMap<>();
        for (Slab s : slabs.values()) perClass.merge(s.sizeClass, 1, Integer::sum);
        StringBuilder sb = new StringBuilder(name()).append(": ").append(slabs.size())
                .append(slabs.size() == 1 ? " slab" : " slabs").append(" of ").append(Bytes.readable(SLAB));
        String sep = " (";
        for (Map.Entry<Integer, Integer> e : perClass.entrySet()) {
            sb.append(sep).append(Bytes.readable(classSize(e.getKey()))).append(": ").append(e.getValue());
            sep = ", ";
        }
        if (!perClass.isEmpty()) sb.append(')');
        long largeBytes = 0;
        int cachedCount = 0;
        for (Map.Entry<Long, Long> e : segments.entrySet()) if (!slabs.containsKey(e.getKey())) largeBytes += e.getValue();
        for (ArrayDeque<Long> free : cached.values()) cachedCount += free.size();
        int large = segments.size() - slabs.size();
        sb.append(", ").append(large).append(large == 1 ? " large segment: " : " large segments: ")
                .append(Bytes.formatSize(largeBytes)).append(" (").append(cachedCount).append(" cached)");
        long liveBytes = 0;
        for (long size : live.values()) liveBytes += size;
        return sb.append(", ").append(live.size()).append(live.size() == 1 ? " live block: " : " live blocks: ")
                .append(Bytes.formatSize(liveBytes)).toString();
    }

    private long release(long address) {
        process.cudaFree(address);
        return segments.remove(address);
    }
}
