package vramlab.gmmu;

/**
 * A page-table entry: which page it maps, where that page lives, and what access it grants.
 *
 * @param size     4K, 64K or 2M; decides the level the entry is written in
 * @param aperture local video memory, a peer's video memory, or system memory
 * @param peer     the peer slot 0-7 when the aperture is PEER_MEMORY, else 0
 * @param address  the physical address of the page inside its aperture, aligned to the size
 * @param access   NONE until {@code cuMemSetAccess}; READ or READWRITE after
 * @param device   the GPU whose memory holds the page (the simulator's bookkeeping, not a PTE field)
 */
public record Pte(PageSize size, Aperture aperture, int peer, long address, Access access,
                  int device) {

    /** UVM has exactly 8 peer apertures, UVM_APERTURE_PEER_0..7 (uvm_hal_types.h). */
    public static final int MAX_PEERS = 8;

    public Pte {
        if (!size.isAligned(address)) {
            throw new IllegalArgumentException("Pte: address 0x" + Long.toHexString(address)
                    + " is not aligned to a " + size + " page");
        }
        if (peer < 0 || peer >= MAX_PEERS || (peer != 0 && aperture != Aperture.PEER_MEMORY)) {
            throw new IllegalArgumentException("Pte: peer slot " + peer + " with aperture " + aperture);
        }
    }

    /** A page of this GPU's own memory. */
    public static Pte local(PageSize size, long address, Access access, int device) {
        return new Pte(size, Aperture.VIDEO_MEMORY, 0, address, access, device);
    }

    /** A page of a peer GPU's memory, reached through peer slot {@code peer}. */
    public static Pte peer(PageSize size, int peer, long address, Access access, int device) {
        return new Pte(size, Aperture.PEER_MEMORY, peer, address, access, device);
    }

    /** A page in system address space ({@code aperture} SYS or SYSNC), such as a peer's BAR1. */
    public static Pte system(PageSize size, Aperture aperture, long address, Access access, int device) {
        if (!aperture.isSystem()) {
            throw new IllegalArgumentException("Pte.system: " + aperture + " is not a system aperture");
        }
        return new Pte(size, aperture, 0, address, access, device);
    }

    /** The hardware VALID bit: a PTE that grants no access is not valid. */
    public boolean valid() { return access != Access.NONE; }

    public Pte withAccess(Access a) { return new Pte(size, aperture, peer, address, a, device); }

    // tag::bits[]
    /**
     * The 64-bit VER2 encoding (dev_mmu.h, NV_MMU_VER2_PTE_*): VALID 0:0, APERTURE 2:1,
     * READ_ONLY 6:6, ADDRESS_SYS 53:8 or ADDRESS_VID 32:8 (the address >> 12), peer index 35:33
     * (ADDRESS_VID_PEER). A video or peer address above 37 bits (an NVSwitch fabric address)
     * puts its high bits in COMPTAGLINE 53:36, as UVM's make_pte_turing does (uvm_turing_mmu.c,
     * 595.45.04). VOL, PRIVILEGE, ATOMIC_DISABLE and KIND stay 0.
     */
    public long bits() {
        throw new vramlab.lab.Todo("1.3", "Encode a PTE", "ch01 \"What a PTE holds\"", "labs/src/main/java/vramlab/gmmu/Pte.java");
    }
    // end::bits[]

    @Override public String toString() {
        String where = aperture == Aperture.PEER_MEMORY
                ? "PEER" + peer + " (GPU " + device + ")" : aperture.shortName();
        return "PTE " + size + " " + where + " 0x" + Long.toHexString(address) + " " + access;
    }
}
