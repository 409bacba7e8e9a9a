package vramlab.pinned;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One pool's free blocks, kept as PyTorch keeps them: {@code free_list_}, a vector of
 * {@code MAX_SIZE_INDEX} (64) deques, one per power-of-two bucket, indexed by
 * {@code size_index(size)}, the base-2 logarithm of the size rounded up
 * ({@code Log2_64_Ceil}, {@code std::bit_width(size - 1)} in newer headers): bucket {@code i}
 * holds the sizes in {@code (2^(i-1), 2^i]}. aten/src/ATen/core/CachingHostAllocator.h
 * (CHA.h) @0445633, {@code free} and {@code process_events_for_specific_size}: a block that
 * becomes free is pushed at the back of its bucket; {@code empty_cache} empties the buckets in
 * index order, each from front to back.
 *
 * <p>{@link #take} is {@code get_free_block}. Up to 2.13 it popped the back of the request's
 * bucket whatever its size; pytorch/pytorch#192722 (2.14) scans the bucket from the back and
 * takes the first block at least as large as the request (CHA.h as a fork of main carries it,
 * WangJieCS/pytorch@3bbdd59: {@code for (auto it = list.rbegin(); ...) if (block->size_ >= size)}).
 * With every request rounded a bucket holds one size and that is its back block; only unrounded
 * blocks ({@code pinned_max_round_threshold_mb}) make a bucket hold several sizes.
 *
 * <p>Invariant: every block is in the bucket of its size, at most once.
 */
final class FreeLists {
    /** CHA.h {@code MAX_SIZE_INDEX}: a {@code long} size's index is at most 63. */
    static final int BUCKETS = 64;

    /** Bucket i's list, front (oldest) to back; null until a block is first filed there. */
    private final List<ArrayDeque<HostBlock>> buckets = new ArrayList<>(Collections.nCopies(BUCKETS, null));

    /** CHA.h {@code size_index}: {@code Log2_64_Ceil(size)}, for {@code size >= 1}. */
    static int sizeIndex(long size) {
        if (size < 1) throw new IllegalArgumentException("sizeIndex: size " + size + " < 1");
        return 64 - Long.numberOfLeadingZeros(size - 1);
    }

    /** A block became free: to the back of its bucket. */
    void add(HostBlock b) {
        int i = sizeIndex(b.size());
        if (buckets.get(i) == null) buckets.set(i, new ArrayDeque<>());
        buckets.get(i).addLast(b);
    }

    // tag::take[]
    /**
     * {@code get_free_block(size)}: the block nearest the back of {@code size}'s bucket that is
     * at least {@code size} bytes, taken off the list; null when there is none.
     */
    HostBlock take(long size) {
        ArrayDeque<HostBlock> bucket = buckets.get(sizeIndex(size));
        if (bucket == null) return null;
        for (Iterator<HostBlock> it = bucket.descendingIterator(); it.hasNext(); ) {
            HostBlock b = it.next();
            if (b.size() >= size) {
                it.remove();
                return b;
            }
        }
        return null;
    }
    // end::take[]

    /** Takes every block off the lists, bucket by bucket, each front (oldest) to back. */
    List<HostBlock> drain() {
        List<HostBlock> all = new ArrayList<>();
        for (ArrayDeque<HostBlock> bucket : buckets) {
            if (bucket == null) continue;
            all.addAll(bucket);
            bucket.clear();
        }
        return all;
    }

    /** The non-empty buckets by index, each front (oldest) to back. */
    Map<Integer, List<HostBlock>> byBucket() {
        Map<Integer, List<HostBlock>> m = new LinkedHashMap<>();
        for (int i = 0; i < BUCKETS; i++) {
            if (buckets.get(i) != null && !buckets.get(i).isEmpty()) m.put(i, List.copyOf(buckets.get(i)));
        }
        return Collections.unmodifiableMap(m);
    }

    /** The same blocks grouped by size, smallest first, each group in its bucket's order. */
    Map<Long, List<HostBlock>> bySize() {
        Map<Long, List<HostBlock>> m = new TreeMap<>();
        for (ArrayDeque<HostBlock> bucket : buckets) {
            if (bucket == null) continue;
            for (HostBlock b : bucket) m.computeIfAbsent(b.size(), k -> new ArrayList<>()).add(b);
        }
        m.replaceAll((k, v) -> List.copyOf(v));
        return m;
    }
}
