package vramlab.gmmu;

/**
 * PDE0's 16-byte dual entry: one pointer to a 64 KiB-page table and one to a 4 KiB-page table,
 * both covering the same 2 MiB of VA (Pascal gp100 dev_mmu.h, NV_MMU_VER2_DUAL_PDE_*; UVM's
 * MMU_BIG 0 and MMU_SMALL 1, kernel-open/nvidia-uvm/uvm_hopper_mmu.c, open-gpu-kernel-modules
 * 595.45.04). Either half may be empty.
 */
public final class DualPde {
    private PageTable big;
    private PageTable small;

    public PageTable big() { return big; }

    public PageTable small() { return small; }

    PageTable half(PageSize size) { return size == PageSize.SIZE_64K ? big : small; }

    void setHalf(PageSize size, PageTable t) {
        if (size == PageSize.SIZE_64K) big = t;
        else small = t;
    }

    boolean isEmpty() { return big == null && small == null; }

    @Override public String toString() {
        return "dual PDE: 64K -> " + (big == null ? "-" : "#" + big.id())
                + ", 4K -> " + (small == null ? "-" : "#" + small.id());
    }
}
