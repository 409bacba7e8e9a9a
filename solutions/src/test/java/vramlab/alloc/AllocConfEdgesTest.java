package vramlab.alloc;

import static org.assertj.core.api.Assertions.assertThat;
import static vramlab.units.Bytes.mib;

import java.util.Map;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The allocator config's value semantics and its edges: megabytes that fit a long exactly,
 * a fraction of 0 that must survive a round trip, a trailing key without a value, and the
 * policy's record of the text the user set (PyTorch keeps {@code last_allocator_settings}).
 */
@DisplayName("The allocator config at its edges")
class AllocConfEdgesTest {
    @Nested
    @DisplayName("values")
    class Values {
        @ParameterizedTest(name = "max_split_size_mb:{0} -> {1} B")
        @CsvSource({
            "8796093022206, 9223372036852678656",          // (2^43 - 2) MiB
            "8796093022207, 9223372036853727232",          // Long.MAX_VALUE / MiB: the largest that fits
            "8796093022208, 9223372036854775807",          // one more overflows: no limit
        })
        @DisplayName("a number of MB that fits in a long is exact; one more saturates to no limit")
        void saturation(long mb, long bytes) {
            assertThat(AllocConf.parse("max_split_size_mb:" + mb).maxSplitSize()).isEqualTo(bytes);
        }

        @ParameterizedTest(name = "{0}")
        @CsvSource(delimiter = '|', textBlock = """
                per_process_memory_fraction:0
                per_process_memory_fraction:1
                garbage_collection_threshold:0.01
                max_non_split_rounding_mb:21
                """)
        @DisplayName("prints as a string that parses back to the same options, at the values' edges")
        void roundTrip(String text) {
            AllocConf.Rules rules = PyTorchRelease.V2_10.rules();     // the one with per_process_memory_fraction
            AllocConf c = AllocConf.parse(text, rules);
            assertThat(AllocConf.parse(c.toString(), rules)).as(c.toString()).isEqualTo(c);
            assertThat(c).isNotEqualTo(AllocConf.defaults());
        }
    }

    @Nested
    @DisplayName("equals and hashCode")
    class Equality {
        @Test
        @DisplayName("equal options are equal with equal hash codes; any one option differing makes them unequal")
        void contract() {
            AllocConf a = AllocConf.parse("max_split_size_mb:64,roundup_power2_divisions:4");
            AllocConf b = AllocConf.parse("roundup_power2_divisions:4,max_split_size_mb:64");
            assertThat(a).isEqualTo(b).hasSameHashCodeAs(b);
            for (String other : new String[] {"max_split_size_mb:65,roundup_power2_divisions:4",
                    "max_split_size_mb:64,roundup_power2_divisions:8",
                    "max_split_size_mb:64,roundup_power2_divisions:4,expandable_segments:True",
                    "max_split_size_mb:64,roundup_power2_divisions:4,max_non_split_rounding_mb:30",
                    "max_split_size_mb:64,roundup_power2_divisions:4,garbage_collection_threshold:0.5",
                    "max_split_size_mb:64,roundup_power2_divisions:4,per_process_memory_fraction:0.5"}) {
                assertThat(AllocConf.parse(other, PyTorchRelease.V2_10.rules())).as(other).isNotEqualTo(a);
            }
            assertThat(a).isNotEqualTo("max_split_size_mb:64,roundup_power2_divisions:4");
            assertThat(AllocConf.parse("max_split_size_mb:65").hashCode())
                    .as("hash codes spread over max_split_size").isNotEqualTo(AllocConf.parse("max_split_size_mb:64").hashCode());
            assertThat(AllocConf.parse("roundup_power2_divisions:8").hashCode())
                    .as("and over the divisions").isNotEqualTo(AllocConf.parse("roundup_power2_divisions:4").hashCode());
        }
    }

    @Test
    @DisplayName("entries() keeps a trailing key that has no value, with an empty value")
    void trailingKey() {
        assertThat(AllocConf.entries("max_split_size_mb:64,expandable_segments"))
                .containsExactly(Map.entry("max_split_size_mb", "64"), Map.entry("expandable_segments", ""));
        assertThat(AllocConf.entries("pinned_use_background_threads:True,"))
                .containsExactly(Map.entry("pinned_use_background_threads", "True"));
    }

    @Nested
    @DisplayName("the policy keeps the text the user set")
    class ConfText {
        @Test
        @DisplayName("nothing set is the empty string; a parsed config keeps its own spelling")
        void text() {
            assertThat(new PyTorchPolicy(AllocConf.defaults()).confText()).isEmpty();
            assertThat(new PyTorchPolicy().confText()).isEmpty();
            AllocConf c = AllocConf.parse("max_split_size_mb:64");
            assertThat(new PyTorchPolicy(c).confText()).isEqualTo(c.toString()).contains("max_split_size_mb:64");
            assertThat(new PyTorchPolicy("max_split_size_mb:64 ").confText()).isEqualTo("max_split_size_mb:64 ");
            assertThat(new PyTorchPolicy(c).maxSplitSize()).isEqualTo(mib(64));
        }
    }
}
