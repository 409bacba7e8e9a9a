package vramlab.gmmu;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;

/**
 * One process's virtual address space on one GPU: a page-table tree in NVIDIA's layout, with
 * map, unmap, translate and a printable walk.
 *
 * <p>Invariants ({@link #checkInvariants()}): every table's {@code refCount} equals its
 * non-empty slots; no table but the root is empty; {@code pageTableBytes} is the sum of the live
 * tables' allocations; {@code mappedBytes} is the sum of the live PTEs' page sizes; no two PTEs
 * cover the same byte of VA.
 */
public final class AddressSpace {
    private final MmuFormat format;
    private final PageTable root;
    private final Tlb tlb;
    private final LocalPtes ptes;                    // the GPU's kept 2M PTEs, or null
    private int nextTableId;
    private int tables;
    private long pageTableBytes;
    private long mappedBytes;

    /** An address space with no TLB: every translation walks. */
    public AddressSpace(MmuFormat format) { this(format, null); }

    public AddressSpace(MmuFormat format, Tlb tlb) { this(format, tlb, null); }

    /**
     * An address space whose 2 MiB PTEs of {@code ptes}' GPU ({@link #map2M}, {@link #protect})
     * are the ones {@code ptes} keeps, not new ones: equal by value, so nothing else changes.
     */
    public AddressSpace(MmuFormat format, Tlb tlb, LocalPtes ptes) {
        this.format = format;
        this.tlb = tlb;
        this.ptes = ptes;
        this.root = newTable(format.root(), 0, null, -1);
    }

    public MmuFormat format() { return format; }

    public PageTable root() { return root; }

    /** The TLB in front of the walks, or null. */
    public Tlb tlb() { return tlb; }

    /** Bytes of memory the page tables take (tables are allocated as they are first needed). */
    public long pageTableBytes() { return pageTableBytes; }

    public int tableCount() { return tables; }

    /** Bytes of VA that PTEs map. */
    public long mappedBytes() { return mappedBytes; }

    // tag::map[]
    /** Writes {@code pte} for the page at {@code va}, creating the tables on the way down. */
    public void map(long va, Pte pte) {
        checkVa(va);
        PageSize size = pte.size();
        if (!size.isAligned(va)) throw new IllegalArgumentException(hex(va) + " is not aligned to a " + size + " page");
        PageTable pde0 = descendToPde0(va, true);
        int i = format.pde0().index(va);
        Object e = pde0.entry(i);
        if (size == PageSize.SIZE_2M) {                   // a 2M PTE is written into PDE0 itself
            if (e != null) throw overlap(va, size, e);
            pde0.set(i, pte);
            pde0.refCount++;
        } else {
            if (e instanceof Pte big2m) throw overlap(va, size, big2m);
            DualPde dual = e == null ? new DualPde() : (DualPde) e;
            if (e == null) pde0.set(i, dual);
            checkNoOtherSize(dual, va, size);
            PageTable pt = dual.half(size);
            if (pt == null) {
                pt = newTable(format.levelOf(size), pde0.depth() + 1, pde0, i);
                dual.setHalf(size, pt);
                pde0.refCount++;
            }
            int j = pt.level().index(va);
            if (pt.entry(j) != null) throw overlap(va, size, pt.entry(j));
            pt.set(j, pte);
            pt.refCount++;
        }
        mappedBytes += size.bytes();
    }
    // end::map[]

    /** {@link #map}'s 2M case, in a PDE0 table already found. */
    private void put2M(PageTable pde0, int i, long va, Pte pte) {
        Object e = pde0.entry(i);
        if (e != null) throw overlap(va, PageSize.SIZE_2M, e);
        pde0.set(i, pte);
        pde0.refCount++;
        mappedBytes += PageSize.SIZE_2M.bytes();
    }

    /**
     * Maps the 2 MiB pages of this GPU's memory at {@code addresses} at {@code va}, {@code va + 2
     * MiB}, ... with {@code access}: what one {@link #map} of {@code Pte.local(SIZE_2M, ...)} per
     * page writes, in the same order (a page that fails leaves the ones before it mapped), but it
     * comes down to each PDE0 table once, not once a page. The PTEs are this space's
     * {@link LocalPtes}' when it has them for {@code device}.
     */
    public void map2M(long va, long[] addresses, Access access, int device) {
        PageTable pde0 = null;
        Level level = format.pde0();
        LocalPtes kept = ptes != null && ptes.device() == device ? ptes : null;
        for (int k = 0; k < addresses.length; k++) {
            long at = va + k * PageSize.SIZE_2M.bytes();
            Pte pte = kept != null ? kept.get(addresses[k], access)
                    : Pte.local(PageSize.SIZE_2M, addresses[k], access, device);
            checkVa(at);
            if (!PageSize.SIZE_2M.isAligned(at)) {
                throw new IllegalArgumentException(hex(at) + " is not aligned to a " + PageSize.SIZE_2M + " page");
            }
            int i = level.index(at);
            if (pde0 == null || i == 0) pde0 = descendToPde0(at, true);    // a new PDE0 table from here
            put2M(pde0, i, at, pte);
        }
    }

