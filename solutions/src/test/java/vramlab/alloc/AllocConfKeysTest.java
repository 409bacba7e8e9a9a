package vramlab.alloc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Each modelled release's parser accepts exactly its release's keys and refuses any other in
 * that release's own words (c10/cuda/CUDAAllocatorConfig.cpp's {@code parseArgs}; sources in
 * {@link AllocConfKeys}).
 */
class AllocConfKeysTest {
    static final String KEYS_2_9 = "max_split_size_mb, max_non_split_rounding_mb, garbage_collection_threshold,"
            + " roundup_power2_divisions, backend, expandable_segments, release_lock_on_hipmalloc,"
            + " release_lock_on_cudamalloc, pinned_use_hip_host_register, pinned_use_cuda_host_register,"
            + " pinned_num_register_threads, pinned_use_background_threads, graph_capture_record_stream_reuse";
    static final String KEYS_2_10 = KEYS_2_9 + ", pinned_reserve_segment_size_mb, per_process_memory_fraction";

    @ParameterizedTest(name = "{0}: {1}")
    @DisplayName("every key a release's parser reads is accepted by the kit's parser for that release")
    @CsvSource(delimiter = '|', textBlock = """
            2.9  | max_split_size_mb:64
            2.9  | max_non_split_rounding_mb:64
            2.9  | garbage_collection_threshold:0.5
            2.9  | roundup_power2_divisions:4
            2.9  | backend:native
            2.9  | expandable_segments:True
            2.9  | release_lock_on_hipmalloc:True
            2.9  | release_lock_on_cudamalloc:True
            2.9  | pinned_use_hip_host_register:True
            2.9  | pinned_use_cuda_host_register:True
            2.9  | pinned_num_register_threads:8
            2.9  | pinned_use_background_threads:True
            2.9  | graph_capture_record_stream_reuse:True
            2.10 | max_split_size_mb:64
            2.10 | max_non_split_rounding_mb:64
            2.10 | garbage_collection_threshold:0.5
            2.10 | roundup_power2_divisions:4
            2.10 | backend:native
            2.10 | expandable_segments:True
            2.10 | release_lock_on_hipmalloc:True
            2.10 | release_lock_on_cudamalloc:True
            2.10 | pinned_use_hip_host_register:True
            2.10 | pinned_use_cuda_host_register:True
            2.10 | pinned_num_register_threads:8
            2.10 | pinned_reserve_segment_size_mb:64
            2.10 | pinned_use_background_threads:True
            2.10 | graph_capture_record_stream_reuse:True
            2.10 | per_process_memory_fraction:0.5
            """)
    void accepted(String version, String conf) {
        PyTorchRelease r = PyTorchRelease.named(version);
        assertThat(AllocConf.parse(conf, r.rules())).isNotNull();
        assertThat(r.rules().keys()).contains(conf.substring(0, conf.indexOf(':')));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @DisplayName("any other key is refused in the release's own words, then the keys it expected and where the key comes from")
    @CsvSource(delimiter = '|', textBlock = """
            2.9  | per_process_memory_fraction:0.5   | . 2.10 added this key (pytorch/pytorch#161035): --pytorch-version 2.10; in 2.9 the limit is set from code, torch.cuda.set_per_process_memory_fraction
            2.9  | pinned_reserve_segment_size_mb:64 | . 2.10 added this key (pytorch/pytorch#164501, October 2025): --pytorch-version 2.10
            2.9  | large_segment_size_mb:12          | . The key is newer than 2.10 (pytorch/pytorch#172056, January 2026): it changes the large pool's 20 MiB segments (kLargeBuffer), which 2.10 and earlier keep, as the kit's allocator does
            2.10 | large_segment_size_mb:12          | . The key is newer than 2.10 (pytorch/pytorch#172056, January 2026): it changes the large pool's 20 MiB segments (kLargeBuffer), which 2.10 and earlier keep, as the kit's allocator does
            2.9  | pinned_max_cached_size_mb:512     | . The key is newer than 2.10 (pytorch/pytorch#171662, first in 2.13); chapter 7's host allocator reads it (vramlab.pinned.PinnedConfig)
            2.10 | pinned_max_round_threshold_mb:64  | . The key is newer than 2.10 (pytorch/pytorch#171662, first in 2.13); chapter 7's host allocator reads it (vramlab.pinned.PinnedConfig)
            2.9  | expandable_segments_page_size:4   | ''
            2.10 | expandable_segments_page_size:4   | ''
            2.9  | expandable_segment:True           | ''
            2.10 | expandable_segment:True           | ''
            """)
    void refused(String version, String conf, String hint) {
        PyTorchRelease r = PyTorchRelease.named(version);
        String key = conf.substring(0, conf.indexOf(':'));
        String words = r == PyTorchRelease.V2_9 ? "Unrecognized CachingAllocator option: " + key
                : "Unrecognized key '" + key + "' in CUDA allocator config.";
        String keys = r == PyTorchRelease.V2_9 ? KEYS_2_9 : KEYS_2_10;
        assertThatThrownBy(() -> AllocConf.parse(conf, r.rules()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(words + " (PyTorch " + version + "'s CUDAAllocatorConfig::parseArgs; expected one of: "
                        + keys + ")" + hint);
    }

    @Test
    @DisplayName("the key is checked before its value, as parseArgs compares the key first")
    void keyBeforeValue() {
        assertThatThrownBy(() -> AllocConf.parse("per_process_memory_fraction:7", PyTorchRelease.V2_9.rules()))
                .hasMessageStartingWith("Unrecognized CachingAllocator option: per_process_memory_fraction (");
        assertThatThrownBy(() -> AllocConf.parse("per_process_memory_fraction:7", PyTorchRelease.V2_10.rules()))
                .hasMessageContaining("bad value '7' for per_process_memory_fraction");
    }

    @Test
    @DisplayName("the default parse is 2.9's")
    void defaultIsTwoNine() {
        assertThatThrownBy(() -> AllocConf.parse("per_process_memory_fraction:0.5"))
                .hasMessageStartingWith("Unrecognized CachingAllocator option: per_process_memory_fraction");
    }
}
