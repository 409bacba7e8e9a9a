package vramlab.gmmu;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A translation cache: one entry per cached page, whatever its size, least recently used out
 * first. One entry for a 2 MiB page answers for 512 4 KiB pages' worth of VA, which is why
 * large pages save walks.
 *
 * <p>Simplification: real GPU TLBs are several levels, per engine, with undocumented sizes; this
 * is one fully associative LRU cache with a capacity you choose.
 */
public final class Tlb {
    private static final PageSize[] LARGEST_FIRST = {PageSize.SIZE_2M, PageSize.SIZE_64K, PageSize.SIZE_4K};

    private final int capacity;
    private final Map<Long, Pte> entries;
    private long hits;
    private long misses;

    public Tlb(int capacity) {
        if (capacity <= 0) throw new IllegalArgumentException("Tlb: capacity must be positive, was " + capacity);
        this.capacity = capacity;
        this.entries = new LinkedHashMap<>(16, 0.75f, true) {
            private static final long serialVersionUID = 1L;

            @Override protected boolean removeEldestEntry(Map.Entry<Long, Pte> eldest) {
                return size() > Tlb.this.capacity;
            }
        };
    }

    /** The key of the page of {@code size} that holds {@code va}: its page number and its size. */
    static long key(PageSize size, long va) { return (va >>> size.shift()) << 2 | size.ordinal(); }

    // tag::lookup[]
    /** The cached PTE whose page holds {@code va}, counting a hit; or null, counting a miss. */
    public Pte lookup(long va) {
        // lab:begin 1.2 "Look up the TLB" see ch01 "The TLB"
        for (PageSize size : LARGEST_FIRST) {
            Pte pte = entries.get(key(size, va));        // get() also makes it most recent
            if (pte != null) {
                hits++;
                return pte;
            }
        }
        misses++;
        return null;
        // lab:end
    }
    // end::lookup[]

    /** Caches the PTE that a walk found for {@code va}. */
    public void fill(long va, Pte pte) { entries.put(key(pte.size(), va), pte); }

    /**
     * Drops the cached page of {@code size} at {@code va}: what the driver does after an unmap.
     * An empty TLB (a replay never translates) has nothing to drop, and no key is boxed for it.
     */
    public void invalidate(long va, PageSize size) {
        if (!entries.isEmpty()) entries.remove(key(size, va));
    }

    public void flush() { entries.clear(); }

    public long hits() { return hits; }

    public long misses() { return misses; }

    public int size() { return entries.size(); }

    public int capacity() { return capacity; }

    public void resetCounters() {
        hits = 0;
        misses = 0;
    }

    @Override public String toString() {
        return "TLB " + entries.size() + "/" + capacity + " entries, hits=" + hits + " misses=" + misses;
    }
}
