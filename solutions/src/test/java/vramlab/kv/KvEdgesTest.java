package vramlab.kv;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static vramlab.units.Bytes.gib;
import static vramlab.units.Bytes.kib;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import vramlab.driver.Gpu;
import vramlab.driver.GpuProcess;

/**
 * The paged KV cache at its edges, from vLLM's v1 sources (vllm/v1/core/kv_cache_manager.py
 * {@code get_computed_blocks} and {@code allocate_slots}, vllm/v1/core/block_pool.py): the
 * prefix-cache hit stops one token short of the prompt ("we must recompute the last token to
 * obtain logits"), a hit that sits in the free queue costs a free block and one that another
 * request holds does not, and a request fits exactly when its blocks are free.
 */
@DisplayName("The paged KV cache at its edges")
class KvEdgesTest {
    static final int B = KvBlockPool.DEFAULT_BLOCK_SIZE;

    static KvCacheManager manager(int numBlocks) {
        return new KvCacheManager(new KvBlockPool(new Gpu(gib(1)).openToyProcess(), numBlocks, B, kib(64)));
    }

    /** Token ids {@code from, from + 1, ...}: n of them. */
    static List<Integer> tokens(int from, int n) {
        List<Integer> t = new ArrayList<>();
        for (int i = 0; i < n; i++) t.add(from + i);
        return t;
    }

    static List<Integer> concat(List<Integer> a, List<Integer> b) {
        List<Integer> out = new ArrayList<>(a);
        out.addAll(b);
        return out;
    }

    @Nested
    @DisplayName("prefix-cache hits")
    class Hits {
        @ParameterizedTest(name = "a second prompt of {0} tokens sharing the first 32 -> {1} cached tokens")
        @CsvSource({"32, 16", "33, 32", "48, 32", "49, 48"})
        @DisplayName("full blocks hit only up to prompt length - 1: the last token is always computed again")
        void lastTokenRecomputed(int length, long hitTokens) {
            KvCacheManager m = manager(16);
            List<Integer> shared = tokens(0, 32);
            assertThat(m.allocatePrompt("a", concat(shared, tokens(1000, 17)))).isTrue();   // caches blocks 1-3
            m.free("a");
            assertThat(m.allocatePrompt("b", concat(shared, tokens(1000, length - 32)))).isTrue();
            m.checkInvariants();
            assertThat(m.prefixHitTokens()).isEqualTo(hitTokens);
        }

        @Test
        @DisplayName("hits held by another request cost no free block; the request fits in the one left")
        void heldHitsAreFree() {
            KvCacheManager m = manager(5);                  // 4 usable blocks
            List<Integer> shared = tokens(0, 32);
            assertThat(m.allocatePrompt("a", concat(shared, List.of(7)))).isTrue();   // 3 blocks, 1 free
            assertThat(m.allocatePrompt("b", concat(shared, List.of(8)))).as("%s", m).isTrue();
            m.checkInvariants();
            assertThat(m.blocks("b").subList(0, 2)).isEqualTo(m.blocks("a").subList(0, 2));
            assertThat(m.pool().refCnt(m.blocks("a").get(0))).isEqualTo(2);
        }

        @Test
        @DisplayName("hits that wait in the free queue do cost a free block each")
        void queuedHitsCost() {
            KvCacheManager m = manager(5);
            List<Integer> shared = tokens(0, 32);
            assertThat(m.allocatePrompt("a", concat(shared, List.of(7)))).isTrue();   // blocks 1, 2 cached
            m.free("a");                                    // queue: 4, 3, 2, 1 (hashes kept)
            assertThat(m.allocateSlots("c", 32)).isTrue();  // takes 4 and 3
            assertThat(m.pool().numFreeBlocks()).isEqualTo(2);
            assertThat(m.allocatePrompt("b", concat(shared, List.of(8)))).as("2 queued hits + 1 new block > 2 free; %s",
                    m).isFalse();
            m.checkInvariants();
            assertThat(m.pool().numFreeBlocks()).isEqualTo(2);
            assertThat(m.pool().cachedBlocks()).as("the hashes are still there").isEqualTo(2);
        }

