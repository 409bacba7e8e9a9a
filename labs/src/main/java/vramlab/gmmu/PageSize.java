package vramlab.gmmu;

import vramlab.units.Bytes;

/**
 * The three page sizes of NVIDIA's GMMU from Pascal on. A 4 KiB or 64 KiB PTE sits in a page
 * table below PDE0; a 2 MiB PTE is written directly into PDE0 (UVM's page-table depth for 2M is
 * the PDE0 depth: open-gpu-kernel-modules 590.44.01, kernel-open/nvidia-uvm/uvm_pascal_mmu.c).
 */
public enum PageSize {
    SIZE_4K(12), SIZE_64K(16), SIZE_2M(21);

    private final int shift;

    PageSize(int shift) { this.shift = shift; }

    public int shift() { return shift; }

    public long bytes() { return 1L << shift; }

    /** The page's first byte at or below {@code va}. */
    public long base(long va) { return va & -bytes(); }

    public boolean isAligned(long va) { return (va & (bytes() - 1)) == 0; }

    @Override public String toString() {
        return this == SIZE_2M ? "2M" : this == SIZE_64K ? "64K" : "4K";
    }

    /** "2 MiB", for messages. */
    public String label() { return Bytes.formatSize(bytes()); }
}
