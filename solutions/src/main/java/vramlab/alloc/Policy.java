package vramlab.alloc;

import vramlab.units.Bytes;

/**
 * The rules that differ between the simplified (toy) policy chapter 3 starts from and
 * PyTorch's real allocator. The mechanism (free sets, split, merge, segments from the driver,
 * streams, statistics) is shared; a policy decides the numbers and switches the optional
 * machinery on.
 *
 * <p>The defaults are the toy's: no expandable segments, no {@code max_split_size}, no garbage
 * collection, and an OOM at the first failed cudaMalloc (no flush-and-retry).
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

    /**
     * The text of the out-of-memory error for the state in {@code report}, from the report alone:
     * the error writes it when first read, and a replay may read it later, on another thread.
     */
    String oomMessage(OomReport report);

    /** {@code expandable_segments:True}: grow one reservation per (pool, stream) by pages. */
    default boolean expandableSegments() { return false; }

    /** The page an expandable segment of {@code pool} maps at a time (CCA:2211). */
    default long expandablePageSize(PoolKind pool) {
        return pool == PoolKind.SMALL ? 2 * Bytes.MiB : 20 * Bytes.MiB;
    }

    /** {@code max_split_size}: {@code Long.MAX_VALUE} when unlimited (the default). */
    default long maxSplitSize() { return Long.MAX_VALUE; }

    /** How much larger than an oversize request a cached block may be ({@code kLargeBuffer}). */
    default long oversizeSlack() { return 20 * Bytes.MiB; }

    /** {@code garbage_collection_threshold}; 0 is off. */
    default double garbageCollectionThreshold() { return 0; }

    /** {@code set_per_process_memory_fraction} at start; negative when not set. */
    default double memoryFraction() { return -1; }

    /**
     * Whether a memory fraction of 1.0 sets no limit (PyTorch 2.10, {@link PyTorchRelease}) rather
     * than a limit of the whole card.
     */
    default boolean wholeCardIsNoLimit() { return false; }

    /**
     * Whether a failed cudaMalloc is retried after releasing cached memory (PyTorch) or is an
     * OOM at once (the toy).
     */
    default boolean retriesBeforeOom() { return false; }
}
