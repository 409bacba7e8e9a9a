package vramlab.kv;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static vramlab.units.Bytes.gib;
import static vramlab.units.Bytes.kib;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import vramlab.driver.Gpu;
import vramlab.driver.GpuProcess;

class KvCacheManagerTest {

    static KvCacheManager manager(int numBlocks) {
        GpuProcess p = new Gpu(gib(8)).openToyProcess();
        return new KvCacheManager(new KvBlockPool(p, numBlocks, KvBlockPool.DEFAULT_BLOCK_SIZE, kib(128) * 16));
    }

    @Nested
    @DisplayName("the free queue")
    class Queue {
        @ParameterizedTest(name = "seed {0}")
        @ValueSource(longs = {1, 2, 3})
        @DisplayName("behaves as a linked list under random pops, appends, prepends and removes")
        void againstLinkedList(long seed) {
            Random rnd = new Random(seed);
            FreeBlockQueue q = new FreeBlockQueue(50);
            LinkedList<Integer> model = new LinkedList<>();
            for (int i = 0; i < 50; i++) model.add(i);
            List<Integer> out = new ArrayList<>();
            for (int step = 0; step < 5000; step++) {
                int op = rnd.nextInt(4);
                if (op == 0 && !model.isEmpty()) out.add(assertPop(q, model));
                else if (op == 1 && !out.isEmpty()) { int id = out.remove(rnd.nextInt(out.size())); q.append(id); model.addLast(id); }
                else if (op == 2 && !out.isEmpty()) { int id = out.remove(rnd.nextInt(out.size())); q.prepend(id); model.addFirst(id); }
                else if (op == 3 && !model.isEmpty()) {
                    Integer id = model.get(rnd.nextInt(model.size()));
                    q.remove(id); model.remove(id); out.add(id);
                }
                q.checkInvariants();
                assertThat(q.toList()).as("step " + step).isEqualTo(model);
            }
        }

        private int assertPop(FreeBlockQueue q, LinkedList<Integer> model) {
            int id = q.popLeft();
            assertThat(id).isEqualTo(model.removeFirst());
            return id;
        }

        @Test
        @DisplayName("refuses to queue a block twice or remove one that is not queued")
        void misuse() {
            FreeBlockQueue q = new FreeBlockQueue(3);
            assertThatThrownBy(() -> q.append(1)).hasMessageContaining("block 1 is already");
            q.remove(1);
            assertThatThrownBy(() -> q.remove(1)).hasMessageContaining("remove(1)");
        }
    }

    @Nested
    @DisplayName("the pool and the block tables: ceil(n / 16) blocks, block 0 the null block (vLLM v1 kv_cache_manager.py, block_pool.py)")
    class Tables {
        @ParameterizedTest(name = "{0} tokens -> {1} blocks")
        @CsvSource(textBlock = """
                1,  1
                16, 1
                17, 2
                32, 2
                33, 3
                """)
        @DisplayName("a request of n tokens needs ceil(n / 16) blocks")
        void cdiv(long tokens, int blocks) {
            assertThat(manager(10).blocksNeeded(tokens)).isEqualTo(blocks);
        }

        @Test
        @DisplayName("block 0 is the null block: of N blocks only N - 1 can be handed out")
        void nullBlock() {
            KvCacheManager m = manager(5);
            assertThat(m.allocateSlots("a", 4 * 16)).isTrue();
            assertThat(m.blocks("a")).containsExactly(1, 2, 3, 4);
            assertThat(m.allocateSlots("b", 1)).isFalse();
            m.checkInvariants();
        }

        @Test
        @DisplayName("a request that needs more blocks than are free gets none, never a part")
        void allOrNothing() {
            KvCacheManager m = manager(5);
            assertThat(m.allocateSlots("a", 40)).isTrue();     // 3 blocks, 1 left
            assertThat(m.allocateSlots("b", 17)).isFalse();    // needs 2
            assertThat(m.blocks("b")).isEmpty();
            assertThat(m.pool().numFreeBlocks()).isEqualTo(1);
            assertThat(m.allocateSlots("a", 8)).isTrue();      // 48 tokens still fit in 3 blocks
            assertThat(m.allocateSlots("a", 1)).isTrue();      // the 49th takes the last block
            m.checkInvariants();
        }

        @Test
        @DisplayName("freeing in reverse puts the request's blocks, last first, at the front (no hashes)")
        void reverseFree() {
            KvCacheManager m = manager(8);
            m.allocateSlots("a", 3 * 16);                      // blocks 1, 2, 3
            m.allocateSlots("b", 16);                          // block 4; free queue 5, 6, 7
            m.free("a");
            // free_blocks at c59cb794: blocks without a hash are prepend_n'ed, in the order freed
            assertThat(m.pool().freeQueue().toList()).containsExactly(3, 2, 1, 5, 6, 7);
            m.checkInvariants();
            assertThatThrownBy(() -> m.free("a")).hasMessageContaining("free(a)");
        }

        @ParameterizedTest(name = "seed {0}")
        @ValueSource(longs = {11, 12, 13})
        @DisplayName("agrees with a counting model on seeded random growth and frees")
        void seededRandom(long seed) {
            Random rnd = new Random(seed);
            KvCacheManager m = manager(64);
            Map<String, Long> model = new HashMap<>();
            int freeModel = 63;
            for (int step = 0; step < 4000; step++) {
                String r = "r" + rnd.nextInt(12);
                if (model.containsKey(r) && rnd.nextInt(10) == 0) {
                    freeModel += (int) ((model.remove(r) + 15) / 16);
                    m.free(r);
                } else {
                    long have = model.getOrDefault(r, 0L), add = 1 + rnd.nextInt(40);
                    int need = (int) ((have + add + 15) / 16 - (have + 15) / 16);
                    boolean ok = need <= freeModel;
                    assertThat(m.allocateSlots(r, add)).as("step " + step + "\n" + m).isEqualTo(ok);
                    if (ok) { model.put(r, have + add); freeModel -= need; }
                }
                m.checkInvariants();
                assertThat(m.pool().numFreeBlocks()).isEqualTo(freeModel);
            }
        }

