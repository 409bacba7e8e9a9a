package vramlab.alloc;

/**
 * The rules that differ between the seed chapter's toy and PyTorch's real allocator. The
 * mechanism (free sets, split, merge, segments from the driver) is shared; a policy decides
 * the numbers.
 */
public interface Policy {
    /** A short name, as {@code --policy} takes it. */
    String name();

    /** The block size a request of {@code requested} bytes is rounded to. */
    long roundSize(long requested);

    /** The pool a rounded size belongs to. */
    PoolKind poolFor(long rounded);

    /** The size of the new segment (one cudaMalloc) made when no cached block fits. */
    long segmentSize(long rounded);

    /** Whether a free block of {@code blockSize} serving {@code rounded} bytes is split. */
    boolean shouldSplit(PoolKind pool, long blockSize, long rounded);

    /** The text of the out-of-memory error for the state in {@code report}. */
    String oomMessage(OomReport report);
}
