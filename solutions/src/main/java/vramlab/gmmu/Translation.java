package vramlab.gmmu;

/**
 * A successful translation: the PTE that mapped {@code va} and the physical address it gives.
 *
 * @param fromTlb true when the TLB answered and no walk was needed
 */
public record Translation(long va, Pte pte, boolean fromTlb) {
    public long physical() { return pte.address() + (va & (pte.size().bytes() - 1)); }

    public Aperture aperture() { return pte.aperture(); }

    /** The GPU whose memory holds the byte. */
    public int device() { return pte.device(); }

    @Override public String toString() {
        return String.format("0x%x -> %s physical 0x%x on GPU %d%s", va, pte.aperture().shortName(),
                physical(), device(), fromTlb ? " (TLB hit)" : " (walk)");
    }
}
