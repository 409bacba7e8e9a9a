package vramlab.pinned;

import java.util.Map;
import java.util.Set;

import vramlab.alloc.AllocConf;
import vramlab.alloc.AllocConfKeys;
import vramlab.alloc.PyTorchRelease;
import vramlab.units.Bytes;

/**
 * The pinned allocator's options, as a user writes them in {@code PYTORCH_ALLOC_CONF}
 * ({@code PYTORCH_CUDA_ALLOC_CONF} in older releases): one string for both allocators, so the
 * device allocator's keys may stand beside these and are checked, then left to it.
 *
 * <ul>
 *   <li>{@code pinned_use_background_threads}: CFG.h accessor; PyTorch's parser takes exactly
 *       {@code True} or {@code False}.
 *   <li>{@code pinned_reserve_segment_size_mb}: CHA.cpp {@code get_reserve_segment} @03258ab;
 *       the slab is never freed ({@code free_block}); the value "has to be greater than 0"
 *       (CUDAAllocatorConfig.cpp {@code parsePinnedReserveSegmentSize}).
 *   <li>{@code pinned_max_cached_size_mb}, {@code pinned_max_round_threshold_mb}: added by
 *       pytorch/pytorch#171662, listed in PyTorch 2.13.0's release notes
 *       (meta-pytorch/torch-release-notes 2.13.0/final.md @18ed798). Read in CHA.h as a fork
 *       carries main after it (Continuous-Integrator/pytorch@2533df0): {@code allocate} rounds
 *       only a request within both limits ({@code size <= pinned_max_round_threshold() &&
 *       size <= pinned_max_cached_size()}, {@link CachingHostAllocator#roundSize}), and
 *       {@code maybe_cache_block} releases a block, the rounded size, above the cache limit
 *       ({@code block->size_ > pinned_max_cached_size()}, {@link CachingHostAllocator#fateOf}).
 *       The parser ({@code c10/core/AllocatorConfig.cpp}) the kit did not read; it takes MiB
 *       as the PRs and torch_npu's tests of the same {@code AcceleratorAllocatorConfig} keys
 *       say. Reuse within a power-of-two bucket is pytorch/pytorch#192722's, in 2.14.0's
 *       release notes ({@link FreeLists}; ch07 notes, "Options").
 * </ul>
 *
 * @param maxCachedSize  blocks larger than this are released when their events retire,
 *                       instead of being cached (default: no limit)
 * @param maxRoundThreshold requests larger than this are not rounded to a power of two
 *                       (default: no limit, everything is rounded)
 * @param reserveSegmentSize one slab pinned at first use and carved up; never freed (0: off)
 * @param useBackgroundThreads events are polled off the allocation path
 */
public record PinnedConfig(long maxCachedSize, long maxRoundThreshold, long reserveSegmentSize,
                           boolean useBackgroundThreads) {
    public static final PinnedConfig DEFAULT = new PinnedConfig(Long.MAX_VALUE, Long.MAX_VALUE, 0, false);

    /**
     * Whose parser checks the other keys: the newest release the kit's device allocator models.
     * The chapter follows PyTorch 2.13 and later, whose parsers the kit has not read; 2.10's keys
     * are all there still (the CUDA notes of later releases list them).
     */
    public static final PyTorchRelease DEVICE_KEYS = PyTorchRelease.V2_10;

    /**
     * The keys of 2.13 (pytorch/pytorch#171662) that no release the device parser models has: the
     * device parser's own list of them ({@link AllocConfKeys#PINNED_2_13}), which refuses them
     * with a hint that names this class.
     */
    public static final Set<String> LATER_KEYS = AllocConfKeys.PINNED_2_13;

    public PinnedConfig {
        if (maxCachedSize < 0 || maxRoundThreshold < 0 || reserveSegmentSize < 0) {
            throw new IllegalArgumentException("PinnedConfig: sizes must not be negative");
        }
    }

    /**
     * Reads the pinned keys of an allocator-config string, for example
     * {@code "expandable_segments:True,pinned_max_cached_size_mb:512"}. Every key is checked as
     * the device allocator's parser checks it ({@link AllocConf#parse}), by {@link #DEVICE_KEYS}'
     * rules, and {@link #LATER_KEYS} beside them: an unknown key or a bad value is an error that
     * names it; the device keys are then left to that allocator.
     */
    public static PinnedConfig parse(String conf) {
        if (conf == null || conf.isBlank()) return DEFAULT;
        try {
            AllocConf.parse(conf, DEVICE_KEYS.rules(), LATER_KEYS);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("PYTORCH_ALLOC_CONF '" + conf + "': " + e.getMessage(), e);
        }
        PinnedConfig c = DEFAULT;
        for (Map.Entry<String, String> e : AllocConf.entries(conf).entrySet()) {
            String value = e.getValue();
            c = switch (e.getKey()) {
                case "pinned_max_cached_size_mb" -> new PinnedConfig(mb(value),
                        c.maxRoundThreshold, c.reserveSegmentSize, c.useBackgroundThreads);
                case "pinned_max_round_threshold_mb" -> new PinnedConfig(c.maxCachedSize,
                        mb(value), c.reserveSegmentSize, c.useBackgroundThreads);
                case "pinned_reserve_segment_size_mb" -> new PinnedConfig(c.maxCachedSize,
                        c.maxRoundThreshold, mb(value), c.useBackgroundThreads);
                case "pinned_use_background_threads" -> new PinnedConfig(c.maxCachedSize,
                        c.maxRoundThreshold, c.reserveSegmentSize, value.equals("True"));
                default -> c;                            // the device allocator's
            };
        }
        return c;
    }

    /** A checked number of MiB, in bytes (a very large one saturates to "no limit"). */
    private static long mb(String value) {
        long n = Long.parseLong(value);
        return n > Long.MAX_VALUE / Bytes.MiB ? Long.MAX_VALUE : n * Bytes.MiB;
    }

}