    /**
     * Unmaps the {@code pages} 2 MiB pages from {@code va} on: what one
     * {@code unmap(va + k * 2 MiB, SIZE_2M)} per page does, in the same order, but it comes down
     * to each PDE0 table once, not once a page.
     */
    public void unmap2M(long va, int pages) {
        PageTable pde0 = null;
        Level level = format.pde0();
        for (int k = 0; k < pages; k++) {
            long at = va + k * PageSize.SIZE_2M.bytes();
            checkVa(at);
            int i = level.index(at);
            if (pde0 == null || i == 0) pde0 = descendToPde0(at, false);
            if (pde0 == null || !(pde0.entry(i) instanceof Pte pte) || pte.size() != PageSize.SIZE_2M) {
                throw new IllegalStateException("unmap(" + hex(at) + ", " + PageSize.SIZE_2M + "): no "
                        + PageSize.SIZE_2M + " page mapped there");
            }
            remove(pde0, i, at, PageSize.SIZE_2M);
        }
    }

    /** Removes the PTE of {@code size} at {@code va}; frees tables left empty; drops the TLB entry. */
    public Pte unmap(long va, PageSize size) {
        checkVa(va);
        PageTable table = tableHolding(va, size);
        int j = table == null ? -1 : table.level().index(va);
        if (table == null || !(table.entry(j) instanceof Pte pte) || pte.size() != size) {
            throw new IllegalStateException("unmap(" + hex(va) + ", " + size + "): no " + size + " page mapped there");
        }
        remove(table, j, va, size);
        return pte;
    }

    /** Empties slot {@code j} of {@code table}, the PTE of {@code size} at {@code va}. */
    private void remove(PageTable table, int j, long va, PageSize size) {
        table.set(j, null);
        table.refCount--;
        mappedBytes -= size.bytes();
        if (tlb != null) tlb.invalidate(va, size);
        freeEmpty(table);
    }

    /** Replaces the access of the PTE of {@code size} at {@code va} (what cuMemSetAccess writes). */
    public void protect(long va, PageSize size, Access access) {
        PageTable table = tableHolding(va, size);
        int j = table == null ? -1 : table.level().index(va);
        if (table == null || !(table.entry(j) instanceof Pte pte) || pte.size() != size) {
            throw new IllegalStateException("protect(" + hex(va) + "): no " + size + " page mapped there");
        }
        table.set(j, ptes != null ? ptes.withAccess(pte, access) : pte.withAccess(access));
        if (tlb != null) tlb.invalidate(va, size);
    }

    /** The PTE of exactly {@code size} at {@code va}, or null; no walk is counted. */
    public Pte find(long va, PageSize size) {
        PageTable table = tableHolding(va, size);
        if (table == null) return null;
        return table.entry(table.level().index(va)) instanceof Pte p && p.size() == size ? p : null;
    }

    // tag::walk[]
    /** Walks the tree for {@code va}, root first, recording each level's index and entry. */
    public Walk walk(long va) {
        checkVa(va);
        // lab:begin 1.1 "Walk the page table" see ch01 "The walk"
        List<Walk.Step> steps = new ArrayList<>();
        PageTable table = root;
        for (Level level : format.directories()) {           // PDE3 -> PDE2 -> PDE1 -> PDE0
            int i = level.index(va);
            Object e = table.entry(i);
            steps.add(new Walk.Step(table.depth(), level.name(), i, describe(e)));
            if (e == null) return Walk.fault(va, format, steps, level.name(), i, "is empty");
            if (e instanceof Pte pte) return Walk.hit(va, format, steps, pte);      // a 2M page
            if (e instanceof DualPde dual) return walkPageTable(va, steps, dual);
            table = (PageTable) e;
        }
        throw new IllegalStateException("PDE0 holds a PTE, a dual PDE or nothing");
        // lab:end
    }
    // end::walk[]

