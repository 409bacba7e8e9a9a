package vramlab.alloc;

import static vramlab.units.Bytes.formatSize;

import java.util.Map;
import java.util.TreeMap;

/**
 * PyTorch's {@code DeviceStats} (c10/cuda/CUDACachingAllocator.h, struct at lines 63-100), kept
 * by the allocator core at the same points the source updates them, and flattened into the
 * keys of {@code torch.cuda.memory_stats()} ({@code allocated_bytes.all.current}, ...).
 */
public final class MemoryStats {
    /** One statistic: {@code current}, {@code peak}, and cumulative {@code allocated}/{@code freed}. */
    public static final class Stat {
        long current, peak, allocated, freed;

        /** {@code increase_stat} (CCA:138-144). */
        void increase(long n) {
            current += n;
            peak = Math.max(peak, current);
            allocated += n;
        }

        /** {@code decrease_stat} (CCA:146-150). */
        void decrease(long n) {
            current -= n;
            freed += n;
        }

        public long current() { return current; }
        public long peak() { return peak; }
        public long allocated() { return allocated; }
        public long freed() { return freed; }
    }

    /** PyTorch's {@code StatType}: AGGREGATE, SMALL_POOL, LARGE_POOL ("all", "small_pool", "large_pool"). */
    public static final String[] STAT_TYPES = {"all", "small_pool", "large_pool"};

    /** The per-pool arrays, in the order {@code memory_stats()} names them. */
    public static final String[] ARRAYS = {"allocation", "segment", "active", "inactive_split",
        "allocated_bytes", "reserved_bytes", "active_bytes", "inactive_split_bytes", "requested_bytes"};

    // Indices into ARRAYS, so the allocator's hot path updates a stat without a map lookup.
    static final int ALLOCATION = 0, SEGMENT = 1, ACTIVE = 2, INACTIVE_SPLIT = 3, ALLOCATED_BYTES = 4,
            RESERVED_BYTES = 5, ACTIVE_BYTES = 6, INACTIVE_SPLIT_BYTES = 7, REQUESTED_BYTES = 8;

    private final Stat[][] arrays = new Stat[ARRAYS.length][];
    final Stat oversizeAllocations = new Stat();
    final Stat oversizeSegments = new Stat();
    long numAllocRetries, numOoms, numSyncAllStreams, numDeviceAlloc, numDeviceFree;
    long maxSplitSize = -1;                 // SIZE_MAX seen through int64: -1 means unlimited

    MemoryStats() {
        for (int i = 0; i < ARRAYS.length; i++) arrays[i] = new Stat[] {new Stat(), new Stat(), new Stat()};
    }

    /** One stat of one pool type: {@code stat("reserved_bytes", "large_pool")}. */
    public Stat stat(String array, String type) {
        int index = java.util.Arrays.asList(ARRAYS).indexOf(array);
        if (index < 0) throw new IllegalArgumentException("no statistic '" + array + "'");
        Stat[] s = arrays[index];
        for (int i = 0; i < STAT_TYPES.length; i++) if (STAT_TYPES[i].equals(type)) return s[i];
        throw new IllegalArgumentException("no stat type '" + type + "' (expected all, small_pool, large_pool)");
    }

    void increase(int array, PoolKind pool, long n) {
        Stat[] s = arrays[array];
        s[0].increase(n);
        s[index(pool)].increase(n);
    }

    void decrease(int array, PoolKind pool, long n) {
        Stat[] s = arrays[array];
        s[0].decrease(n);
        s[index(pool)].decrease(n);
    }

    private static int index(PoolKind pool) { return pool == PoolKind.SMALL ? 1 : 2; }

    /** {@code torch.cuda.reset_peak_memory_stats()}: every peak becomes the current value. */
    public void resetPeak() {
        for (Stat[] a : arrays) for (Stat s : a) s.peak = s.current;
        oversizeAllocations.peak = oversizeAllocations.current;
        oversizeSegments.peak = oversizeSegments.current;
    }

    /** {@code torch.cuda.reset_accumulated_memory_stats()}: totals and event counts back to 0. */
    public void resetAccumulated() {
        for (Stat[] a : arrays) for (Stat s : a) s.allocated = s.freed = 0;
        oversizeAllocations.allocated = oversizeAllocations.freed = 0;
        oversizeSegments.allocated = oversizeSegments.freed = 0;
        numAllocRetries = numOoms = numSyncAllStreams = numDeviceAlloc = numDeviceFree = 0;
    }

    /**
     * What JShell shows: the "all" figures of memory_stats() that the notes read, in
     * {@code format_size}'s units (the full dictionary is {@link #asMap()}).
     */
    @Override
    public String toString() {
        Stat[] bytes = {arrays[REQUESTED_BYTES][0], arrays[ALLOCATED_BYTES][0], arrays[RESERVED_BYTES][0],
            arrays[ACTIVE_BYTES][0]};
        String[] names = {"requested", "allocated", "reserved", "active"};
        StringBuilder sb = new StringBuilder("memory_stats:");
        for (int i = 0; i < names.length; i++) {
            sb.append(' ').append(names[i]).append(' ').append(formatSize(bytes[i].current()))
              .append(" (peak ").append(formatSize(bytes[i].peak())).append("),");
        }
        return sb.append(" segments ").append(arrays[SEGMENT][0].current()).append(", num_alloc_retries ")
                .append(numAllocRetries).append(", num_ooms ").append(numOoms).toString();
    }

    public long numAllocRetries() { return numAllocRetries; }
    public long numOoms() { return numOoms; }
    public Stat oversizeAllocations() { return oversizeAllocations; }
    public Stat oversizeSegments() { return oversizeSegments; }

    /**
     * {@code torch.cuda.memory_stats()}: the nested stats flattened with dots, sorted by key
     * as the Python side sorts them (torch/cuda/memory.py, memory_stats).
     */
    public Map<String, Long> asMap() {
        Map<String, Long> m = new TreeMap<>();
        for (int a = 0; a < ARRAYS.length; a++) {
            for (int i = 0; i < STAT_TYPES.length; i++) put(m, ARRAYS[a] + "." + STAT_TYPES[i], arrays[a][i]);
        }
        put(m, "oversize_allocations", oversizeAllocations);
        put(m, "oversize_segments", oversizeSegments);
        m.put("num_alloc_retries", numAllocRetries);
        m.put("num_ooms", numOoms);
        m.put("num_sync_all_streams", numSyncAllStreams);
        m.put("num_device_alloc", numDeviceAlloc);
        m.put("num_device_free", numDeviceFree);
        m.put("max_split_size", maxSplitSize);
        return m;
    }

    private static void put(Map<String, Long> m, String prefix, Stat s) {
        m.put(prefix + ".current", s.current);
        m.put(prefix + ".peak", s.peak);
        m.put(prefix + ".allocated", s.allocated);
        m.put(prefix + ".freed", s.freed);
    }
}
