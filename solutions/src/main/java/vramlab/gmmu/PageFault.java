package vramlab.gmmu;

/**
 * What the GMMU raises when a walk finds no valid translation: it names the level and the entry
 * where the walk stopped, so a reader sees how far the address got.
 */
public final class PageFault extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final long va;
    private final String level;
    private final int index;

    public PageFault(long va, String level, int index, String why) {
        super("page fault at 0x" + Long.toHexString(va) + ": " + level + "[" + index + "] "
                + why + " (the walk stopped at " + level + ")");
        this.va = va;
        this.level = level;
        this.index = index;
    }

    public long va() { return va; }

    /** The level whose entry stopped the walk, for example {@code PDE1}. */
    public String level() { return level; }

    public int index() { return index; }
}
