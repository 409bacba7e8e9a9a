package vramlab.driver;

import java.util.Map;
import java.util.TreeMap;

import vramlab.units.Bytes;

/**
 * The part of one process's virtual address space where the kit places one device's
 * allocations and reservations: {@code [floor, end)}, with the ranges handed out so far. A fresh
 * process's VA starts at {@code base}, inside the window.
 *
 * <p>CUDA's unified virtual addressing gives a process one address space for the host and all
 * its devices, so device VA is host VA: it ends where the host's user space ends. On x86-64
 * with 4-level paging that is 128 TiB ({@code TASK_SIZE_MAX = (1 << 47) - PAGE_SIZE},
 * torvalds/linux arch/x86/include/asm/page_64_types.h), well below the 512 TiB a VER2 GMMU
 * decodes. Every segment address in the real PyTorch snapshots the kit reads lies below 2^47.
 *
 * <p>Placement is the kit's own (the driver's is not documented): a bump pointer from
 * {@code base} first, so a fresh process gets the addresses it always got; a range that does not
 * fit below the end is looked for first fit among the gaps that frees left above {@code base},
 * then from {@code floor}, the addresses below {@code base} included. A hint ({@code cuMemAddressReserve}'s
 * {@code addr}) is taken when the range there is free.
 */
final class UvaWindow {
    private final long floor;
    private final long base;
    private final long end;
    private long next;
    private long nextBefore;                                        // for cancel()
    private final TreeMap<Long, Long> taken = new TreeMap<>();     // start -> end

    UvaWindow(long floor, long base, long end) {
        if (floor <= 0 || base < floor || end <= base) {
            throw new IllegalArgumentException("UvaWindow [" + floor + ", " + end + ") from " + base
                    + ": not a range");
        }
        this.floor = floor;
        this.base = base;
        this.end = end;
        this.next = base;
    }

    long floor() { return floor; }
    long base() { return base; }
    long end() { return end; }

    /**
     * Takes {@code size} bytes at an address aligned to {@code alignment}: at {@code hint} when
     * that range is aligned, inside the window and free; else the driver's choice.
     *
     * @return the start, or -1 when no aligned gap of that size is left
     */
    long take(long size, long alignment, long hint) {
        long at = hint != 0 && hint % alignment == 0 && fits(hint, size) ? hint : -1;
        if (at < 0) {
            long bump = Bytes.alignUp(next, alignment);
            at = fits(bump, size) ? bump : firstFit(base, size, alignment);
            if (at < 0) at = firstFit(floor, size, alignment);
        }
        if (at < 0) return -1;
        taken.put(at, at + size);
        nextBefore = next;
        next = Math.max(next, at + size);
        return at;
    }

    /** Undoes the last {@link #take} (its call failed later), bump pointer included. */
    void cancel(long start) {
        release(start);
        next = nextBefore;
    }

    /** Gives back the range that starts at {@code start}. */
    void release(long start) {
        if (taken.remove(start) == null) {
            throw new IllegalStateException("UvaWindow: nothing was taken at 0x" + Long.toHexString(start));
        }
    }

    /** Whether {@code [start, start + size)} lies in the window and overlaps nothing taken. */
    boolean fits(long start, long size) {
        if (size <= 0 || start < floor || start > end - size) return false;
        Map.Entry<Long, Long> before = taken.lowerEntry(start + size);
        return before == null || before.getValue() <= start;
    }

    /** The lowest aligned free gap of {@code size} at or above {@code from}, or -1. */
    private long firstFit(long from, long size, long alignment) {
        long at = Bytes.alignUp(from, alignment);
        Long first = taken.floorKey(from);                     // a range that may cover from
        for (Map.Entry<Long, Long> r : taken.tailMap(first == null ? from : first, true).entrySet()) {
            if (at <= r.getKey() - size) return at;
            at = Math.max(at, Bytes.alignUp(r.getValue(), alignment));
        }
        return fits(at, size) ? at : -1;
    }

    /** Bytes handed out and not given back. */
    long takenBytes() {
        long sum = 0;
        for (Map.Entry<Long, Long> r : taken.entrySet()) sum += r.getValue() - r.getKey();
        return sum;
    }

    void checkInvariants() {
        long last = floor;
        for (Map.Entry<Long, Long> r : taken.entrySet()) {
            if (r.getKey() < last || r.getValue() <= r.getKey() || r.getValue() > end) {
                throw new IllegalStateException("UvaWindow: bad range [0x" + Long.toHexString(r.getKey())
                        + ", 0x" + Long.toHexString(r.getValue()) + ") in [0x" + Long.toHexString(floor)
                        + ", 0x" + Long.toHexString(end) + ")");
            }
            last = r.getValue();
        }
    }
}
