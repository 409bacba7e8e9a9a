package vramlab.gmmu;

/**
 * One table of the tree: a page directory (PDE3..PDE0) or a page table (PT_64K, PT_4K).
 *
 * <p>Entries hold a child {@code PageTable} (PDE3..PDE1), a {@link DualPde} or a 2M {@link Pte}
 * (PDE0), or a {@link Pte} (page tables); {@code null} is an empty entry.
 *
 * <p>Invariant, as UVM's {@code uvm_page_directory_t.ref_count} ("count of references to all
 * entries", uvm_mmu.h): {@code refCount} is the number of non-empty host slots. At PDE0 the two
 * halves of a dual entry are two slots (UVM's {@code 2i} big, {@code 2i+1} small), and a 2M PTE is
 * one. A table whose count drops to 0 is freed, except the root.
 */
public final class PageTable {
    private final Level level;
    private final int depth;
    private final int id;
    private final PageTable parent;
    private final int indexInParent;
    private final Object[] entries;
    int refCount;

    PageTable(Level level, int depth, int id, PageTable parent, int indexInParent) {
        this.level = level;
        this.depth = depth;
        this.id = id;
        this.parent = parent;
        this.indexInParent = indexInParent;
        this.entries = new Object[level.entries()];
    }

    public Level level() { return level; }

    /** UVM's depth: 0 at the root. */
    public int depth() { return depth; }

    /** A serial number, to tell tables apart in a printed walk. */
    public int id() { return id; }

    public int refCount() { return refCount; }

    PageTable parent() { return parent; }

    int indexInParent() { return indexInParent; }

    /** The entry at {@code index}: a PageTable, a DualPde, a Pte, or null. */
    public Object entry(int index) { return entries[index]; }

    void set(int index, Object e) { entries[index] = e; }

    public int size() { return entries.length; }

    /**
     * The child table at UVM's host slot: {@code entries_per_index * index + offset}, so at PDE0
     * slot {@code 2i} is entry i's 64K table and {@code 2i+1} its 4K table (uvm_mmu.c).
     */
    public PageTable childAt(int slot) {
        Object e;
        if (level.entryBytes() == 16) {
            e = entries[slot / 2] instanceof DualPde d ? (slot % 2 == 0 ? d.big() : d.small()) : null;
        } else {
            e = entries[slot];
        }
        return e instanceof PageTable t ? t : null;
    }

    /** Counts the non-empty host slots, for checking {@code refCount}. */
    int countSlots() {
        int n = 0;
        for (Object e : entries) {
            if (e instanceof DualPde d) n += (d.big() != null ? 1 : 0) + (d.small() != null ? 1 : 0);
            else if (e != null) n++;
        }
        return n;
    }

    @Override public String toString() {
        return level.name() + " table #" + id + " (refs " + refCount + ")";
    }
}
