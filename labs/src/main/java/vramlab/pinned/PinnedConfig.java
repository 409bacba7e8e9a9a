package vramlab.pinned;

import java.util.Locale;

import vramlab.units.Bytes;

/**
 * The pinned allocator's options, as a user writes them in {@code PYTORCH_ALLOC_CONF}
 * ({@code PYTORCH_CUDA_ALLOC_CONF} in older releases).
 *
 * <ul>
 *   <li>{@code pinned_use_background_threads}: CFG.h accessor (fact sheet section 0, 11); the
 *       seed names it with {@code PYTORCH_ALLOC_CONF}.
 *   <li>{@code pinned_reserve_segment_size_mb}: CHA.cpp {@code get_reserve_segment} @03258ab
 *       (the fact sheet's CHA.cpp); the slab is never freed ({@code free_block}).
 *   <li>{@code pinned_max_cached_size_mb}, {@code pinned_max_round_threshold_mb}: UNVERIFIED.
 *       Not found in any stored PyTorch source; described by the seed, and by downstream notes
 *       that place them in the PyTorch 2.13 parser ({@code c10/core/AllocatorConfig.cpp}) and
 *       in torch_npu's tests. The toy follows those descriptions.
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

    public PinnedConfig {
        if (maxCachedSize < 0 || maxRoundThreshold < 0 || reserveSegmentSize < 0) {
            throw new IllegalArgumentException("PinnedConfig: sizes must not be negative");
        }
    }

    /**
     * Reads the pinned keys of an allocator-config string, for example
     * {@code "pinned_max_cached_size_mb:512,pinned_use_background_threads:True"}.
     * Unknown keys and bad values are errors that name the key and the value.
     */
    public static PinnedConfig parse(String conf) {
        PinnedConfig c = DEFAULT;
        if (conf == null || conf.isBlank()) return c;
        for (String item : conf.split(",")) {
            String[] kv = item.trim().split(":", -1);
            if (kv.length != 2) throw bad(item, "expected key:value");
            String key = kv[0].trim(), value = kv[1].trim();
            c = switch (key) {
                case "pinned_max_cached_size_mb" -> new PinnedConfig(mb(key, value),
                        c.maxRoundThreshold, c.reserveSegmentSize, c.useBackgroundThreads);
                case "pinned_max_round_threshold_mb" -> new PinnedConfig(c.maxCachedSize,
                        mb(key, value), c.reserveSegmentSize, c.useBackgroundThreads);
                case "pinned_reserve_segment_size_mb" -> new PinnedConfig(c.maxCachedSize,
                        c.maxRoundThreshold, mb(key, value), c.useBackgroundThreads);
                case "pinned_use_background_threads" -> new PinnedConfig(c.maxCachedSize,
                        c.maxRoundThreshold, c.reserveSegmentSize, bool(key, value));
                default -> throw bad(item, "unknown key '" + key + "' (expected pinned_max_cached_size_mb,"
                        + " pinned_max_round_threshold_mb, pinned_reserve_segment_size_mb or"
                        + " pinned_use_background_threads)");
            };
        }
        return c;
    }

    private static long mb(String key, String value) {
        try {
            long n = Long.parseLong(value);
            if (n < 0) throw bad(key + ":" + value, "expected a non-negative number of MiB");
            return Math.multiplyExact(n, Bytes.MiB);
        } catch (NumberFormatException | ArithmeticException e) {
            throw bad(key + ":" + value, "expected a non-negative number of MiB");
        }
    }

    private static boolean bool(String key, String value) {
        return switch (value.toLowerCase(Locale.ROOT)) {
            case "true", "1" -> true;
            case "false", "0" -> false;
            default -> throw bad(key + ":" + value, "expected True or False");
        };
    }

    private static IllegalArgumentException bad(String item, String what) {
        return new IllegalArgumentException("PYTORCH_ALLOC_CONF: '" + item + "': " + what);
    }
}
