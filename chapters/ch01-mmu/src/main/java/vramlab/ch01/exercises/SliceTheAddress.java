package vramlab.ch01.exercises;

import java.util.List;
import java.util.Random;

import vramlab.gmmu.Level;
import vramlab.gmmu.MmuFormat;
import vramlab.gmmu.PageSize;
import vramlab.kit.Exercise;
import vramlab.units.Bytes;

/**
 * Exercise: a seeded virtual address and page size; cut the address into the index each level
 * of the walk takes, and say where the walk ends and at which offset. The answer asks the
 * simulator's own levels ({@link MmuFormat#VER2}, or {@link MmuFormat#VER3} for odd seeds).
 */
public final class SliceTheAddress implements Exercise {
    static final List<PageSize> SIZES = List.of(PageSize.SIZE_2M, PageSize.SIZE_64K, PageSize.SIZE_4K);

    /** The address, its page size and its format for {@code seed}. */
    record Case(long va, PageSize size, MmuFormat format) {}

    static Case of(long seed) {
        Random r = new Random(seed);
        long va = (r.nextLong() >>> 17) & ~0xfL;                 // below 2^47, 16-byte aligned
        PageSize size = SIZES.get(r.nextInt(SIZES.size()));
        return new Case(va, size, (seed & 1) == 0 ? MmuFormat.VER2 : MmuFormat.VER3);
    }

    @Override public String title() { return "Slice an address into the walk's indices"; }

    @Override
    public String prompt(long seed) {
        Case c = of(seed);
        return String.format("The GMMU translates VA 0x%x, mapped by a %s page,%nin the %s format.%n"
                + "For each level the walk visits, which entry does it read (the index, in decimal)?%n"
                + "In which level is the PTE, and what is the offset of the address inside its page (in hex)?%n"
                + "(The levels and their VA bits: the notes, \"Rule 1\", or MmuFormat.%s.directories().)",
                c.va(), Bytes.readable(c.size().bytes()), c.format(), c.format() == MmuFormat.VER2 ? "VER2" : "VER3");
    }

    @Override
    public String answer(long seed) {
        Case c = of(seed);
        MmuFormat f = c.format();
        StringBuilder sb = new StringBuilder(String.format("VA 0x%x = binary %s%n", c.va(),
                Long.toBinaryString(c.va())));
        List<Level> visited = new java.util.ArrayList<>(f.directories());
        if (c.size() != PageSize.SIZE_2M) visited.add(f.levelOf(c.size()));
        for (Level l : visited) {
            sb.append(String.format("  %-6s bits [%2d:%2d] -> (va >>> %2d) & 0x%x = %d%n", l.name(), l.hi(), l.lo(),
                    l.lo(), l.entries() - 1, l.index(c.va())));
        }
        Level last = visited.get(visited.size() - 1);
        return sb.append(String.format("The PTE is in %s; the offset is va & 0x%x = 0x%x.", last.name(),
                c.size().bytes() - 1, c.va() & (c.size().bytes() - 1))).toString();
    }
}
