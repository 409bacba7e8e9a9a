package vramlab.ch06;

import static org.assertj.core.api.Assertions.assertThat;
import static vramlab.units.Bytes.gib;
import static vramlab.units.Bytes.kib;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import vramlab.buddy.BuddyAllocator;
import vramlab.driver.Gpu;
import vramlab.kv.KvBlockPool;
import vramlab.kv.KvCacheManager;
import vramlab.quiz.Graded;

/** The quiz's keys, each checked against what the simulators do. */
@DisplayName("ch06 quiz keys")
class QuizTest {

    static Quiz.Question q(String id) {
        return Quiz.QUESTIONS.stream().filter(x -> x.id().equals(id)).findFirst().orElseThrow();
    }

    @Test
    @Graded(step = "q6.1", points = 1)
    @Timeout(value = 10, unit = TimeUnit.SECONDS)
    @DisplayName("q6.1: half of a checkerboarded pool is free and only one unit can be served")
    void checkerboard() {
        BuddyAllocator b = BuddyAllocator.upfront(new Gpu(gib(1)).openToyProcess(), 16, 0, 4);
        List<Long> units = new ArrayList<>();
        for (int i = 0; i < 16; i++) units.add(b.alloc(1));
        for (int i = 0; i < 16; i += 2) b.free(units.get(i));
        assertThat(q("q6.1").key()).as(b.map()).isEqualTo(b.largestFreeBlock() + " unit");
    }

    @Test
    @Graded(step = "q6.2", points = 1)
    @Timeout(value = 10, unit = TimeUnit.SECONDS)
    @DisplayName("q6.2: the buddy of page 8 at order 1 is one XOR away")
    void buddy() {
        assertThat(q("q6.2").key()).isEqualTo(Long.toString(BuddyAllocator.buddyOf(8, 1)));
    }

    @Test
    @Graded(step = "q6.3", points = 1)
    @Timeout(value = 10, unit = TimeUnit.SECONDS)
    @DisplayName("q6.3: a 17-token sequence holds two 16-token blocks")
    void seventeenTokens() {
        KvCacheManager kv = new KvCacheManager(new KvBlockPool(new Gpu(gib(1)).openToyProcess(), 8, 16, kib(64)));
        kv.allocateSlots("r", 17);
        assertThat(q("q6.3").key()).as(kv.map()).isEqualTo(Integer.toString(kv.blocks("r").size()));
    }

    @Test
    @Graded(step = "q6.4", points = 1)
    @Timeout(value = 10, unit = TimeUnit.SECONDS)
    @DisplayName("q6.4: a binary buddy wastes about a quarter under uniform sizes")
    void quarter() {
        double waste = ReferencePoints.buddyWaste(10, 50_000, 4);
        Quiz.Question q = q("q6.4");
        int nearest = 0;
        for (int i = 0; i < q.choices().size(); i++) {
            if (Math.abs(percent(q.choices().get(i)) - 100 * waste) < Math.abs(percent(q.choices().get(nearest)) - 100 * waste)) {
                nearest = i;
            }
        }
        assertThat(q.answer()).as("measured waste " + waste).isEqualTo(nearest);
    }

    private static double percent(String choice) {
        return Double.parseDouble(choice.replaceAll("[^0-9.]", ""));
    }

    @Test
    @Graded(step = "q6.5", points = 1)
    @Timeout(value = 10, unit = TimeUnit.SECONDS)
    @DisplayName("q6.5: of 10 blocks, the null block leaves 9 for requests")
    void nullBlock() {
        KvBlockPool pool = new KvBlockPool(new Gpu(gib(1)).openToyProcess(), 10, 16, kib(64));
        assertThat(q("q6.5").key()).isEqualTo(Integer.toString(pool.numFreeBlocks()));
    }

    @Test
    @Graded(step = "q6.6", points = 1)
    @Timeout(value = 10, unit = TimeUnit.SECONDS)
    @DisplayName("q6.6: paged blocks never wait with enough bytes free, on a real workload")
    void pagedNeverWaitsWithFreeBytes() {
        Workload w = new Workload(3, 60, 0.3, LengthDist.uniform(32, 512), LengthDist.uniform(16, 256), 32);
        Result paged = new Comparison(w, ModelShape.LLAMA_3_8B, gib(1), List.of(KvContender.paged(16))).run(false).get(0);
        assertThat(paged.admissionFailures()).as("the workload must put the pool under pressure").isPositive();
        assertThat(paged.failuresWithEnoughFree()).isZero();
        assertThat(q("q6.6").key()).contains("any free block");
    }

    @Test
    @Graded(step = "q6.7", points = 1)
    @Timeout(value = 10, unit = TimeUnit.SECONDS)
    @DisplayName("q6.7: Llama-3-8B keeps 128 KiB of KV per token in bf16")
    void llama3() {
        assertThat(q("q6.7").key()).isEqualTo(ModelShape.LLAMA_3_8B.kvBytesPerToken() / 1024 + " KiB");
    }
}
