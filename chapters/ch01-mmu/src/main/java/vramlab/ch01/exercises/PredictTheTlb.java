package vramlab.ch01.exercises;

import static vramlab.units.Bytes.mib;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import vramlab.gmmu.Access;
import vramlab.gmmu.AddressSpace;
import vramlab.gmmu.MmuFormat;
import vramlab.gmmu.PageSize;
import vramlab.gmmu.Pte;
import vramlab.gmmu.Tlb;
import vramlab.gmmu.Translation;
import vramlab.kit.Exercise;

/**
 * Exercise: a 4-entry LRU TLB in front of an address space with one 2 MiB page, some 64 KiB pages
 * and some 4 KiB pages; predict, for a seeded run of reads, which hit and which miss. The answer
 * runs the reads through {@link AddressSpace#translate} on the simulator.
 */
public final class PredictTheTlb implements Exercise {
    static final int ENTRIES = 4;
    static final long BIG = 0x7f0a00000000L;                 // one 2 MiB page
    static final long MID = BIG + mib(2);                    // 64 KiB pages
    static final long SMALL = BIG + mib(4);                  // 4 KiB pages

    @Override public String title() { return "Predict the TLB's hits and misses"; }

    /** The address space of every seed: 2M at BIG, four 64K pages at MID, eight 4K pages at SMALL. */
    static AddressSpace space() {
        AddressSpace s = new AddressSpace(MmuFormat.VER2, new Tlb(ENTRIES));
        s.map(BIG, Pte.local(PageSize.SIZE_2M, 0, Access.READWRITE, 0));
        for (int i = 0; i < 4; i++) s.map(MID + i * PageSize.SIZE_64K.bytes(), Pte.local(PageSize.SIZE_64K,
                mib(2) + i * PageSize.SIZE_64K.bytes(), Access.READWRITE, 0));
        for (int i = 0; i < 8; i++) s.map(SMALL + i * 4096L, Pte.local(PageSize.SIZE_4K, mib(4) + i * 4096L,
                Access.READWRITE, 0));
        return s;
    }

    /** Ten reads, each inside one of the mapped pages, at a random offset in it. */
    static List<Long> reads(long seed) {
        Random r = new Random(seed);
        List<Long> reads = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            switch (r.nextInt(3)) {
                case 0 -> reads.add(BIG + (r.nextInt((int) mib(2)) & ~0xfL));
                case 1 -> reads.add(MID + r.nextInt(4) * PageSize.SIZE_64K.bytes() + (r.nextInt(0x10000) & ~0xfL));
                default -> reads.add(SMALL + r.nextInt(8) * 4096L + (r.nextInt(4096) & ~0xfL));
            }
        }
        return reads;
    }

    @Override
    public String prompt(long seed) {
        StringBuilder sb = new StringBuilder(String.format("An address space maps one 2 MiB page at 0x%x,%nfour 64 KiB pages from 0x%x "
                + "and eight 4 KiB pages from 0x%x.%nIn front of it sits an empty TLB of %d entries, one per "
                + "page whatever its size,%nleast recently used out first. A miss walks and fills the entry.%n"
                + "The GPU reads, in order:%n", BIG, MID, SMALL, ENTRIES));
        int n = 1;
        for (long va : reads(seed)) sb.append(String.format("  %2d. 0x%x%n", n++, va));
        return sb.append("Which reads hit, which miss, and what are the TLB's hit and miss counts at the end?").toString();
    }

    @Override
    public String answer(long seed) {
        AddressSpace s = space();
        StringBuilder sb = new StringBuilder();
        int n = 1;
        for (long va : reads(seed)) {
            Translation t = s.translate(va);
            sb.append(String.format("  %2d. 0x%x  %-4s  %s page at 0x%x%n", n++, va, t.fromTlb() ? "hit" : "miss",
                    t.pte().size(), t.pte().size().base(va)));
        }
        return sb.append(String.format("hits %d, misses %d; the TLB holds %d entries.", s.tlb().hits(),
                s.tlb().misses(), s.tlb().size())).toString();
    }
}