    // tag::dual[]
    /** Below a dual PDE0: a 64K PTE wins; otherwise the 4K table answers. */
    private Walk walkPageTable(long va, List<Walk.Step> steps, DualPde dual) {
        for (PageTable pt : new PageTable[] {dual.big(), dual.small()}) {
            if (pt == null) continue;
            int j = pt.level().index(va);
            Object e = pt.entry(j);
            steps.add(new Walk.Step(pt.depth(), pt.level().name(), j, describe(e)));
            if (e instanceof Pte pte) return Walk.hit(va, format, steps, pte);
        }
        Walk.Step last = steps.get(steps.size() - 1);
        return Walk.fault(va, format, steps, last.level(), last.index(), "is empty");
    }
    // end::dual[]

    // tag::translate[]
    /**
     * The physical address behind {@code va}: from the TLB when it holds the page, else by a
     * walk whose PTE is then cached.
     *
     * @throws PageFault when nothing is mapped, or the mapping grants no access
     */
    public Translation translate(long va) {
        if (tlb != null) {
            Pte cached = tlb.lookup(va);
            if (cached != null) return new Translation(va, cached, true);
        }
        Walk w = walk(va);
        if (!w.found()) throw w.fault();
        if (!w.pte().valid()) {
            Walk.Step s = w.last();
            throw new PageFault(va, s.level(), s.index(), "maps a page with no access granted");
        }
        if (tlb != null) tlb.fill(va, w.pte());
        return new Translation(va, w.pte(), false);
    }
    // end::translate[]

    /** Calls {@code action(va, pte)} for every PTE (a dual PDE's 64K table before its 4K table). */
    public void forEachPte(BiConsumer<Long, Pte> action) { visit(root, 0L, action); }

    private void visit(PageTable t, long base, BiConsumer<Long, Pte> action) {
        for (int i = 0; i < t.size(); i++) {
            Object e = t.entry(i);
            long va = base + (long) i * t.level().coverage();
            if (e instanceof Pte p) action.accept(va, p);
            else if (e instanceof PageTable child) visit(child, va, action);
            else if (e instanceof DualPde d) {
                if (d.big() != null) visit(d.big(), va, action);
                if (d.small() != null) visit(d.small(), va, action);
            }
        }
    }

    /** Checks the invariants in the class comment; throws with the offending table. */
    public void checkInvariants() {
        long[] sums = new long[2];                           // {table bytes, mapped bytes}
        int n = checkTable(root, sums);
        if (n != tables || sums[0] != pageTableBytes || sums[1] != mappedBytes) {
            throw new IllegalStateException("AddressSpace: counted " + n + " tables / " + sums[0]
                    + " B / " + sums[1] + " B mapped, books say " + tables + " / " + pageTableBytes
                    + " / " + mappedBytes);
        }
        // No two PTEs overlap. The walk lists them in address order but for a dual PDE's 4K table,
        // which comes after its 64K one: where each PTE starts at or past the end of the one
        // before, none overlap; only a walk out of that order is sorted and looked at pair by pair.
        long[] end = {Long.MIN_VALUE};
        boolean[] inOrder = {true};
        forEachPte((va, p) -> {
            if (va < end[0]) inOrder[0] = false;
            end[0] = va + p.size().bytes();
        });
        if (!inOrder[0]) checkNoOverlap();
    }

    /** The PTEs sorted by address: none starts inside the one before it. */
    private void checkNoOverlap() {
        java.util.TreeMap<Long, Long> pages = new java.util.TreeMap<>();      // va -> end
        forEachPte((va, p) -> {
            if (pages.put(va, va + p.size().bytes()) != null) {
                throw new IllegalStateException("AddressSpace: two PTEs start at " + hex(va));
            }
        });
        long end = Long.MIN_VALUE;
        for (var e : pages.entrySet()) {
            if (e.getKey() < end) throw new IllegalStateException("AddressSpace: two PTEs overlap at " + hex(e.getKey()));
            end = e.getValue();
        }
    }

