package vramlab.ch01.exercises;

import static vramlab.units.Bytes.gib;
import static vramlab.units.Bytes.mib;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import vramlab.gmmu.Access;
import vramlab.gmmu.AddressSpace;
import vramlab.gmmu.MmuFormat;
import vramlab.gmmu.PageSize;
import vramlab.gmmu.Pte;
import vramlab.kit.Exercise;
import vramlab.units.Bytes;

/**
 * Exercise: a seeded handful of pages mapped into an empty VER2 address space; count the page
 * tables the mappings create and the bytes those tables take. The answer maps the same pages
 * on the simulator and reads {@link AddressSpace#tableCount()} and
 * {@link AddressSpace#pageTableBytes()}.
 */
public final class CountTheTables implements Exercise {
    /** Where the mappings go: near the kit's first address, one 512 GiB region further, or 1 GiB on. */
    static final long[] REGIONS = {0x7f0a00000000L, 0x7f0a00000000L + gib(1), 0x7f0a00000000L + gib(512)};

    /** One mapping: a page of {@code size} at {@code va}. */
    record Mapping(long va, PageSize size) {}

    static List<Mapping> mappings(long seed) {
        Random r = new Random(seed);
        Map<Long, PageSize> sizeOf2M = new HashMap<>();         // one page size per 2 MiB region
        Map<Long, Mapping> chosen = new LinkedHashMap<>();
        int count = 4 + r.nextInt(3);
        while (chosen.size() < count) {
            long region = REGIONS[r.nextInt(REGIONS.length)] + r.nextInt(3) * mib(2);
            PageSize size = sizeOf2M.computeIfAbsent(region,
                    k -> PageSize.values()[r.nextInt(PageSize.values().length)]);
            long va = size == PageSize.SIZE_2M ? region
                    : region + r.nextInt((int) (mib(2) / size.bytes())) * size.bytes();
            chosen.putIfAbsent(va, new Mapping(va, size));
        }
        return new ArrayList<>(chosen.values());
    }

    @Override public String title() { return "Count the page tables a few mappings create"; }

    @Override
    public String prompt(long seed) {
        StringBuilder sb = new StringBuilder("An empty VER2 address space (only its root, PDE3, counted as 4 KiB) maps, in order:\n");
        for (Mapping m : mappings(seed)) {
            sb.append(String.format("  a %s page at 0x%x%n", Bytes.readable(m.size().bytes()), m.va()));
        }
        return sb.append("How many page tables does the address space hold now, the root included, and how\n")
                 .append("many bytes do they take? (PDE2, PDE1 and PDE0 tables are 4 KiB each; a 64 KiB-page\n")
                 .append("table is 256 B; a 4 KiB-page table is 4 KiB.)").toString();
    }

    @Override
    public String answer(long seed) {
        AddressSpace s = new AddressSpace(MmuFormat.VER2);
        StringBuilder sb = new StringBuilder();
        for (Mapping m : mappings(seed)) {
            s.map(m.va(), Pte.local(m.size(), 0, Access.READWRITE, 0));
            sb.append(String.format("after the %s page at 0x%x: %d tables, %s%n", Bytes.readable(m.size().bytes()), m.va(),
                    s.tableCount(), Bytes.formatSize(s.pageTableBytes())));
        }
        s.checkInvariants();
        return sb.append(String.format("%d tables, %d bytes (%s) of page tables for %s of mapped pages.",
                s.tableCount(), s.pageTableBytes(), Bytes.formatSize(s.pageTableBytes()),
                Bytes.formatSize(s.mappedBytes()))).toString();
    }
}
