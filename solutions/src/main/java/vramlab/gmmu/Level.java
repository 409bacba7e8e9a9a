package vramlab.gmmu;

/**
 * One level of the GMMU page-table tree: which VA bits index it and how big its entries are.
 *
 * <p>{@code index(va)} is UVM's shift-and-mask, {@code entry_index_from_vaddr(vaddr,
 * addr_bit_shift, bits)} in kernel-open/nvidia-uvm/uvm_mmu.c (open-gpu-kernel-modules
 * 595.45.04): {@code (va >> lo) & (entries - 1)}.
 *
 * @param name       the hardware's name: PDE3, PDE2, PDE1, PDE0, PT_64K, PT_4K (PDE4 on Hopper)
 * @param hi         the highest VA bit this level decodes
 * @param lo         the lowest VA bit this level decodes
 * @param entryBytes 8, or 16 for the dual PDE0
 * @param allocBytes what one table of this level costs in memory (the root: 4 KiB, see below)
 */
public record Level(String name, int hi, int lo, int entryBytes, long allocBytes) {

    public Level {
        if (hi < lo || lo < 12 || hi > 63) {
            throw new IllegalArgumentException(name + ": bad bit range [" + hi + ":" + lo + "]");
        }
    }

    /** A level whose table costs exactly its entries times their size. */
    public static Level of(String name, int hi, int lo, int entryBytes) {
        return new Level(name, hi, lo, entryBytes, (1L << (hi - lo + 1)) * entryBytes);
    }

    public int indexBits() { return hi - lo + 1; }

    public int entries() { return 1 << indexBits(); }

    /** The table's size in bytes (entries x entry size). */
    public long tableBytes() { return (long) entries() * entryBytes; }

    /** How much VA one entry of this level spans: 2^lo. */
    public long coverage() { return 1L << lo; }

    // tag::index[]
    /** The entry of this level that {@code va} selects: VA bits [hi:lo]. */
    public int index(long va) {
        return (int) ((va >>> lo) & (entries() - 1));
    }
    // end::index[]

    @Override public String toString() { return name + " [" + hi + ":" + lo + "]"; }
}
