package vramlab.gmmu;

/**
 * One GPU's 2 MiB PTEs of its own memory, one object per page and access, made when first asked
 * for and handed out again on every later map of that page: what {@code Pte.local(SIZE_2M,
 * address, access, device)} makes, without making it anew for each cudaMalloc (issue 38: a long
 * replay maps a segment's pages per event, and every fresh PTE was heap the kernel had to zero).
 *
 * <p>Safe because a {@link Pte} is a record: its fields are final and nothing in the kit tells
 * two equal PTEs apart (page tables, the TLB and the checks compare by value or read the
 * fields), so the same object may sit in any number of page tables, one after another or at
 * once.
 *
 * <p>Kept in leaves of {@link #LEAF} pages (8 GiB of physical memory), made when a page of that
 * range is first mapped with that access: a card that maps all of its memory read-write holds
 * one 40-byte PTE per 2 MiB page, about 21 MB for 1 TiB.
 */
public final class LocalPtes {
    /** Pages per leaf: 8 GiB of 2 MiB pages. */
    static final int LEAF = 4096;

    private static final long PAGE = PageSize.SIZE_2M.bytes();
    private static final Access[] ACCESSES = Access.values();

    private final int device;
    private final long pages;
    private final Pte[][][] byAccess;                  // [access][leaf][page in leaf]

    /** The PTEs of GPU {@code device}, whose memory is {@code capacity} bytes. */
    public LocalPtes(int device, long capacity) {
        if (capacity <= 0) throw new IllegalArgumentException("LocalPtes: capacity " + capacity);
        this.device = device;
        this.pages = capacity / PAGE;
        this.byAccess = new Pte[ACCESSES.length][(int) ((pages + LEAF - 1) / LEAF)][];
    }

    public int device() { return device; }

    /**
     * {@code Pte.local(SIZE_2M, address, access, device())}: the one kept for that page and
     * access, or a new one for an address that is no whole page of this GPU (the constructor's
     * checks then throw as they always did).
     */
    public Pte get(long address, Access access) {
        if (address < 0 || address % PAGE != 0 || address / PAGE >= pages) {
            return Pte.local(PageSize.SIZE_2M, address, access, device);
        }
        int page = (int) (address / PAGE);
        Pte[][] leaves = byAccess[access.ordinal()];
        Pte[] leaf = leaves[page / LEAF];
        if (leaf == null) leaf = leaves[page / LEAF] = new Pte[LEAF];
        Pte pte = leaf[page % LEAF];
        if (pte == null) pte = leaf[page % LEAF] = Pte.local(PageSize.SIZE_2M, address, access, device);
        return pte;
    }

    /**
     * {@code pte.withAccess(access)}: from here when {@code pte} is a 2 MiB PTE of this GPU's
     * own memory (what {@code cuMemSetAccess} rewrites), else a new one.
     */
    public Pte withAccess(Pte pte, Access access) {
        if (pte.size() == PageSize.SIZE_2M && pte.aperture() == Aperture.VIDEO_MEMORY
                && pte.device() == device) {
            return get(pte.address(), access);
        }
        return pte.withAccess(access);
    }
}
