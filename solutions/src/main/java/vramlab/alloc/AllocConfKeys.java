package vramlab.alloc;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import vramlab.alloc.AllocConf.Rules;

/**
 * Which keys each modelled release's parser accepts, and the words it refuses any other key with.
 *
 * <p><b>PyTorch 2.9</b> ({@link Rules#CUDA_ALLOCATOR_CONFIG}): c10/cuda/CUDAAllocatorConfig.cpp's
 * own parser, {@code CUDAAllocatorConfig::parseArgs} (lexer {@code lexArgs}), as it stood from the
 * August 2025 back-out of the AcceleratorAllocatorConfig refactor (pytorch/pytorch#161002,
 * #161628) until PR #165135 re-landed it on 2025-10-10, which spans the 2.9 branch cut
 * (2025-09-09, #162493) and 2.9.0 (tag commit 0fabc3ba4482). The copy read is a stored version
 * of that file from early October 2025, whose commit the index did not name (no copy at
 * 0fabc3ba4482 was stored); its {@code parseArgs} compares fourteen keys and ends with
 * {@code TORCH_CHECK(false, "Unrecognized CachingAllocator option: ", config_item_view)}. One of
 * the fourteen, {@code pinned_reserve_segment_size_mb}, came after the branch cut
 * (pytorch/pytorch#163780, opened 2025-09-24, landed as #164501, opened 2025-10-02), so 2.9 has
 * the other thirteen, {@link #V2_9}. It has no {@code per_process_memory_fraction}. PyTorch 2.9's
 * CUDA notes (pytorch/docs 2.9/notes/cuda.html @0232c0d) list neither key; 2.10's list both.
 *
 * <p><b>PyTorch 2.10</b> ({@link Rules#ACCELERATOR_CONFIG_0AC7166}): the string goes first
 * to {@code AcceleratorAllocatorConfig::parseArgs} (c10/core/AllocatorConfig.cpp @0ac716637f32),
 * which reads its six keys and skips any other ({@code tokenizer.skipKey}), then to CUDA's hook,
 * {@code CUDAAllocatorConfig::parseArgs} (c10/cuda/CUDAAllocatorConfig.cpp @b944315b93d3), which
 * reads its own keys, {@code per_process_memory_fraction} among them
 * ({@code parsePerProcessMemoryFraction}), lets a key of {@code getKeys()} pass and refuses the
 * rest: {@code TORCH_CHECK_VALUE(keys.find(key) != keys.end(), "Unrecognized key '", key,
 * "' in CUDA allocator config.")}. No stored copy is at the v2.10.0 tag; PyTorch 2.10's CUDA
 * notes (pytorch/docs 2.10/notes/cuda.html @5708cf4) list the same keys, and none of the ones
 * newer main added ({@code large_segment_size_mb}, pytorch/pytorch#172056; the pinned limits of
 * #171662, first in 2.13). A later stored copy of CUDA's parser also has
 * {@code throw_on_cudamalloc_oom} (pytorch/pytorch#177356, March 2026, after 2.10) and
 * {@code pinned_free_catch_all}, whose date the kit did not establish: it refuses both under
 * 2.10, as 2.10's notes (which do not list them) suggest. {@link Rules#ACCELERATOR_CONFIG_065861F}, main between two October
 * 2025 pull requests, is given 2.10's keys and words; when {@code per_process_memory_fraction}
 * reached main relative to it is not established.
 */
public final class AllocConfKeys {
    private AllocConfKeys() {}

    /** PyTorch 2.9's keys, in the order its {@code parseArgs} compares them. */
    public static final Set<String> V2_9 = Collections.unmodifiableSet(new LinkedHashSet<>(List.of(
            "max_split_size_mb", "max_non_split_rounding_mb", "garbage_collection_threshold",
            "roundup_power2_divisions", "backend", "expandable_segments",
            "release_lock_on_hipmalloc", "release_lock_on_cudamalloc",
            "pinned_use_hip_host_register", "pinned_use_cuda_host_register",
            "pinned_num_register_threads", "pinned_use_background_threads",
            "graph_capture_record_stream_reuse")));

    /** PyTorch 2.10's keys: 2.9's, {@code pinned_reserve_segment_size_mb} and {@code per_process_memory_fraction}. */
    public static final Set<String> V2_10 = with(V2_9, "pinned_reserve_segment_size_mb", "per_process_memory_fraction");

    /**
     * The host allocator's two limits that 2.13 added (pytorch/pytorch#171662), which no modelled
     * release's parser has: refused here with a hint, read by chapter 7's
     * {@code vramlab.pinned.PinnedConfig} ({@code LATER_KEYS}) beside the newest release's keys.
     */
    public static final Set<String> PINNED_2_13 = Collections.unmodifiableSet(new LinkedHashSet<>(List.of(
            "pinned_max_cached_size_mb", "pinned_max_round_threshold_mb")));

    /** The keys {@code rules}' parser accepts. */
    public static Set<String> of(Rules rules) {
        return rules == Rules.CUDA_ALLOCATOR_CONFIG ? V2_9 : V2_10;
    }

    /**
     * Refuses {@code key} where {@code rules}' parser does, in its own words, followed by the
     * kit's: which parser, the keys it expected, and where the key comes from when the kit knows.
     */
    static void check(String key, Rules rules) {
        if (of(rules).contains(key)) return;
        String words = rules == Rules.CUDA_ALLOCATOR_CONFIG
                ? "Unrecognized CachingAllocator option: " + key
                : "Unrecognized key '" + key + "' in CUDA allocator config.";
        throw new IllegalArgumentException(words + " (" + parser(rules) + "; expected one of: "
                + String.join(", ", of(rules)) + ")" + hint(key, rules));
    }

    private static String parser(Rules rules) {
        for (PyTorchRelease r : PyTorchRelease.values()) {
            if (r.rules() == rules) return r + "'s CUDAAllocatorConfig::parseArgs";
        }
        return "CUDAAllocatorConfig::parseArgs of main between pytorch/pytorch#165135 and #165304";
    }

    private static String hint(String key, Rules rules) {
        if (PINNED_2_13.contains(key)) {
            return ". The key is newer than 2.10 (pytorch/pytorch#171662, first in 2.13); chapter 7's host"
                    + " allocator reads it (vramlab.pinned.PinnedConfig)";
        }
        return switch (key) {
            case "per_process_memory_fraction" -> rules == Rules.CUDA_ALLOCATOR_CONFIG
                    ? ". 2.10 added this key (pytorch/pytorch#161035): --pytorch-version 2.10; in 2.9 the limit"
                            + " is set from code, torch.cuda.set_per_process_memory_fraction" : "";
            case "pinned_reserve_segment_size_mb" -> rules == Rules.CUDA_ALLOCATOR_CONFIG
                    ? ". 2.10 added this key (pytorch/pytorch#164501, October 2025): --pytorch-version 2.10" : "";
            case "large_segment_size_mb" -> ". The key is newer than 2.10 (pytorch/pytorch#172056, January 2026):"
                    + " it changes the large pool's 20 MiB segments (kLargeBuffer), which 2.10 and earlier"
                    + " keep, as the kit's allocator does";
            default -> "";
        };
    }

    private static Set<String> with(Set<String> base, String... keys) {
        List<String> all = new ArrayList<>(base);
        all.addAll(List.of(keys));
        return Collections.unmodifiableSet(new LinkedHashSet<>(all));
    }
}
