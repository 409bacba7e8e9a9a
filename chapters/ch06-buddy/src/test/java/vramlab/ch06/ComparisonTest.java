package vramlab.ch06;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static vramlab.units.Bytes.gib;

import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import vramlab.alloc.ToyPolicy;

class ComparisonTest {

    @Nested
    @TestInstance(TestInstance.Lifecycle.PER_CLASS)
    @DisplayName("the standard comparison, seed 1, invariants checked after every step")
    class Standard {
        Map<String, Result> byName;
        String table;
        String timeline;

        @BeforeAll
        void run() {
            Comparison c = Comparison.standard(1);
            List<Result> results = c.run(true);
            byName = results.stream().collect(Collectors.toMap(Result::name, Function.identity()));
            table = c.table(results);
            timeline = c.timeline(results, 60);
        }

        @Test
        @DisplayName("the timeline has one 60-column row per contender, starting with an empty pool")
        void timeline() {
            String[] rows = timeline.split("\n");
            assertThat(rows).hasSize(1 + byName.size());
            for (int i = 1; i < rows.length; i++) {
                assertThat(rows[i]).matches(".{14}\\|.{60}\\|");
                assertThat(rows[i].charAt(15)).as(timeline).isNotEqualTo(' ');
            }
        }

        @Test
        @DisplayName("allocated over requested is the internal waste as a ratio")
        void overallocation() {
            assertThat(byName.values()).allSatisfy(r ->
                    assertThat(r.overallocation()).isCloseTo(1 / (1 - r.internalWaste()), within(1e-12)));
            assertThat(byName.get("buddy").overallocation()).as(table).isBetween(4 / 3.0 - 0.05, 1.5);
        }

        @Test
        @DisplayName("every contender finishes every request")
        void allFinish() {
            assertThat(byName.values()).allSatisfy(r -> {
                assertThat(r.completed()).as(table).isEqualTo(300);
                assertThat(r.rejected()).as(table).isZero();
            });
        }

        @Test
        @DisplayName("the workload puts every contender under memory pressure")
        void pressure() {
            assertThat(byName.values()).allSatisfy(r -> assertThat(r.admissionFailures()).as(table).isPositive());
        }

        @Test
        @DisplayName("paged blocks never make a request wait while enough bytes are free")
        void pagedHasNoExternalFragmentation() {
            Result paged = byName.get("paged-16");
            assertThat(paged.failuresWithEnoughFree()).as(table).isZero();
            assertThat(paged.externalFragmentation()).as(table).isZero();
        }

        @Test
        @DisplayName("the buddy and the caching allocator do wait with enough bytes free")
        void othersFragment() {
            assertThat(byName.get("buddy").failuresWithEnoughFree()).as(table).isPositive();
            assertThat(byName.get("caching-toy").failuresWithEnoughFree()).as(table).isPositive();
        }

        @Test
        @DisplayName("paged internal waste is under the blog's 4%; the buddy's is near the theory's 25-33%")
        void internalWaste() {
            assertThat(byName.get("paged-16").internalWaste()).as(table).isLessThan(0.04);
            assertThat(byName.get("buddy").internalWaste()).as(table).isBetween(0.22, 0.36);
        }

        @Test
        @DisplayName("compaction lowers the buddy's waits-with-free-bytes, at a cost in bytes copied")
        void compaction() {
            Result plain = byName.get("buddy"), compacting = byName.get("buddy+compact");
            assertThat(compacting.failuresWithEnoughFree()).as(table).isLessThan(plain.failuresWithEnoughFree());
            assertThat(compacting.notes()).as(table).matches("[1-9]\\d* compactions moved [1-9]\\d* MiB");
        }

        @Test
        @DisplayName("paged blocks finish the workload in the fewest steps, with the fewest preemptions")
        void pagedFastest() {
            Result paged = byName.get("paged-16");
            assertThat(byName.values()).allSatisfy(r -> {
                assertThat(r.steps()).as(table).isGreaterThanOrEqualTo(paged.steps());
                assertThat(r.preemptions()).as(table).isGreaterThanOrEqualTo(paged.preemptions());
            });
        }
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {2, 3})
    @DisplayName("the same seed gives the same table; a different seed a different one")
    void deterministic(long seed) {
        Workload w = new Workload(seed, 60, 0.3, LengthDist.uniform(32, 512), LengthDist.uniform(16, 256), 32);
        List<KvContender.Factory> all = List.of(KvContender.caching("caching-toy", new ToyPolicy()),
                KvContender.buddy(), KvContender.buddyCompacting(), KvContender.paged(16));
        Comparison a = new Comparison(w, ModelShape.LLAMA_3_8B, gib(1), all);
        Comparison b = new Comparison(w, ModelShape.LLAMA_3_8B, gib(1), all);
        String ta = a.table(a.run(true));
        assertThat(b.table(b.run(false))).isEqualTo(ta);
        Workload other = new Workload(seed + 10, 60, 0.3, LengthDist.uniform(32, 512), LengthDist.uniform(16, 256), 32);
        Comparison c = new Comparison(other, ModelShape.LLAMA_3_8B, gib(1), all);
        assertThat(c.table(c.run(false))).isNotEqualTo(ta);
    }

    @Test
    @DisplayName("committed on demand, the buddy reserves what its blocks use; up front, the whole pool")
    void onDemandReserved() {
        Workload light = new Workload(4, 40, 0.05, LengthDist.uniform(32, 256), LengthDist.uniform(16, 128), 8);
        List<Result> rs = new Comparison(light, ModelShape.LLAMA_3_8B, gib(1),
                List.of(KvContender.buddy(), KvContender.buddyOnDemand())).run(true);
        Result upfront = rs.get(0), vmm = rs.get(1);
        assertThat(upfront.peakReserved()).isEqualTo(gib(1));
        assertThat(vmm.peakReserved()).isEqualTo(vmm.peakAllocated()).isLessThan(gib(1) / 2);
        assertThat(vmm.steps()).isEqualTo(upfront.steps());         // the same placements
        assertThat(vmm.internalWaste()).isEqualTo(upfront.internalWaste());
    }

    @Test
    @DisplayName("a request longer than any contender could hold is rejected, not waited on forever")
    void rejection() {
        Workload w = new Workload(1, 5, 1, LengthDist.fixed(9000), LengthDist.fixed(10), 4);
        Comparison c = new Comparison(w, ModelShape.LLAMA_3_8B, gib(1), List.of(KvContender.paged(16), KvContender.buddy()));
        assertThat(c.run(true)).allSatisfy(r -> assertThat(r.rejected()).isEqualTo(5));
    }
}
