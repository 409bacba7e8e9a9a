package vramlab.alloc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static vramlab.units.Bytes.mib;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import vramlab.alloc.AllocConf.Rules;

/**
 * Where PyTorch's parsers disagree on one string ({@link Rules}): the least max_split_size_mb,
 * and where a '>' entry of roundup_power2_divisions starts to fill.
 */
@DisplayName("The allocator config by each parser's rules")
class AllocConfRulesTest {
    /**
     * c10/test/core/AllocatorConfig_test.cpp @13e144e13b3b, its CUDA keys: the newest rules give
     * every row it expects (the device-generic keys backend:async, release_lock_on_device_malloc
     * and pinned_use_device_host_register are not CUDA's and are left out; its third string,
     * "2048:8>:2", leans on tokenizer behaviour the stored sources do not show, and is left out).
     */
    @Test
    @DisplayName("AllocatorConfig_test's expectations hold under PyTorch 2.10's parser (ACCELERATOR_CONFIG_0AC7166):"
            + " 1024 MB keeps 4, 20 MB splits")
    void pytorchsOwnTest() {
        Rules newest = PyTorchRelease.V2_10.rules();
        String env = "max_split_size_mb:40,max_non_split_rounding_mb:30,garbage_collection_threshold:0.5,"
                + "roundup_power2_divisions:[64:8,128:2,256:4,512:2,1024:4,>:1],expandable_segments:True";
        AllocConf c = AllocConf.parse(env, newest);
        long[][] rows = {{32, 8}, {64, 8}, {128, 2}, {256, 4}, {512, 2}, {1024, 4}, {2048, 1}, {4096, 1}, {8192, 1}};
        for (long[] row : rows) assertThat(c.divisionsFor(mib(row[0]))).as("%d MB", row[0]).isEqualTo(row[1]);
        assertThat(c.maxSplitSize()).isEqualTo(mib(40));
        assertThat(c.maxNonSplitRounding()).isEqualTo(mib(30));
        AllocConf second = AllocConf.parse("max_split_size_mb:20,max_non_split_rounding_mb:40,"
                + "garbage_collection_threshold:0.8", newest);
        assertThat(second.maxSplitSize()).isEqualTo(mib(20));
        assertThat(second.maxNonSplitRounding()).isEqualTo(mib(40));
        // The same string under the older parsers (2.9's, and main's between two 2.10 pull requests):
        // 1024 MB is overwritten by '>'.
        assertThat(AllocConf.parse(env, PyTorchRelease.V2_9.rules()).divisionsFor(mib(1024))).isEqualTo(1);
        assertThat(AllocConf.parse(env, Rules.ACCELERATOR_CONFIG_065861F).divisionsFor(mib(1024))).isEqualTo(1);
    }

    @Test
    @DisplayName("the least max_split_size_mb and max_non_split_rounding_mb: > 20 by CUDAAllocatorConfig, >= 20 by AllocatorConfig")
    void leastSplitSize() {
        for (Rules r : Rules.values()) {
            long least = r == Rules.CUDA_ALLOCATOR_CONFIG ? 21 : 20;
            for (long mb = 0; mb <= 40; mb++) {
                for (String key : List.of("max_split_size_mb", "max_non_split_rounding_mb")) {
                    String text = key + ":" + mb;
                    if (mb >= least) {
                        AllocConf c = AllocConf.parse(text, r);
                        assertThat(key.startsWith("max_split") ? c.maxSplitSize() : c.maxNonSplitRounding())
                                .as("%s %s", r, text).isEqualTo(mib(mb));
                    } else {
                        assertThatThrownBy(() -> AllocConf.parse(text, r)).as("%s %s", r, text)
                                .isInstanceOf(IllegalArgumentException.class)
                                .hasMessageContaining("bad value '" + mb + "' for " + key)
                                .hasMessageContaining(least == 21 ? "> 20" : ">= 20");
                    }
                }
            }
        }
    }

    @Test
    @DisplayName("a '>' alone: from interval 0 by the older rules, from interval 1 by the newest")
    void greaterAlone() {
        assertThat(AllocConf.parse("roundup_power2_divisions:[>:4]").divisionsFor(mib(1))).isEqualTo(4);
        AllocConf newest = AllocConf.parse("roundup_power2_divisions:[>:4]", Rules.ACCELERATOR_CONFIG_0AC7166);
        assertThat(newest.divisionsFor(mib(1))).isZero();
        assertThat(newest.divisionsFor(mib(2))).isEqualTo(4);
        assertThat(newest.divisionsFor(mib(1L << 20))).isEqualTo(4);
    }

    /**
     * Seeded lists of 1 to 6 entries ending in '>': the older parsers agree with each other on
     * every interval, and the newest agrees with them on every interval but the last listed one,
     * which it keeps at its listed value where they overwrite it with the '>' value.
     */
    @Test
    @DisplayName("on 2,000 seeded lists the rules differ only at the last listed interval")
    void differOnlyAtTheLastListed() {
        Random rnd = new Random(35);
        for (int n = 0; n < 2000; n++) {
            List<String> parts = new ArrayList<>();
            int entries = 1 + rnd.nextInt(5), last = -1;
            long lastValue = 0;
            for (int e = 0; e < entries; e++) {
                int interval = rnd.nextInt(16);
                lastValue = 1L << rnd.nextInt(5);
                parts.add((1L << interval) + ":" + lastValue);
                last = interval;
            }
            long greater = 1L << rnd.nextInt(5);
            parts.add(">:" + greater);
            String text = "roundup_power2_divisions:[" + String.join(",", parts) + "]";
            long[] old = AllocConf.parse(text).roundupPower2Divisions();
            long[] mid = AllocConf.parse(text, Rules.ACCELERATOR_CONFIG_065861F).roundupPower2Divisions();
            long[] newest = AllocConf.parse(text, Rules.ACCELERATOR_CONFIG_0AC7166).roundupPower2Divisions();
            assertThat(mid).as(text).containsExactly(old);
            for (int k = 0; k < AllocConf.INTERVALS; k++) {
                if (k == last) {
                    assertThat(old[k]).as("%s, interval %d", text, k).isEqualTo(greater);
                    assertThat(newest[k]).as("%s, interval %d", text, k).isEqualTo(lastValue);
                } else {
                    assertThat(newest[k]).as("%s, interval %d", text, k).isEqualTo(old[k]);
                }
                if (k > last) assertThat(newest[k]).as("%s, after the last listed", text).isEqualTo(greater);
            }
        }
    }
}
