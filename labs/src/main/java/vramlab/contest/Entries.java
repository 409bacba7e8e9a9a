package vramlab.contest;

import java.util.List;

/**
 * The contest's entries: the kit's reference allocators and the student's
 * {@link SegregatedFits}. PyTorch's default comes first: the performance index prices every
 * entry's driver calls against it.
 */
public final class Entries {
    private Entries() {}

    /** PyTorch's native allocator, default {@code PYTORCH_CUDA_ALLOC_CONF}. */
    public static final Contestant PYTORCH = new Contestant("pytorch",
            p -> CachingEntry.pytorch("pytorch", p, ""));

    /** PyTorch's native allocator with {@code expandable_segments:True}. */
    public static final Contestant EXPANDABLE = new Contestant("expandable",
            p -> CachingEntry.pytorch("expandable", p, "expandable_segments:True"));

    /** Chapter 6's buddy allocator, pages committed on demand. */
    public static final Contestant BUDDY = new Contestant("buddy", BuddyEntry::new);

    /** The student's entry. */
    public static final Contestant STUDENT = new Contestant("segregated-fits", SegregatedFits::new);

    /** The reference entries, PyTorch's default first. */
    public static List<Contestant> references() { return List.of(PYTORCH, EXPANDABLE, BUDDY); }

    /** The student's entry, then the references. */
    public static List<Contestant> all() { return List.of(STUDENT, PYTORCH, EXPANDABLE, BUDDY); }
}
