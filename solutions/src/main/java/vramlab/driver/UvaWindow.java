package vramlab.driver;

import java.util.List;

import vramlab.units.AddressTable;
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
 *
 * <p>Cost: O(log n) of the ranges taken now, whatever was taken and given back before. The
 * free gaps sit in a {@link FreeGaps} index besides the taken ranges, so a first fit goes
 * straight to its gap rather than along every range above {@code base} (which, once the bump
 * pointer has passed the end, made each new segment of a long replay cost its whole history).
 */
final class UvaWindow {
    private final long floor;
    private final long base;
    private final long end;
    private long next;
    private long nextBefore;                                        // for cancel()
    private final AddressTable<Long> taken = new AddressTable<>(); // start -> end
    private final FreeGaps gaps;                                    // what is not taken
    private long takenBytes;

    UvaWindow(long floor, long base, long end) {
        if (floor <= 0 || base < floor || end <= base) {
            throw new IllegalArgumentException("UvaWindow [" + floor + ", " + end + ") from " + base
                    + ": not a range");
        }
        this.floor = floor;
        this.base = base;
        this.end = end;
        this.next = base;
        this.gaps = new FreeGaps(Gpu.PAGE);
        gaps.free(floor, end);
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
            at = fits(bump, size) ? bump : gaps.firstFit(base, size, alignment);
            if (at < 0) at = gaps.firstFit(floor, size, alignment);
        }
        if (at < 0) return -1;
        taken.put(at, at + size);
        gaps.occupy(at, at + size);
        takenBytes += size;
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
        Long rangeEnd = taken.remove(start);
        if (rangeEnd == null) {
            throw new IllegalStateException("UvaWindow: nothing was taken at 0x" + Long.toHexString(start));
        }
        gaps.free(start, rangeEnd);
        takenBytes -= rangeEnd - start;
    }

    /** Whether {@code [start, start + size)} lies in the window and overlaps nothing taken. */
    boolean fits(long start, long size) {
        return size > 0 && start >= floor && start <= end - size && gaps.fits(start, size);
    }

    /** Bytes handed out and not given back. */
    long takenBytes() { return takenBytes; }

    /** The free-gap index, for the tests that count its steps. */
    FreeGaps gaps() { return gaps; }

    void checkInvariants() {
        taken.checkInvariants();
        long[] starts = taken.keysInOrder();
        long last = floor;
        for (long start : starts) {
            long rangeEnd = taken.get(start);
            if (start < last || rangeEnd <= start || rangeEnd > end) {
                throw new IllegalStateException("UvaWindow: bad range [0x" + Long.toHexString(start)
                        + ", 0x" + Long.toHexString(rangeEnd) + ") in [0x" + Long.toHexString(floor)
                        + ", 0x" + Long.toHexString(end) + ")");
            }
            last = rangeEnd;
        }
        gaps.checkInvariants();
        long sum = 0;
        long at = floor;
        List<FreeGaps.Gap> free = gaps.gaps();
        int k = 0;
        for (long start : starts) {                           // the gaps are exactly what lies between
            long rangeEnd = taken.get(start);
            sum += rangeEnd - start;
            if (start > at) {
                checkGap(free, k++, at, start);
            }
            at = rangeEnd;
        }
        if (at < end) checkGap(free, k++, at, end);
        if (k != free.size() || sum != takenBytes) {
            throw new IllegalStateException("UvaWindow: " + free.size() + " free gaps indexed, " + k
                    + " between the ranges; " + takenBytes + " B booked taken, the ranges sum to " + sum);
        }
    }

    private static void checkGap(List<FreeGaps.Gap> free, int k, long start, long end) {
        if (k >= free.size() || !free.get(k).equals(new FreeGaps.Gap(start, end))) {
            throw new IllegalStateException("UvaWindow: the free gap [0x" + Long.toHexString(start) + ", 0x"
                    + Long.toHexString(end) + ") is not indexed as such");
        }
    }
}
