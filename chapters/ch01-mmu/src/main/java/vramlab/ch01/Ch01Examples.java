package vramlab.ch01;

import static vramlab.units.Bytes.mib;

import vramlab.driver.Gpu;
import vramlab.driver.GpuProcess;
import vramlab.figures.ExampleTable;
import vramlab.gmmu.Access;
import vramlab.gmmu.PageSize;
import vramlab.gmmu.Pte;
import vramlab.gmmu.Tlb;
import vramlab.gmmu.Walk;

/**
 * The worked example of each of chapter 01's graded steps, computed by the reference when the
 * site is built (the notes include {@code {generated}/step-1.N.adoc}).
 */
public final class Ch01Examples {
    private Ch01Examples() {}

    /** Step 1.1: the lab's walk, one row per level. */
    public static String example1_1() {
        GpuProcess p = new Gpu(mib(40)).openToyProcess();
        p.cudaMalloc(mib(2));
        long ptr = p.cudaMalloc(mib(2));
        long va = ptr + 0x40;
        Walk w = p.walk(va);
        ExampleTable t = ExampleTable.of("1.1", String.format("walk(0x%x) after two cudaMalloc(2 MiB)", va),
                "level", "index taken from the address", "entry found");
        for (Walk.Step s : w.steps()) t.row(s.level(), Integer.toString(s.index()), s.entry());
        Walk miss = p.walk(ptr + (1L << 30));
        return t.then(String.format("The walk ends at physical `0x%x`. An address that nothing maps, "
                + "`0x%x`, stops at the first missing entry: `%s`.", w.physical(), miss.va(),
                miss.fault().getMessage())).toString();
    }

    /** Step 1.2: hits and misses of a two-entry TLB. */
    public static String example1_2() {
        Tlb tlb = new Tlb(2);
        long base = 0x7f0a00200000L;
        ExampleTable t = ExampleTable.of("1.2", "lookups in a TLB that holds one 2 MiB and one 4 KiB PTE",
                "lookup(va)", "returns", "hits", "misses");
        tlb.fill(base, Pte.local(PageSize.SIZE_2M, 0x40000000L, Access.READWRITE, 0));
        tlb.fill(base + mib(2), Pte.local(PageSize.SIZE_4K, 0x50000000L, Access.READ, 0));
        for (long va : new long[] {base + 0x1234, base + mib(2) + 0x10, base + mib(2) + 0x1000, base + 0x1ff000}) {
            Pte pte = tlb.lookup(va);
            t.row(String.format("0x%x", va), pte == null ? "null" : pte.toString(), tlb.hits(), tlb.misses());
        }
        return t.then("A lookup finds the cached PTE whose page holds the address, whatever its page size; "
                + "the next 4 KiB page of the same range is a different page, so a miss.").toString();
    }

    /** Step 1.3: the 64 bits of three PTEs. */
    public static String example1_3() {
        ExampleTable t = ExampleTable.of("1.3", "Pte.bits() in the VER2 format", "PTE", "bits()");
        for (Pte pte : new Pte[] {Pte.local(PageSize.SIZE_2M, 0x40000000L, Access.READWRITE, 0),
            Pte.local(PageSize.SIZE_4K, 0x2a000L, Access.READ, 0),
            Pte.peer(PageSize.SIZE_2M, 1, 0x200000L, Access.READWRITE, 1)}) {
            t.row(pte.toString(), String.format("0x%016x", pte.bits()));
        }
        return t.then("VALID is bit 0, APERTURE bits 2:1, READ_ONLY bit 6, the address shifted right by 12 "
                + "from bit 8, and a peer's slot in bits 35:33.").toString();
    }
}
