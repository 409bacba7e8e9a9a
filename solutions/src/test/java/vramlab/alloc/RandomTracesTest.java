package vramlab.alloc;

import static org.assertj.core.api.Assertions.assertThat;
import static vramlab.units.Bytes.mib;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import vramlab.driver.Gpu;
import vramlab.driver.GpuProcess;

/**
 * Seeded random traces (the seed is in each test's name) through every policy and option
 * combination: allocations of every size class on three streams, frees, record_stream,
 * stream completions and empty_cache, with every invariant checked after every step, and every
 * statistic against its value recomputed from the blocks ({@link StatsOracle}).
 */
@DisplayName("invariants under seeded random traces")
class RandomTracesTest {

    // Under PIT (-Pmutation sets vramlab.pit): a fifth of the steps, so a survivor costs seconds.
    static final int STEPS = Boolean.getBoolean("vramlab.pit") ? 300 : 1500;

    static Stream<Arguments> combinations() {
        List<String> confs = List.of("toy", "", "max_split_size_mb:64", "roundup_power2_divisions:4",
                "expandable_segments:True",
                "garbage_collection_threshold:0.6,per_process_memory_fraction:0.9",
                "expandable_segments:True,roundup_power2_divisions:[1:4,>:8]",
                "max_split_size_mb:32,garbage_collection_threshold:0.5,per_process_memory_fraction:0.8",
                "expandable_segments:True,per_process_memory_fraction:0.7");
        List<Arguments> out = new ArrayList<>();
        for (String c : confs) for (long seed = 1; seed <= 3; seed++) out.add(Arguments.of(c, seed));
        return out.stream();
    }

    @ParameterizedTest(name = "policy [{0}] seed {1}")
    @MethodSource("combinations")
    @DisplayName("every step keeps the allocator's and the driver's invariants")
    void invariants(String conf, long seed) {
        Gpu gpu = new Gpu(mib(256));
        GpuProcess p = gpu.openToyProcess();
        Policy policy = conf.equals("toy") ? new ToyPolicy() : CodeFraction.policy(conf);
        CachingAllocator a = new CachingAllocator(p, policy);
        a.trace().record(true, 500);
        Random r = new Random(seed);
        List<Block> live = new ArrayList<>();
        int ooms = 0;
        for (int step = 0; step < STEPS; step++) {
            int op = r.nextInt(100);
            if (op < 55 || live.isEmpty()) {
                try {
                    live.add(a.alloc(randomSize(r), r.nextInt(10) < 8 ? 0 : 1 + r.nextInt(2)));
                } catch (CudaOutOfMemoryError e) {
                    ooms++;
                    assertThat(e.report().tried()).isPositive();
                }
            } else if (op < 90) {
                a.free(live.remove(r.nextInt(live.size())));
            } else if (op < 95) {
                a.recordStream(live.get(r.nextInt(live.size())), r.nextInt(3));
            } else if (op < 98) {
                a.completeStream(r.nextInt(3));
            } else {
                a.emptyCache();
            }
            a.checkInvariants();
            gpu.checkInvariants();
            StatsOracle.check(a, "policy [" + conf + "] seed " + seed + " step " + step);
        }
        assertThat(a.memoryStats().numOoms()).isEqualTo(ooms);
        for (Block b : live) a.free(b);
        a.emptyCache();
        a.checkInvariants();
        assertThat(a.reserved()).as("everything goes back after the last free and empty_cache").isZero();
        assertThat(p.mappedBytes()).isZero();
        assertThat(a.memoryStats().stat("active_bytes", "all").current()).isZero();
        assertThat(a.memoryStats().stat("inactive_split", "all").current()).isZero();
    }

    /** Log-uniform from 1 B to 48 MiB: both pools, every segment-size branch. */
    static long randomSize(Random r) {
        double log = r.nextDouble() * Math.log(mib(48));
        return Math.max(1, (long) Math.exp(log));
    }
}
