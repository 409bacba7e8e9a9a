package vramlab.gmmu;

/**
 * Where a PTE points. The codes are the hardware's VER2 field {@code NV_MMU_VER2_PTE_APERTURE},
 * bits 2:1 (open-gpu-kernel-modules 595.45.04, kernel-open/nvidia-uvm/hwref/turing/tu102/
 * dev_mmu.h: VIDEO_MEMORY 0, PEER_MEMORY 1, SYSTEM_COHERENT_MEMORY 2,
 * SYSTEM_NON_COHERENT_MEMORY 3). The same file's legacy {@code NV_MMU_PTE_APERTURE} sits at
 * bits 34:33 of the pre-Pascal PTE and is not this field.
 *
 * <p>A peer's memory is not always reached through PEER: over PCIe BAR1 UVM uses a system
 * aperture (see {@code vramlab.driver.PeerLink}).
 */
public enum Aperture {
    VIDEO_MEMORY(0, "VID"),
    PEER_MEMORY(1, "PEER"),
    SYSTEM_COHERENT(2, "SYS"),
    SYSTEM_NON_COHERENT(3, "SYSNC");

    private final int code;
    private final String shortName;

    Aperture(int code, String shortName) {
        this.code = code;
        this.shortName = shortName;
    }

    /** The 2-bit value in the PTE's APERTURE field (bits 2:1). */
    public int code() { return code; }

    public String shortName() { return shortName; }

    public boolean isSystem() { return this == SYSTEM_COHERENT || this == SYSTEM_NON_COHERENT; }
}
