package vramlab.alloc;

/** The caching allocator's two pools. A segment belongs to one pool for its whole life. */
public enum PoolKind {
    SMALL, LARGE;

    /** PyTorch's names in statistics keys: {@code small_pool}, {@code large_pool}. */
    public String statName() { return this == SMALL ? "small_pool" : "large_pool"; }
}