        @Test
        @DisplayName("the pool is one cudaMalloc of all its blocks, made at start-up")
        void oneCudaMalloc() {
            GpuProcess p = new Gpu(gib(8)).openToyProcess();
            KvBlockPool pool = new KvBlockPool(p, 100, 16, kib(2048));
            assertThat(p.cudaMallocCalls()).isEqualTo(1);
            assertThat(pool.reserved()).isEqualTo(100 * kib(2048));
        }
    }

    @Nested
    @DisplayName("prefix caching (vLLM's get_computed_blocks, touch and eviction)")
    class PrefixCaching {
        List<Integer> prompt(int family, int length) {
            List<Integer> t = new ArrayList<>();
            for (int i = 0; i < length; i++) t.add(family * 100_000 + i);
            return t;
        }

        @Test
        @DisplayName("a second request with the same prompt shares its full blocks and computes the rest")
        void sharing() {
            KvCacheManager m = manager(10);
            assertThat(m.allocatePrompt("a", prompt(1, 40))).isTrue();    // 2 full blocks + 1 partial
            assertThat(m.allocatePrompt("b", prompt(1, 40))).isTrue();
            assertThat(m.blocks("b").subList(0, 2)).isEqualTo(m.blocks("a").subList(0, 2));
            assertThat(m.blocks("b").get(2)).isNotEqualTo(m.blocks("a").get(2));
            assertThat(m.pool().refCnt(m.blocks("a").get(0))).isEqualTo(2);
            assertThat(m.blocksInUse()).isEqualTo(4);
            assertThat(m.prefixHitTokens()).isEqualTo(32);
            m.checkInvariants();
        }

        @Test
        @DisplayName("a hit never covers the whole prompt: at least one token is computed again")
        void lastTokenRecomputed() {
            KvCacheManager m = manager(10);
            m.allocatePrompt("a", prompt(1, 32));
            m.allocatePrompt("b", prompt(1, 32));
            assertThat(m.prefixHitTokens()).isEqualTo(16);
            assertThat(m.blocks("b").get(1)).isNotEqualTo(m.blocks("a").get(1));
            m.checkInvariants();
        }

        @Test
        @DisplayName("freed cached blocks stay findable in the free queue until reused, then are evicted")
        void cachedUntilReused() {
            KvCacheManager m = manager(6);                                // 5 usable blocks
            m.allocatePrompt("a", prompt(1, 40));
            m.free("a");
            assertThat(m.pool().cachedBlocks()).isEqualTo(2);
            assertThat(m.allocatePrompt("b", prompt(1, 40))).isTrue();    // hits both from the queue
            assertThat(m.prefixHitTokens()).isEqualTo(32);
            m.free("b");
            assertThat(m.allocatePrompt("c", prompt(2, 5 * 16))).isTrue(); // needs all 5: evicts both
            assertThat(m.pool().cachedBlocks()).isEqualTo(5);              // c's five full blocks
            assertThat(m.pool().evictions()).isEqualTo(2);
            m.checkInvariants();
        }

        @Test
        @DisplayName("freed blocks without a hash go to the front, cached ones to the back of the queue")
        void freshFrontCachedBack() {
            KvCacheManager m = manager(8);
            m.allocatePrompt("a", prompt(1, 40));                         // 1, 2 full and cached; 3 partial
            m.free("a");                                                  // freed as 3, 2, 1
            assertThat(m.pool().freeQueue().toList()).containsExactly(3, 4, 5, 6, 7, 2, 1);
            assertThat(m.allocateSlots("x", 1)).isTrue();
            assertThat(m.blocks("x")).as("the fresh block is reused first").containsExactly(3);
            assertThat(m.pool().cachedBlocks()).isEqualTo(2);
            m.checkInvariants();
        }

        @Test
        @DisplayName("a prompt that does not fit takes nothing, not even a reference to its hits")
        void allOrNothingWithHits() {
            KvCacheManager m = manager(5);                                // 4 usable blocks
            m.allocatePrompt("a", prompt(1, 40));                         // 3 blocks
            m.free("a");
            String before = m.pool().freeQueue().toString();
            assertThat(m.allocatePrompt("b", prompt(1, 100))).isFalse();  // 2 hits + 5 fresh > 4
            assertThat(m.pool().freeQueue().toString()).isEqualTo(before);
            assertThat(m.blocks("b")).isEmpty();
            m.checkInvariants();
        }

        @ParameterizedTest(name = "seed {0}")
        @ValueSource(longs = {31, 32})
        @DisplayName("keeps its invariants under seeded random prompts from a few families, growth and frees")
        void seededRandom(long seed) {
            Random rnd = new Random(seed);
            KvCacheManager m = manager(40);
            List<String> live = new ArrayList<>();
            for (int step = 0; step < 2000; step++) {
                int op = rnd.nextInt(3);
                if (op == 0) {
                    String r = "r" + step;
                    if (m.allocatePrompt(r, prompt(rnd.nextInt(3), 1 + rnd.nextInt(120)))) live.add(r);
                } else if (op == 1 && !live.isEmpty()) {
                    m.allocateSlots(live.get(rnd.nextInt(live.size())), 1 + rnd.nextInt(20));
                } else if (!live.isEmpty()) {
                    m.free(live.remove(rnd.nextInt(live.size())));
                }
                m.checkInvariants();
            }
            assertThat(m.prefixHitTokens()).isPositive();
        }
    }
}
