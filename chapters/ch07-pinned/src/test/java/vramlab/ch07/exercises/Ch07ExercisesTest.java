package vramlab.ch07.exercises;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import vramlab.ch07.PinnedChapter;
import vramlab.ch07.TrainingLoop;
import vramlab.kit.Exercise;
import vramlab.units.Bytes;

/**
 * Chapter 7's homework: each answer the simulator computes matches a model of the rules written
 * here from scratch (power-of-two blocks, exact-size free lists, events, graphs, the cost
 * model's arithmetic), for many seeds; prompts never show the answer.
 */
@DisplayName("Chapter 7's exercises")
class Ch07ExercisesTest {
    static final long MiB = 1L << 20;

    /** The next power of two, by doubling (not the way the kit computes it). */
    static long round(long n) {
        long p = 1;
        while (p < n) p *= 2;
        return p;
    }

    @Test
    @DisplayName("are registered in the chapter, in the order the notes number them")
    void registered() {
        List<Exercise> ex = new PinnedChapter().exercises();
        assertThat(ex).hasSize(3);
        assertThat(ex.get(0)).isInstanceOf(PredictTheBlocks.class);
        assertThat(ex.get(1)).isInstanceOf(WhatEmptyHostCacheReturns.class);
        assertThat(ex.get(2)).isInstanceOf(HoldOrRepin.class);
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 7, 42, 1234})
    @DisplayName("are deterministic per seed and keep the answer out of the prompt")
    void deterministic(long seed) {
        for (Exercise e : new PinnedChapter().exercises()) {
            assertThat(e.prompt(seed)).isEqualTo(e.prompt(seed)).isNotBlank();
            assertThat(e.answer(seed)).isEqualTo(e.answer(seed)).isNotBlank();
            assertThat(e.prompt(seed)).doesNotContain("reused from", "still pinned:", "HOLD:   steady step");
        }
    }

    @Nested
    @DisplayName("1. Predict the blocks")
    class Blocks {
        @Test
        @DisplayName("every request's block, reuse, and the final counters match an exact-size free-list model")
        void matchesModel() {
            for (long seed = 0; seed < 200; seed++) {
                Map<Long, Integer> free = new HashMap<>();
                List<Long> live = new ArrayList<>(), sizes = new ArrayList<>();
                List<Boolean> reused = new ArrayList<>();
                long owned = 0, out = 0, calls = 0;
                for (PredictTheBlocks.Step s : PredictTheBlocks.steps(seed)) {
                    if (s.isPin()) {
                        long r = round(s.size());
                        boolean hit = free.getOrDefault(r, 0) > 0;
                        if (hit) free.merge(r, -1, Integer::sum);
                        else { owned += r; calls++; }
                        out += r;
                        live.add(r);
                        sizes.add(r);
                        reused.add(hit);
                    } else {
                        long r = live.remove(s.victim());
                        out -= r;
                        free.merge(r, 1, Integer::sum);
                    }
                }
                PredictTheBlocks.Outcome o = PredictTheBlocks.solve(seed);
                assertThat(o.blockSizes()).as("seed %d", seed).isEqualTo(sizes);
                assertThat(o.reused()).as("seed %d", seed).isEqualTo(reused);
                assertThat(new long[] {o.owned(), o.checkedOut(), o.hostAllocs()}).as("seed %d", seed)
                        .containsExactly(owned, out, calls);
                assertThat(new PredictTheBlocks().answer(seed)).contains(Bytes.readable(owned));
            }
        }

        @Test
        @DisplayName("some seeds reuse a block and some do not, so the question is never trivial")
        void variety() {
            long withReuse = java.util.stream.LongStream.range(0, 50)
                    .filter(s -> PredictTheBlocks.solve(s).reused().contains(true)).count();
            assertThat(withReuse).isBetween(5L, 45L);
        }
    }

    @Nested
    @DisplayName("2. What empty_host_cache() gives back")
    class EmptyCache {
        @Test
        @DisplayName("only deleted blocks whose events retired go back, at their rounded size")
        void matchesModel() {
            for (long seed = 0; seed < 200; seed++) {
                long released = 0, stays = 0;
                List<String> names = new ArrayList<>();
                for (WhatEmptyHostCacheReturns.Tensor t : WhatEmptyHostCacheReturns.tensors(seed)) {
                    switch (t.history()) {
                        case DELETED_UNUSED, COPIED_THEN_SYNCED -> released += round(t.size());
                        default -> { stays += round(t.size()); names.add(t.name()); }
                    }
                }
                WhatEmptyHostCacheReturns.Outcome o = WhatEmptyHostCacheReturns.solve(seed);
                assertThat(o.released()).as("seed %d released", seed).isEqualTo(released);
                assertThat(o.stillPinned()).as("seed %d still pinned", seed).isEqualTo(stays);
                assertThat(o.stillPinnedNames()).as("seed %d", seed).isEqualTo(names);
            }
        }

        @Test
        @DisplayName("every history occurs among the first seeds")
        void everyHistory() {
            var seen = java.util.EnumSet.noneOf(WhatEmptyHostCacheReturns.History.class);
            for (long seed = 0; seed < 10; seed++) {
                WhatEmptyHostCacheReturns.tensors(seed).forEach(t -> seen.add(t.history()));
            }
            assertThat(seen).containsExactlyInAnyOrder(WhatEmptyHostCacheReturns.History.values());
        }
    }

    @Nested
    @DisplayName("3. Hold or re-pin")
    class HoldRepin {
        @Test
        @DisplayName("the steady steps and whole runs are the cost model's arithmetic, worked by hand")
        void matchesArithmetic() {
            for (long seed = 0; seed < 30; seed++) {
                HoldOrRepin.Workload w = HoldOrRepin.workload(seed);
                long block = round(w.batch());
                long copy = 10_000 + (long) Math.ceil(w.batch() / 25.0);           // 25 GB/s = 25 B/ns
                long pin = 1_000_000 + block / MiB * 100_000;
                long unpin = 500_000 + block / MiB * 20_000;
                long held = 2_000_000 + copy + 40_000_000;
                TrainingLoop.Result hold = HoldOrRepin.run(seed, TrainingLoop.Strategy.HOLD);
                TrainingLoop.Result repin = HoldOrRepin.run(seed, TrainingLoop.Strategy.FREE_EVERY_STEP);
                assertThat(hold.steadyStepNanos()).as("seed %d held step", seed).isEqualTo(held);
                assertThat(hold.totalNanos()).as("seed %d held run", seed).isEqualTo(pin + w.steps() * held);
                assertThat(repin.steadyStepNanos()).as("seed %d re-pin step", seed).isEqualTo(held + pin + unpin);
                assertThat(repin.totalNanos()).as("seed %d re-pin run", seed)
                        .isEqualTo(w.steps() * (held + pin + unpin));
                assertThat(new long[] {hold.cudaHostAllocCalls(), repin.cudaHostAllocCalls()})
                        .containsExactly(1, w.steps());
            }
        }
    }
}