        @Test
        @DisplayName("a request fits exactly when its blocks are free, and not with one fewer")
        void exactFit() {
            KvCacheManager m = manager(4);                  // 3 usable
            assertThat(m.allocatePrompt("a", tokens(0, 48))).isTrue();
            m.free("a");
            KvCacheManager n = manager(3);                  // 2 usable
            assertThat(n.allocatePrompt("a", tokens(0, 48))).isFalse();
            assertThat(n.blocks("a")).isEmpty();
            assertThat(n.pool().numFreeBlocks()).isEqualTo(2);
            n.checkInvariants();
        }
    }

    @Nested
    @DisplayName("the pool")
    class Pool {
        @ParameterizedTest(name = "{0} blocks of {1} tokens, {2} B")
        @CsvSource({"1, 16, 65536", "2, 0, 65536", "2, 16, 0"})
        @DisplayName("needs two blocks (one is the null block), a positive block size and block bytes")
        void refused(int blocks, int size, long bytes) {
            GpuProcess p = new Gpu(gib(1)).openToyProcess();
            assertThatThrownBy(() -> new KvBlockPool(p, blocks, size, bytes))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("got " + blocks + ", " + size + ", " + bytes);
        }

        @Test
        @DisplayName("the smallest pool has one usable block; a block's address is base + id x block bytes")
        void smallest() {
            KvBlockPool pool = new KvBlockPool(new Gpu(gib(1)).openToyProcess(), 2, 1, 1);
            assertThat(pool.usableBlocks()).isEqualTo(1);
            KvBlockPool p = new KvBlockPool(new Gpu(gib(1)).openToyProcess(), 8, B, kib(64));
            assertThat(p.blockBytes()).isEqualTo(kib(64));
            assertThat(p.address(3)).isEqualTo(p.base() + 3 * kib(64));
            assertThat(p.base()).isPositive();
            assertThat(p.reserved()).isGreaterThanOrEqualTo(8 * kib(64));
        }

        @Test
        @DisplayName("freeing a block that is already free names it and changes nothing")
        void doubleFree() {
            KvBlockPool p = new KvBlockPool(new Gpu(gib(1)).openToyProcess(), 4, B, kib(64));
            int[] got = p.getNewBlocks(1);
            p.freeBlocks(List.of(got[0]));
            assertThatThrownBy(() -> p.freeBlocks(List.of(got[0])))
                    .hasMessageContaining("block " + got[0] + " is already free");
            assertThatThrownBy(() -> p.freeBlocks(List.of(0))).hasMessageContaining("null block");
            assertThat(p.numFreeBlocks()).isEqualTo(3);
            p.checkInvariants();
        }

        @Test
        @DisplayName("checkInvariants notices a free block that left the queue without a reference")
        void checkerNotices() {
            KvCacheManager m = manager(4);
            m.pool().freeQueue().remove(2);
            assertThatThrownBy(m::checkInvariants).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("block 2 refCnt 0 but not queued");
            assertThatThrownBy(m.pool()::checkInvariants).hasMessageContaining("block 2");
        }

        @Test
        @DisplayName("the queue refuses to prepend a block that is already in it, and prints front first")
        void queue() {
            FreeBlockQueue q = new FreeBlockQueue(3);
            assertThatThrownBy(() -> q.prepend(2)).hasMessageContaining("block 2 is already in the free queue");
            q.remove(1);
            q.prepend(1);
            assertThat(q).hasToString("[1, 0, 2]");
        }
    }

    @Test
    @DisplayName("the manager's books: requests, tokens and slots held, what fits now, and its map")
    void books() {
        KvCacheManager m = manager(6);                      // 5 usable
        m.allocateSlots("a", 17);                           // 2 blocks
        m.allocateSlots("b", 1);                            // 1 block
        assertThat(m.requests()).isEqualTo(2);
        assertThat(m.tokensHeld()).isEqualTo(18);
        assertThat(m.slotsHeld()).isEqualTo(3L * B);
        assertThat(m.largestServableTokens()).isEqualTo(2L * B);
        assertThat(m.map()).isEqualTo("a: [1, 2] (17 tokens)\nb: [3] (1 tokens)\nfree queue: [4, 5]\n");
        assertThat(m.toString()).isEqualTo(m.map());
    }
}