    private int checkTable(PageTable t, long[] sums) {
        if (t.refCount != t.countSlots()) {
            throw new IllegalStateException("AddressSpace: " + t + " counts " + t.countSlots() + " slots");
        }
        if (t != root && t.refCount == 0) throw new IllegalStateException("AddressSpace: empty " + t + " kept");
        sums[0] += t.level().allocBytes();
        int n = 1;
        for (int i = 0; i < t.size(); i++) {
            Object e = t.entry(i);
            if (e instanceof Pte p) sums[1] += p.size().bytes();
            else if (e instanceof PageTable c) n += checkTable(c, sums);
            else if (e instanceof DualPde d) {
                if (d.isEmpty()) throw new IllegalStateException("AddressSpace: empty dual PDE in " + t);
                if (d.big() != null) n += checkTable(d.big(), sums);
                if (d.small() != null) n += checkTable(d.small(), sums);
            }
        }
        return n;
    }

    // --- helpers -------------------------------------------------------------------------

    private PageTable newTable(Level level, int depth, PageTable parent, int index) {
        tables++;
        pageTableBytes += level.allocBytes();
        return new PageTable(level, depth, nextTableId++, parent, index);
    }

    /** PDE3 -> PDE2 -> PDE1 -> the PDE0 table for {@code va}; null when absent and not created. */
    private PageTable descendToPde0(long va, boolean create) {
        PageTable t = root;
        List<Level> dirs = format.directories();
        for (int d = 0; d < dirs.size() - 1; d++) {
            int i = dirs.get(d).index(va);
            Object e = t.entry(i);
            if (e == null) {
                if (!create) return null;
                PageTable child = newTable(dirs.get(d + 1), d + 1, t, i);
                t.set(i, child);
                t.refCount++;
                e = child;
            }
            t = (PageTable) e;
        }
        return t;
    }

    /** The table a PTE of {@code size} at {@code va} would sit in, or null when absent. */
    private PageTable tableHolding(long va, PageSize size) {
        PageTable pde0 = descendToPde0(va, false);
        if (pde0 == null || size == PageSize.SIZE_2M) return pde0;
        return pde0.entry(format.pde0().index(va)) instanceof DualPde d ? d.half(size) : null;
    }

    /** A 64K page and 4K pages may not cover the same bytes (the simulator keeps one answer). */
    private void checkNoOtherSize(DualPde dual, long va, PageSize size) {
        if (size == PageSize.SIZE_4K) {
            PageTable big = dual.big();
            Object e = big == null ? null : big.entry(big.level().index(va));
            if (e != null) throw overlap(va, size, e);
            return;
        }
        PageTable small = dual.small();
        if (small == null) return;
        int first = small.level().index(va);
        for (int k = 0; k < 16; k++) {                       // a 64K page spans 16 4K PTEs
            if (small.entry(first + k) != null) throw overlap(va, size, small.entry(first + k));
        }
    }

    /** Frees {@code t} and its empty ancestors, up to (not including) the root. */
    private void freeEmpty(PageTable t) {
        while (t != root && t.refCount == 0) {
            PageTable parent = t.parent();
            int i = t.indexInParent();
            if (parent.entry(i) instanceof DualPde d) {
                d.setHalf(t.level() == format.pt64k() ? PageSize.SIZE_64K : PageSize.SIZE_4K, null);
                if (d.isEmpty()) parent.set(i, null);
            } else {
                parent.set(i, null);
            }
            parent.refCount--;
            tables--;
            pageTableBytes -= t.level().allocBytes();
            t = parent;
        }
    }

    private void checkVa(long va) {
        if (va < 0 || va >= format.vaLimit()) {
            throw new IllegalArgumentException(hex(va) + " is outside the " + format.vaBits() + "-bit VA space");
        }
    }

    private static String describe(Object e) {
        if (e == null) return "(empty)";
        if (e instanceof PageTable t) return "-> " + t;
        return e.toString();
    }

    private static IllegalStateException overlap(long va, PageSize size, Object existing) {
        return new IllegalStateException("map(" + hex(va) + ", " + size + "): already mapped by " + existing);
    }

    static String hex(long va) { return "0x" + Long.toHexString(va); }

    @Override public String toString() {
        return "AddressSpace " + format.name() + ": " + tables + " tables (" + pageTableBytes
                + " B), " + mappedBytes + " B mapped" + (tlb == null ? ", no TLB" : ", " + tlb);
    }

    /** Frees every table below the root; for a process that exits. Returns the bytes freed. */
    public long clear() {
        long before = pageTableBytes;
        record Mapped(long va, PageSize size) {}
        List<Mapped> pages = new ArrayList<>();               // collected first: unmap edits the tables
        forEachPte((va, p) -> pages.add(new Mapped(va, p.size())));
        for (Mapped p : pages) unmap(p.va(), p.size());
        return before - pageTableBytes;
    }
}
