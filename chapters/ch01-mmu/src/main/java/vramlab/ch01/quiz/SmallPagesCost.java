package vramlab.ch01.quiz;

import java.util.List;

import vramlab.gmmu.Access;
import vramlab.gmmu.AddressSpace;
import vramlab.gmmu.MmuFormat;
import vramlab.gmmu.PageSize;
import vramlab.gmmu.Pte;
import vramlab.gmmu.Tlb;
import vramlab.quiz.Blanks;
import vramlab.quiz.Part;
import vramlab.quiz.Question;
import vramlab.quiz.Variant;
import vramlab.units.Bytes;

/**
 * Rule 2 and the TLB: the same memory mapped with small pages instead of 2 MiB pages costs a
 * table below each PDE0 entry and many more TLB entries. The practice variant asks it for 2 MiB of 4 KiB
 * pages; a student gets 64 KiB or 4 KiB pages over a few 2 MiB regions.
 */
public final class SmallPagesCost implements Question {
    static final MmuFormat FORMAT = MmuFormat.VER2;
    static final int TLB_ROOM = 1 << 16;        // room for every page: count entries, not evictions

    @Override public String id() { return "q1.5"; }
    @Override public String notesSection() { return "The TLB"; }
    @Override public String title() { return "What small pages cost: tables and TLB entries"; }

    static PageSize small(Variant v) {
        return v.isSeed() ? PageSize.SIZE_4K : v.pick("page", List.of(PageSize.SIZE_4K, PageSize.SIZE_64K));
    }

    /** The bytes mapped, whole 2 MiB regions starting at VA 0. */
    static long region(Variant v) {
        return (v.isSeed() ? 1 : v.between("regions", 1, 8)) * PageSize.SIZE_2M.bytes();
    }

    @Override
    public String prompt(Variant v) {
        PageSize small = small(v);
        long region = region(v);
        return "Two fresh VER2 address spaces map the same " + Bytes.readable(region)
                + " at VA 0: one with 2 MiB pages (" + region / PageSize.SIZE_2M.bytes() + " of them),\n"
                + "the other with " + Bytes.readable(small.bytes()) + " pages (" + region / small.bytes()
                + " of them). Compared with the 2 MiB mapping,\n"
                + "(a) how many more page tables does the " + small + " mapping need?\n"
                + "(b) how many more bytes of page tables?\n"
                + "(c) how many more TLB entries to translate every byte of the region without a walk?";
    }

    /** {tables, table bytes, TLB entries} once {@code size} pages map the region and each is touched. */
    static long[] cost(PageSize size, long region) {
        AddressSpace s = new AddressSpace(FORMAT, new Tlb(TLB_ROOM));
        for (long va = 0; va < region; va += size.bytes()) {
            s.map(va, Pte.local(size, va, Access.READWRITE, 0));
        }
        for (long va = 0; va < region; va += size.bytes()) s.translate(va);
        s.checkInvariants();
        return new long[] {s.tableCount(), s.pageTableBytes(), s.tlb().size()};
    }

    @Override
    public List<Part> parts(Variant v) {
        long region = region(v);
        long[] big = cost(PageSize.SIZE_2M, region);
        long[] small = cost(small(v), region);
        return List.of(
                Part.of("a", 1, Blanks.number("q1.5.a.tables", small[0] - big[0])),
                Part.of("b", 1, Blanks.size("q1.5.b.tableBytes", small[1] - big[1], Bytes::parse)),
                Part.of("c", 1, Blanks.number("q1.5.c.tlbEntries", small[2] - big[2])));
    }
}
