package vramlab.alloc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static vramlab.units.Bytes.mib;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

@DisplayName("PYTORCH_CUDA_ALLOC_CONF parsing")
class AllocConfTest {

    @Test
    @DisplayName("a blank string is the defaults: nothing set")
    void defaults() {
        AllocConf c = AllocConf.parse("");
        assertThat(c).isEqualTo(AllocConf.defaults());
        assertThat(c.maxSplitSize()).isEqualTo(Long.MAX_VALUE);
        assertThat(c.expandableSegments()).isFalse();
        assertThat(c.divisionsFor(mib(5))).isZero();
    }

    @Test
    @DisplayName("reads every key with an effect, spaces dropped as the lexer drops them")
    void allKeys() {
        AllocConf c = AllocConf.parse("expandable_segments:True, max_split_size_mb:128,"
                + "roundup_power2_divisions:[64:8,>:2],garbage_collection_threshold:0.6,"
                + "max_non_split_rounding_mb:64");
        assertThat(c.expandableSegments()).isTrue();
        assertThat(c.maxSplitSize()).isEqualTo(mib(128));
        assertThat(c.maxNonSplitRounding()).isEqualTo(mib(64));
        assertThat(c.divisionsFor(mib(5))).as("below 64 MB: filled by the first entry").isEqualTo(8);
        assertThat(c.divisionsFor(mib(100))).as("64 MB's own interval: '>' fills from it on (PyTorch up to 2.9)")
                .isEqualTo(2);
        assertThat(c.divisionsFor(mib(200))).isEqualTo(2);
        assertThat(c.garbageCollectionThreshold()).isEqualTo(0.6);
        assertThat(c.memoryFraction()).as("2.9 has no key for it").isEqualTo(-1);
        assertThat(AllocConf.parse("per_process_memory_fraction:0.8", PyTorchRelease.V2_10.rules()).memoryFraction())
                .as("2.10's key").isEqualTo(0.8);
    }

    @Test
    @DisplayName("prints as a config string that parses back to the same options")
    void roundTrip() {
        for (String text : new String[] {"", "expandable_segments:True,max_split_size_mb:128",
            "roundup_power2_divisions:[64:8,>:2],garbage_collection_threshold:0.6"}) {
            AllocConf c = AllocConf.parse(text);
            assertThat(AllocConf.parse(c.toString())).as(c.toString()).isEqualTo(c);
        }
        AllocConf.Rules newest = PyTorchRelease.V2_10.rules();      // the fraction prints as 2.10's key
        AllocConf f = AllocConf.parse("per_process_memory_fraction:0.25,max_non_split_rounding_mb:40", newest);
        assertThat(AllocConf.parse(f.toString(), newest)).as(f.toString()).isEqualTo(f);
    }

    @Test
    @DisplayName("accepts the keys it does not simulate, and checks their values")
    void acceptedKeys() {
        AllocConf c = AllocConf.parse("backend:native,release_lock_on_cudamalloc:True,"
                + "pinned_use_cuda_host_register:False,pinned_num_register_threads:8,"
                + "pinned_use_background_threads:True,"
                + "graph_capture_record_stream_reuse:True");
        assertThat(c).isEqualTo(AllocConf.defaults());
    }

