package vramlab.gmmu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import vramlab.units.Bytes;

/**
 * Translate against a flat map from page VA to (size, physical): the simplest possible model of
 * "which page holds this byte". The window straddles 2^47, so PDE3 index 0 and 1 both appear.
 */
@DisplayName("translate agrees with a flat map on random map/unmap sequences")
class ReferenceModelTest {
    static final long WINDOW = 8 * Bytes.MiB;
    static final long BASE = (1L << 47) - WINDOW / 2;

    record Page(long va, PageSize size, long phys) {
        boolean covers(long a) { return a >= va && a < va + size.bytes(); }
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 42, 2024, 31337})
    @DisplayName("with a 4-entry TLB, after every step")
    void randomRun(long seed) {
        Random rnd = new Random(seed);
        AddressSpace s = new AddressSpace(MmuFormat.VER2, new Tlb(4));
        TreeMap<Long, Page> model = new TreeMap<>();
        for (int step = 0; step < 600; step++) {
            if (model.isEmpty() || rnd.nextInt(3) > 0) tryMap(rnd, s, model);
            else tryUnmap(rnd, s, model);
            s.checkInvariants();
            books(s, model, "seed " + seed + " step " + step);
            for (int probe = 0; probe < 8; probe++) {
                long a = BASE + (long) (rnd.nextDouble() * WINDOW);
                check(s, model, a, "seed " + seed + " step " + step);
            }
        }
        for (Page p : new ArrayList<>(model.values())) s.unmap(p.va(), p.size());
        s.checkInvariants();
        assertThat(s.tableCount()).as("only the root is left").isEqualTo(1);
        assertThat(s.pageTableBytes()).isEqualTo(MmuFormat.VER2.root().allocBytes());
        assertThat(s.mappedBytes()).isZero();
    }

    /** Pages that overlap in every way the dual PDE0 allows or forbids. */
    static final Page[] SMALL_WORLD = {
            new Page(0, PageSize.SIZE_2M, 0x4000000), new Page(0, PageSize.SIZE_64K, 0x100000),
            new Page(0x10000, PageSize.SIZE_64K, 0x200000), new Page(0, PageSize.SIZE_4K, 0x300000),
            new Page(0xF000, PageSize.SIZE_4K, 0x301000), new Page(0x10000, PageSize.SIZE_4K, 0x302000)};
    static final long[] PROBES = {0, 0x10, 0x1000, 0xF000, 0xF008, 0x10000, 0x10010, 0x1F000, 0x1FFFFF, 0x200000};

    @org.junit.jupiter.api.Test
    @DisplayName("exhaustively: every sequence of 4 toggles of 6 overlapping pages in one 2 MiB window")
    void exhaustiveSmallWorld() {
        int n = SMALL_WORLD.length;
        for (int code = 0; code < n * n * n * n; code++) {
            AddressSpace s = new AddressSpace(MmuFormat.VER2, new Tlb(2));
            TreeMap<Long, Page> model = new TreeMap<>();
            java.util.Set<Page> mapped = new java.util.HashSet<>();
            StringBuilder history = new StringBuilder();
            for (int k = 0, c = code; k < 4; k++, c /= n) {
                Page p = SMALL_WORLD[c % n];
                history.append(mapped.contains(p) ? " unmap " : " map ").append(p);
                if (mapped.remove(p)) {
                    s.unmap(p.va(), p.size());
                    model.remove(p.va());
                } else if (overlaps(model, p)) {
                    assertThatThrownBy(() -> s.map(p.va(), Pte.local(p.size(), p.phys(), Access.READWRITE, 0)))
                            .as(history.toString()).hasMessageContaining("already mapped");
                } else {
                    s.map(p.va(), Pte.local(p.size(), p.phys(), Access.READWRITE, 0));
                    model.put(p.va(), p);
                    mapped.add(p);
                }
                s.checkInvariants();
                books(s, model, history.toString());
                for (long a : PROBES) check(s, model, a, history.toString());
            }
        }
    }

    private static void tryMap(Random rnd, AddressSpace s, TreeMap<Long, Page> model) {
        PageSize size = PageSize.values()[rnd.nextInt(3)];
        long va = size.base(BASE + (long) (rnd.nextDouble() * WINDOW));
        if (va < BASE) va += size.bytes();
        Page p = new Page(va, size, size.base(rnd.nextLong() & ((1L << 34) - 1)));
        boolean clash = overlaps(model, p);
        if (clash) {
            assertThatThrownBy(() -> s.map(p.va(), Pte.local(p.size(), p.phys(), Access.READWRITE, 0)))
                    .hasMessageContaining("already mapped");
        } else {
            s.map(p.va(), Pte.local(p.size(), p.phys(), Access.READWRITE, 0));
            model.put(p.va(), p);
        }
    }

    private static void tryUnmap(Random rnd, AddressSpace s, TreeMap<Long, Page> model) {
        List<Page> pages = new ArrayList<>(model.values());
        Page p = pages.get(rnd.nextInt(pages.size()));
        if (rnd.nextInt(5) == 0) {                           // a wrong size must be refused
            PageSize other = p.size() == PageSize.SIZE_2M ? PageSize.SIZE_64K : PageSize.SIZE_2M;
            if (other.isAligned(p.va())) {
                assertThatThrownBy(() -> s.unmap(p.va(), other)).isInstanceOf(IllegalStateException.class);
            }
            return;
        }
        assertThat(s.unmap(p.va(), p.size()).address()).isEqualTo(p.phys());
        model.remove(p.va());
    }

    private static boolean overlaps(TreeMap<Long, Page> model, Page p) {
        Map.Entry<Long, Page> below = model.floorEntry(p.va() + p.size().bytes() - 1);
        return below != null && below.getValue().va() + below.getValue().size().bytes() > p.va();
    }

    /**
     * The tree's books against the model: the PTEs it lists and finds are the model's pages, the
     * bytes it maps are theirs, and its tables are exactly the ones those pages need, each paid
     * for at its level's size: the root, one table per directory entry on a page's path, and a
     * PT_64K or PT_4K under each PDE0 entry that holds pages of that size (tables are made when
     * first needed and freed when they empty, as UVM's page tree does).
     */
    static void books(AddressSpace s, TreeMap<Long, Page> model, String where) {
        MmuFormat f = s.format();
        java.util.Set<String> tables = new java.util.HashSet<>(List.of("root"));
        long tableBytes = f.root().allocBytes(), mapped = 0;
        List<Level> dirs = f.directories();
        for (Page p : model.values()) {
            mapped += p.size().bytes();
            for (int d = 1; d < dirs.size(); d++) {
                if (tables.add(d + ":" + (p.va() >>> dirs.get(d - 1).lo()))) tableBytes += dirs.get(d).allocBytes();
            }
            if (p.size() != PageSize.SIZE_2M
                    && tables.add(p.size() + ":" + (p.va() >>> f.pde0().lo()))) {
                tableBytes += f.levelOf(p.size()).allocBytes();
            }
            Pte pte = s.find(p.va(), p.size());
            assertThat(pte).as("%s: find(0x%x, %s)", where, p.va(), p.size()).isNotNull();
            assertThat(pte.address()).as(where).isEqualTo(p.phys());
            for (PageSize other : PageSize.values()) {
                if (other != p.size() && other.isAligned(p.va())) {
                    assertThat(s.find(p.va(), other)).as("%s: find(0x%x, %s)", where, p.va(), other).isNull();
                }
            }
        }
        assertThat(s.mappedBytes()).as(where + ": mapped bytes").isEqualTo(mapped);
        assertThat(s.tableCount()).as(where + ": tables").isEqualTo(tables.size());
        assertThat(s.pageTableBytes()).as(where + ": page-table bytes").isEqualTo(tableBytes);
        TreeMap<Long, PageSize> listed = new TreeMap<>();
        s.forEachPte((va, pte) -> listed.put(va, pte.size()));
        TreeMap<Long, PageSize> expected = new TreeMap<>();
        model.values().forEach(p -> expected.put(p.va(), p.size()));
        assertThat(listed).as(where + ": forEachPte").isEqualTo(expected);
    }

    private static void check(AddressSpace s, TreeMap<Long, Page> model, long a, String where) {
        Map.Entry<Long, Page> e = model.floorEntry(a);
        Page p = e != null && e.getValue().covers(a) ? e.getValue() : null;
        if (p == null) {
            assertThatThrownBy(() -> s.translate(a)).as(where + " at 0x" + Long.toHexString(a))
                    .isInstanceOf(PageFault.class);
        } else {
            assertThat(s.translate(a).physical()).as(where + " at 0x" + Long.toHexString(a))
                    .isEqualTo(p.phys() + (a - p.va()));
        }
    }
}
