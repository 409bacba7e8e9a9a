package vramlab.gmmu;

import java.util.List;

/**
 * A page-table layout: the directory levels from the root down to PDE0, and the two page tables
 * that PDE0's dual entry points at.
 *
 * <p>VER2 (Pascal, Volta, Turing, Ampere, Ada) decodes a 49-bit VA in five levels; VER3 (Hopper)
 * decodes 57 bits and adds one root level above an unchanged tree. Sources (NVIDIA
 * open-gpu-kernel-modules): VER2, tag 590.44.01 kernel-open/nvidia-uvm/uvm_pascal_mmu.c (index
 * bits {2, 9, 9, 8} then 5 or 9, entry sizes 8 and 16, VA width 49) and tag 595.45.04
 * src/nvidia/src/kernel/gpu/mmu/arch/pascal/kern_gmmu_fmt_gp10x.c; VER3, tag 595.45.04
 * kernel-open/nvidia-uvm/uvm_hopper_mmu.c (bit widths {1, 9, 9, 9, 8}, VA width 57).
 *
 * @param directories root first, PDE0 last; PDE0 is the dual level that also holds 2M PTEs
 */
public record MmuFormat(String name, int vaBits, List<Level> directories, Level pt64k, Level pt4k) {

    /** The root's 32 (VER2) or 16 (VER3) bytes still take a 4 KiB-aligned allocation in UVM. */
    private static final long ROOT_ALLOC = 4096;

    // tag::ver2[]
    /** Pascal to Ada: PDE3 [48:47] -> PDE2 [46:38] -> PDE1 [37:29] -> PDE0 [28:21] -> PT. */
    public static final MmuFormat VER2 = new MmuFormat("VER2 (49-bit, Pascal..Ada)", 49, List.of(
            new Level("PDE3", 48, 47, 8, ROOT_ALLOC),
            Level.of("PDE2", 46, 38, 8),
            Level.of("PDE1", 37, 29, 8),
            Level.of("PDE0", 28, 21, 16)),               // dual: a 64K-table and a 4K-table pointer
            Level.of("PT_64K", 20, 16, 8),
            Level.of("PT_4K", 20, 12, 8));
    // end::ver2[]

    /** Hopper: one more root level, PDE4 [56:56], and the old root widened to PDE3 [55:47]. */
    public static final MmuFormat VER3 = new MmuFormat("VER3 (57-bit, Hopper)", 57, List.of(
            new Level("PDE4", 56, 56, 8, ROOT_ALLOC),
            Level.of("PDE3", 55, 47, 8),
            Level.of("PDE2", 46, 38, 8),
            Level.of("PDE1", 37, 29, 8),
            Level.of("PDE0", 28, 21, 16)),
            Level.of("PT_64K", 20, 16, 8),
            Level.of("PT_4K", 20, 12, 8));

    public MmuFormat {
        directories = List.copyOf(directories);
        if (directories.get(0).hi() != vaBits - 1) {
            throw new IllegalArgumentException(name + ": the root must decode bit " + (vaBits - 1));
        }
    }

    public Level root() { return directories.get(0); }

    public Level pde0() { return directories.get(directories.size() - 1); }

    /** UVM's depth of the level holding a PTE of this size: PDE0's depth for 2M, one more below. */
    public int depthOf(PageSize size) {
        int pde0 = directories.size() - 1;
        return size == PageSize.SIZE_2M ? pde0 : pde0 + 1;
    }

    /** The level a PTE of this size is written in. */
    public Level levelOf(PageSize size) {
        return switch (size) {
            case SIZE_2M -> pde0();
            case SIZE_64K -> pt64k;
            case SIZE_4K -> pt4k;
        };
    }

    /** One past the highest virtual address: 2^vaBits. */
    public long vaLimit() { return 1L << vaBits; }

    @Override public String toString() { return name; }
}
