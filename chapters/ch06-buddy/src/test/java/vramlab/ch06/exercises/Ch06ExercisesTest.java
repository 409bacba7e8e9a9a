package vramlab.ch06.exercises;

import static org.assertj.core.api.Assertions.assertThat;
import static vramlab.units.Bytes.mib;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.LongStream;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import vramlab.ch06.BuddyChapter;

/**
 * Each exercise's answer, replayed on the reference simulators, agrees with a model written here
 * from the rules the notes state, seed by seed: a bitmap of 1 MiB units whose free blocks are the
 * largest aligned free runs (eager merging), lowest address first within the smallest order that
 * fits; and ceil(tokens / 16) blocks taken all or nothing from a pool whose block 0 is reserved.
 */
@DisplayName("chapter 6's exercises")
class Ch06ExercisesTest {
    static LongStream seeds() { return LongStream.rangeClosed(1, 40); }

    /** The buddy pool as 16 units of 1 MiB: 0 free, otherwise the owner's number + 1. */
    static final class Bitmap {
        static final int UNITS = 16, MAX = 4;
        final int[] owner = new int[UNITS];

        boolean isFree(int start, int order) {
            for (int u = start; u < start + (1 << order); u++) if (owner[u] != 0) return false;
            return true;
        }

        /** Free blocks per order: aligned free runs whose parent is not wholly free. */
        long[] counts() {
            long[] n = new long[MAX + 1];
            for (int o = 0; o <= MAX; o++) {
                for (int a = 0; a < UNITS; a += 1 << o) {
                    boolean parentFree = o < MAX && isFree(a & ~(1 << o), o + 1);
                    if (isFree(a, o) && !parentFree) n[o]++;
                }
            }
            return n;
        }

        int lowestFree(int order) {
            for (int a = 0; a < UNITS; a += 1 << order) {
                boolean parentFree = order < MAX && isFree(a & ~(1 << order), order + 1);
                if (isFree(a, order) && !parentFree) return a;
            }
            return -1;
        }

        /** Offset in units, or -1 when no free block is large enough. */
        int alloc(long bytes, int id) {
            int order = 0;
            while ((1L << order) * mib(1) < bytes) order++;
            for (int o = order; o <= MAX; o++) {
                int a = lowestFree(o);
                if (a >= 0) {
                    Arrays.fill(owner, a, a + (1 << order), id + 1);
                    return a;
                }
            }
            return -1;
        }

        void free(int id) {
            for (int u = 0; u < UNITS; u++) if (owner[u] == id + 1) owner[u] = 0;
        }

        /** Replays the steps; returns each allocation's offset in bytes, or -1. */
        List<Long> run(List<BuddyRun.Step> steps) {
            List<Long> offsets = new ArrayList<>();
            List<Integer> live = new ArrayList<>();
            for (BuddyRun.Step s : steps) {
                if (s.isAlloc()) {
                    int id = offsets.size();
                    int a = alloc(s.size(), id);
                    offsets.add(a < 0 ? -1L : a * mib(1));
                    live.add(a < 0 ? -1 : id);
                } else {
                    int id = live.remove(s.victim());
                    if (id >= 0) free(id);
                }
            }
            return offsets;
        }
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    @DisplayName("the chapter lists its three exercises, each with a prompt and an answer")
    void registered(long seed) {
        var all = new BuddyChapter().exercises();
        assertThat(all).hasSize(3);
        for (var e : all) {
            assertThat(e.prompt(seed)).isNotBlank().doesNotContainIgnoringCase("seed");
            assertThat(e.answer(seed)).isNotBlank();
        }
    }

    @Nested
    @DisplayName("1. predict the buddy blocks: offsets and buddyinfo")
    class Blocks {
        @ParameterizedTest(name = "seed {0}")
        @MethodSource("vramlab.ch06.exercises.Ch06ExercisesTest#seeds")
        @DisplayName("every allocation's offset and the free counts per order match the bitmap model")
        void matchesModel(long seed) {
            List<BuddyRun.Step> steps = PredictTheBuddyBlocks.steps(seed);
            Bitmap model = new Bitmap();
            List<Long> offsets = model.run(steps);
            BuddyRun.Replay real = BuddyRun.replay(steps);
            assertThat(real.offsets()).isEqualTo(offsets);
            assertThat(real.pool().freeCounts()).containsExactly(model.counts());
            assertThat(new PredictTheBuddyBlocks().answer(seed)).contains(real.pool().buddyinfo());
        }
    }

    @Nested
    @DisplayName("2. half free yet refused: free bytes, largest request, unusable index, compaction")
    class Capacity {
        @ParameterizedTest(name = "seed {0}")
        @MethodSource("vramlab.ch06.exercises.Ch06ExercisesTest#seeds")
        @DisplayName("all four answers match the bitmap model")
        void matchesModel(long seed) {
            Bitmap model = new Bitmap();
            model.run(HalfFreeYetRefused.steps(seed));
            long[] n = model.counts();
            long freeUnits = 0, suitableUnits = 0;
            int largest = -1;
            for (int o = 0; o <= Bitmap.MAX; o++) {
                freeUnits += n[o] << o;
                if (o >= 2) suitableUnits += n[o] << o;
                if (n[o] > 0) largest = o;
            }
            long used = Bitmap.UNITS - freeUnits;
            long afterCompaction = 0;
            for (int o = Bitmap.MAX; o >= 0 && afterCompaction == 0; o--) {
                long start = (used + (1L << o) - 1) / (1L << o) * (1L << o);
                if (start + (1L << o) <= Bitmap.UNITS) afterCompaction = (1L << o) * mib(1);
            }
            HalfFreeYetRefused.Capacity c = HalfFreeYetRefused.capacity(seed);
            assertThat(c.free()).isEqualTo(freeUnits * mib(1));
            assertThat(c.largestNow()).isEqualTo(largest < 0 ? 0 : (1L << largest) * mib(1));
            assertThat(c.unusable4MiB()).isEqualTo(freeUnits == 0 ? 1000 : (int) ((freeUnits - suitableUnits) * 1000 / freeUnits));
            assertThat(c.largestAfterCompaction()).isEqualTo(afterCompaction);
        }
    }

    @Nested
    @DisplayName("3. count the paged blocks: ceil(tokens / 16), all or nothing, block 0 reserved")
    class Paged {
        @ParameterizedTest(name = "seed {0}")
        @MethodSource("vramlab.ch06.exercises.Ch06ExercisesTest#seeds")
        @DisplayName("blocks, refusals, unfilled slots and free blocks match the arithmetic")
        void matchesModel(long seed) {
            int free = CountThePagedBlocks.numBlocks(seed) - 1;
            List<Integer> blocks = new ArrayList<>();
            List<Boolean> admitted = new ArrayList<>();
            long unfilled = 0;
            for (long t : CountThePagedBlocks.prompts(seed)) {
                int need = (int) ((t + 15) / 16);
                boolean ok = need <= free;
                admitted.add(ok);
                blocks.add(ok ? need : 0);
                if (ok) {
                    free -= need;
                    unfilled += need * 16L - t;
                }
            }
            CountThePagedBlocks.Outcome o = CountThePagedBlocks.outcome(seed);
            assertThat(o.admitted()).isEqualTo(admitted);
            assertThat(o.blocks()).isEqualTo(blocks);
            assertThat(o.slotsHeld() - o.tokensHeld()).isEqualTo(unfilled);
            assertThat(o.freeLeft()).isEqualTo(free);
            assertThat(new CountThePagedBlocks().answer(seed)).contains(unfilled + " unfilled; " + free + " block(s) free");
        }
    }
}
