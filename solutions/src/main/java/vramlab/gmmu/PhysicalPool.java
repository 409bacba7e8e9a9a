package vramlab.gmmu;

import java.util.BitSet;
import java.util.Collection;
import java.util.Collections;
import java.util.TreeMap;

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
 * <p>Invariants: chunks do not overlap; each chunk's frames, and no others, are marked used;
 * {@code usedBytes} is the sum of the chunk sizes.
 */
public final class PhysicalPool {
    public static final long FRAME = 64 * Bytes.KiB;

    /** A run of frames and whom it belongs to. */
    public record Chunk(long address, long size, Object owner) {
        public long end() { return address + size; }
    }

    private final int device;
    private final long capacity;
    private final int frames;
    private final BitSet used;
    private final TreeMap<Long, Chunk> chunks = new TreeMap<>();
    private int lowestFree;                  // no frame below this is free: where a search starts
    private long usedBytes;

    public PhysicalPool(int device, long capacity) {
        if (capacity <= 0) throw new IllegalArgumentException("PhysicalPool: capacity " + capacity);
        long n = capacity / FRAME;
        if (n > Integer.MAX_VALUE) throw new IllegalArgumentException("PhysicalPool: too large " + capacity);
        this.device = device;
        this.capacity = capacity;
        this.frames = (int) n;
        this.used = new BitSet(frames);
    }

    public int device() { return device; }

    public long capacity() { return capacity; }

    public long usedBytes() { return usedBytes; }

    /** Bytes in whole free frames. */
    public long freeBytes() { return (long) (frames - used.cardinality()) * FRAME; }

    // tag::allocate[]
    /**
     * Takes the lowest free run of {@code bytes} aligned to {@code alignment} for {@code owner}.
     *
     * @return the chunk's physical address, or -1 when no such run is free
     */
    public long allocate(long bytes, long alignment, Object owner) {
        if (bytes <= 0 || bytes % FRAME != 0 || alignment % FRAME != 0 || !Bytes.isPowerOfTwo(alignment)) {
            throw new IllegalArgumentException("allocate(" + bytes + ", align " + alignment
                    + "): sizes and alignments are whole 64 KiB frames, alignment a power of two");
        }
        int n = (int) (bytes / FRAME);
        int step = (int) (alignment / FRAME);
        int start = alignUp(used.nextClearBit(lowestFree), step);
        while (start + n <= frames) {
            int clash = used.nextSetBit(start);
            if (clash < 0 || clash >= start + n) return take(start, n, owner);
            start = alignUp(used.nextClearBit(clash), step);
        }
        return -1;
    }
    // end::allocate[]

    private long take(int start, int n, Object owner) {
        used.set(start, start + n);
        long addr = start * FRAME;
        chunks.put(addr, new Chunk(addr, n * FRAME, owner));
        usedBytes += n * FRAME;
        lowestFree = used.nextClearBit(lowestFree);
        return addr;
    }

    /** Gives back the whole chunk that starts at {@code address}. */
    public void release(long address) {
        Chunk c = chunks.remove(address);
        if (c == null) {
            throw new IllegalStateException("release(0x" + Long.toHexString(address) + "): no chunk starts there on GPU " + device);
        }
        int start = (int) (address / FRAME);
        used.clear(start, start + (int) (c.size() / FRAME));
        usedBytes -= c.size();
        lowestFree = Math.min(lowestFree, start);
    }

    /** The chunk that holds {@code address}, or null. */
    public Chunk chunkAt(long address) {
        var e = chunks.floorEntry(address);
        return e != null && address < e.getValue().end() ? e.getValue() : null;
    }

    public Collection<Chunk> chunks() { return Collections.unmodifiableCollection(chunks.values()); }

    public void checkInvariants() {
        long end = 0;
        long sum = 0;
        BitSet expect = new BitSet(frames);
        for (Chunk c : chunks.values()) {
            if (c.address() < end) throw new IllegalStateException("PhysicalPool: chunks overlap at " + c);
            end = c.end();
            sum += c.size();
            expect.set((int) (c.address() / FRAME), (int) (c.end() / FRAME));
        }
        if (!expect.equals(used) || sum != usedBytes || used.nextClearBit(0) < lowestFree) {
            throw new IllegalStateException("PhysicalPool: frames used " + used.cardinality()
                    + " vs chunks " + expect.cardinality() + ", usedBytes " + usedBytes + " vs " + sum);
        }
    }

    private static int alignUp(int n, int step) { return (n + step - 1) / step * step; }

    @Override public String toString() {
        return "GPU " + device + " pool: " + Bytes.formatSize(usedBytes) + " used of "
                + Bytes.formatSize(capacity) + " in " + chunks.size() + " chunks";
    }
}
