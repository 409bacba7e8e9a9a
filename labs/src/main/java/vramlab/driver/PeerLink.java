package vramlab.driver;

import vramlab.gmmu.Aperture;

/**
 * How one GPU reaches another's memory, and so what a peer PTE holds. The rules are UVM's
 * (NVIDIA/open-gpu-kernel-modules 595.45.04, kernel-open/nvidia-uvm/uvm_gpu.c):
 * {@code parent_gpu_peer_aperture} picks the aperture and {@code uvm_gpu_peer_phys_address} the
 * address.
 *
 * <ul>
 *   <li>{@link #PCIE}: peer-to-peer over PCIe through a peer aperture; the address is the
 *       owner's own physical address.
 *   <li>{@link #NVLINK}: a direct NVLink connection; PEER aperture, and the address is moved
 *       into the owner's GPA window ({@code peer_gpa_memory_window_start}).
 *   <li>{@link #NVSWITCH}: NVLink through NVSwitch; PEER aperture, the address moved into the
 *       owner's fabric window ({@code fabric_memory_window_start}), a 47-bit address whose high
 *       bits route through the switch.
 *   <li>{@link #PCIE_BAR1}: through the owner's BAR1; the system non-coherent aperture, and the
 *       address moved by the BAR1 DMA base ({@code bar1_p2p_dma_base_address}). No peer slot
 *       is used.
 *   <li>{@link #PCIE_BAR1_ATOMICS}: the same when PCIe atomics are routed between the two
 *       ({@code bar1_p2p_pcie_atomics_enabled}): the system coherent aperture.
 * </ul>
 *
 * <p>The window starts themselves come from RM at boot; the kit's values ({@link #offset}) are
 * illustrative, chosen aligned and inside the address fields.
 */
public enum PeerLink {
    PCIE,
    NVLINK,
    NVSWITCH,
    PCIE_BAR1,
    PCIE_BAR1_ATOMICS;

    /** The aperture of a PTE through this link. */
    public Aperture aperture() {
        return switch (this) {
            case PCIE, NVLINK, NVSWITCH -> Aperture.PEER_MEMORY;
            case PCIE_BAR1 -> Aperture.SYSTEM_NON_COHERENT;
            case PCIE_BAR1_ATOMICS -> Aperture.SYSTEM_COHERENT;
        };
    }

    /** Whether the PTE names a peer slot (0-7): only through a peer aperture. */
    public boolean usesPeerSlot() { return aperture() == Aperture.PEER_MEMORY; }

    /**
     * What is added to the owner's physical address. Illustrative window starts: the fabric
     * windows 1 TiB apart, the GPA windows 256 GiB apart, the BAR1 bases 64 GiB apart above
     * 1 PiB of system address space.
     */
    public long offset(Gpu owner) {
        long id = owner.id();
        return switch (this) {
            case PCIE -> 0;
            case NVLINK -> (id + 1) << 38;
            case NVSWITCH -> (id + 1) << 40;
            case PCIE_BAR1, PCIE_BAR1_ATOMICS -> (1L << 50) + (id << 36);
        };
    }
}