    /**
     * c10/test/core/AllocatorConfig_test.cpp (pytorch/pytorch @13e144e), the values PyTorch up to
     * 2.9 gives too. That test targets c10/core/AllocatorConfig.cpp after PR #165304, so two of
     * its rows differ by version and are asserted here as the kit's version gives them, and its
     * device-generic keys ({@code backend:async}, {@code release_lock_on_device_malloc},
     * {@code pinned_use_device_host_register}) are not CUDA's and are left out.
     */
    @Test
    @DisplayName("AllocatorConfig_test: max_split 40, max_non_split 30, gc 0.5, the divisions list, expandable,"
            + " register threads 8, background threads (1024 MB: 1 up to 2.9, 4 from 2.10)")
    void allocatorConfigTest() {
        String env = "max_split_size_mb:40,max_non_split_rounding_mb:30,garbage_collection_threshold:0.5,"
                + "roundup_power2_divisions:[64:8,128:2,256:4,512:2,1024:4,>:1],expandable_segments:True,"
                + "pinned_num_register_threads:8,pinned_use_background_threads:True";
        AllocConf c = AllocConf.parse(env);
        assertThat(c.maxSplitSize()).isEqualTo(mib(40));
        assertThat(c.maxNonSplitRounding()).isEqualTo(mib(30));
        assertThat(c.garbageCollectionThreshold()).isEqualTo(0.5);
        long[][] rows = {{32, 8}, {64, 8}, {128, 2}, {256, 4}, {512, 2}, {1024, 1}, {2048, 1}, {4096, 1}, {8192, 1}};
        for (long[] row : rows) {
            assertThat(c.divisionsFor(mib(row[0]))).as("%d MB", row[0]).isEqualTo(row[1]);
        }
        assertThat(c.expandableSegments()).isTrue();
        assertThat(vramlab.pinned.PinnedConfig.parse(env).useBackgroundThreads()).isTrue();
        assertThatThrownBy(() -> AllocConf.parse("max_split_size_mb:20,max_non_split_rounding_mb:40"))
                .as("the test's second string: 2.10's parser accepts 20, 2.9's does not")
                .hasMessageContaining("2.10 accepts 20: --pytorch-version 2.10");
        AllocConf second = AllocConf.parse("max_split_size_mb:21,max_non_split_rounding_mb:40,"
                + "garbage_collection_threshold:0.8");
        assertThat(second.maxNonSplitRounding()).isEqualTo(mib(40));
        assertThat(second.garbageCollectionThreshold()).isEqualTo(0.8);
        AllocConf off = AllocConf.parse("backend:native,expandable_segments:False");
        assertThat(off.expandableSegments()).isFalse();
    }

    @Test
    @DisplayName("a '>' first fills every interval; later entries then fill below themselves")
    void greaterFirst() {
        AllocConf c = AllocConf.parse("roundup_power2_divisions:[>:4,64:8]");
        assertThat(c.divisionsFor(mib(2))).isEqualTo(8);
        assertThat(c.divisionsFor(mib(100))).isEqualTo(8);
        assertThat(c.divisionsFor(mib(200))).isEqualTo(4);
    }

    @Test
    @DisplayName("entries() cuts a string into its keys and values, lists whole")
    void entries() {
        assertThat(AllocConf.entries("expandable_segments:True, roundup_power2_divisions:[64:8,>:2],"
                + "pinned_use_background_threads:True")).containsExactly(
                java.util.Map.entry("expandable_segments", "True"),
                java.util.Map.entry("roundup_power2_divisions", "[64:8,>:2]"),
                java.util.Map.entry("pinned_use_background_threads", "True"));
    }

    @ParameterizedTest(name = "{0} -> error naming {1}")
    @CsvSource(delimiter = '|', textBlock = """
            expandable_segment:True               | Unrecognized CachingAllocator option: expandable_segment (PyTorch 2.9's
            expandable_segments_page_size:4       | Unrecognized CachingAllocator option: expandable_segments_page_size (
            expandable_segments:true              | bad value 'true' for expandable_segments
            expandable_segments:1                 | bad value '1' for expandable_segments
            max_split_size_mb:20                  | bad value '20' for max_split_size_mb: expected a number of MB > 20 ("too small, must be > 20" in PyTorch up to 2.9
            large_segment_size_mb:12              | which 2.10 and earlier keep
            pinned_reserve_segment_size_mb:64     | Unrecognized CachingAllocator option: pinned_reserve_segment_size_mb (
            graph_capture_record_stream_reuse:yes | bad value 'yes' for graph_capture_record_stream_reuse
            max_split_size_mb:big                 | bad value 'big' for max_split_size_mb
            max_split_size_mb:-5                  | bad value '-5' for max_split_size_mb
            garbage_collection_threshold:1.0      | bad value '1.0' for garbage_collection_threshold
            garbage_collection_threshold:0        | bad value '0' for garbage_collection_threshold
            roundup_power2_divisions:3            | bad value '3' for roundup_power2_divisions
            roundup_power2_divisions:[3:4]        | bad value '3' for roundup_power2_divisions
            roundup_power2_divisions:[64:6]       | bad value '6' for roundup_power2_divisions
            per_process_memory_fraction:0.5       | Unrecognized CachingAllocator option: per_process_memory_fraction (
            backend:cudaMallocAsync               | bad value 'cudaMallocAsync' for backend
            pinned_num_register_threads:256       | bad value '256' for pinned_num_register_threads
            max_split_size_mb                     | expected ':' after 'max_split_size_mb'
            max_split_size_mb:64 expandable_segments:True | bad value '64expandable_segments' for max_split_size_mb
            """)
    @DisplayName("an unknown key or a bad value is an error that names it")
    void errors(String conf, String message) {
        assertThatThrownBy(() -> AllocConf.parse(conf))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(message);
    }
}
