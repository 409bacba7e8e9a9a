package vramlab.alloc;

import static org.assertj.core.api.Assertions.assertThat;
import static vramlab.units.Bytes.mib;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import vramlab.driver.Gpu;

/**
 * {@code empty_cache} walks the pools' free sets, as PyTorch's {@code release_blocks} does,
 * and must release exactly what the plain rule says: every cudaMalloc segment that is one
 * free block, and nothing else.
 */
@DisplayName("empty_cache")
class EmptyCacheTest {

    @Nested
    @DisplayName("against the rule stated over segments")
    class AgainstTheSegmentRule {
        @ParameterizedTest(name = "policy [{0}] seed {1}")
        @CsvSource({"toy, 1", "toy, 2", "toy, 3", "'', 4", "'', 5", "max_split_size_mb:64, 6"})
        @DisplayName("releases exactly the segments that are one free block, and returns their bytes")
        void releasesExactlyTheWholeFreeSegments(String conf, long seed) {
            CachingAllocator a = new CachingAllocator(new Gpu(mib(512)).openToyProcess(),
                    conf.equals("toy") ? new ToyPolicy() : new PyTorchPolicy(conf));
            Random r = new Random(seed);
            List<Block> live = new ArrayList<>();
            for (int step = 0; step < 2000; step++) {
                if (r.nextInt(100) < 55 || live.isEmpty()) {
                    try {
                        live.add(a.alloc(1 + r.nextInt(r.nextBoolean() ? 1 << 20 : 24 << 20)));
                    } catch (CudaOutOfMemoryError e) {
                        continue;
                    }
                } else {
                    a.free(live.remove(r.nextInt(live.size())));
                }
                if (step % 97 == 0) emptyCacheMatchesTheRule(a);
            }
            for (Block b : live) a.free(b);
            emptyCacheMatchesTheRule(a);
            assertThat(a.reserved()).isZero();
        }

        private void emptyCacheMatchesTheRule(CachingAllocator a) {
            List<Integer> expectedGone = new ArrayList<>();
            long expectedBytes = 0;
            for (Segment s : a.segments()) {
                if (!s.isExpandable() && s.isEntirelyFree()) {
                    expectedGone.add(s.id());
                    expectedBytes += s.size();
                }
            }
            List<Integer> before = ids(a);
            long released = a.emptyCache();
            List<Integer> kept = new ArrayList<>(before);
            kept.removeAll(expectedGone);
            assertThat(released).as("bytes released; %s", a).isEqualTo(expectedBytes);
            assertThat(ids(a)).as("segments kept").containsExactlyElementsOf(kept);
            a.checkInvariants();
        }

        private List<Integer> ids(CachingAllocator a) {
            List<Integer> out = new ArrayList<>();
            for (Segment s : a.segments()) out.add(s.id());
            return out;
        }
    }

    @Nested
    @DisplayName("in PyTorch's order")
    class InPyTorchsOrder {
        @Test
        @DisplayName("cudaFrees the large pool's whole segments first, then the small pool's, each smallest first")
        void largeThenSmallEachInFreeSetOrder() {
            CachingAllocator a = new CachingAllocator(new Gpu(mib(1024)).openToyProcess(), new ToyPolicy());
            a.trace().record(true, 1000);
            List<Block> blocks = new ArrayList<>();
            for (long size : new long[] {mib(40), mib(1), mib(1), mib(22), mib(1), mib(1), mib(30)}) {
                blocks.add(a.alloc(size));           // two 2 MiB small segments, three large ones
            }
            a.alloc(mib(1));                         // a third small segment, which stays live
            for (Block b : blocks) a.free(b);
            List<Segment> expected = new ArrayList<>();
            for (PoolKind kind : List.of(PoolKind.LARGE, PoolKind.SMALL)) {
                a.segments().stream().filter(s -> s.pool() == kind && s.isEntirelyFree())
                        .sorted(Comparator.comparingLong(Segment::size).thenComparingLong(Segment::address))
                        .forEach(expected::add);
            }
            assertThat(expected).hasSize(5);
            a.emptyCache();
            List<Long> freed = a.trace().entries().stream()
                    .filter(e -> e.action() == DeviceTrace.Action.SEGMENT_FREE).map(DeviceTrace.Entry::addr).toList();
            assertThat(freed).containsExactlyElementsOf(expected.stream().map(Segment::address).toList());
        }
    }

    @Nested
    @DisplayName("beyond a few hundred free blocks")
    class Shortcut {
        /** Two allocators, the shortcut on in one and off in the other, fed the same calls. */
        final class Twins {
            final CachingAllocator fast;
            final CachingAllocator walk;
            final List<Block> liveFast = new ArrayList<>(), liveWalk = new ArrayList<>();

            Twins(String conf) {
                fast = allocator(conf);
                walk = allocator(conf);
                walk.fastRelease = false;
            }

            /** Allocates one random size in both (always when nothing is live), or frees the same random live block. */
            void allocOrFree(Random r, boolean alloc) {
                if (alloc || liveFast.isEmpty()) {
                    long size = 1 + r.nextInt(r.nextInt(4) == 0 ? 24 << 20 : 1 << 20);
                    liveFast.add(fast.alloc(size));
                    liveWalk.add(walk.alloc(size));
                } else {
                    int i = r.nextInt(liveFast.size());
                    fast.free(liveFast.remove(i));
                    walk.free(liveWalk.remove(i));
                }
            }

            void sameDriverCalls() {
                assertThat(fast.trace().entries()).as("the same driver calls in the same order")
                        .containsExactlyElementsOf(walk.trace().entries());
            }
        }

        @ParameterizedTest(name = "policy [{0}] seed {1}")
        @CsvSource({"toy, 1", "toy, 2", "'', 3", "max_split_size_mb:64, 4", "expandable_segments:True, 7", "expandable_segments:True, 8"})
        @DisplayName("releases what the walk of every free block releases, in the same order")
        void sameAsTheWalk(String conf, long seed) {
            Twins t = new Twins(conf);
            Random r = new Random(seed);
            int maxFree = 0;   // free blocks when empty_cache was called: above FULL_WALK_MAX, the shortcut runs
            for (int step = 0; step < 20_000; step++) {
                int op = r.nextInt(100);
                if (op < 2) {
                    maxFree = Math.max(maxFree, t.fast.freeBlocks(PoolKind.SMALL).size() + t.fast.freeBlocks(PoolKind.LARGE).size());
                    assertThat(t.fast.emptyCache()).as("bytes released at step %d", step).isEqualTo(t.walk.emptyCache());
                } else {
                    t.allocOrFree(r, op < 54);
                }
                if (step % 1000 == 0) t.fast.checkInvariants();
            }
            assertThat(maxFree).as("the shortcut was taken").isGreaterThan(WholeSegmentRelease.FULL_WALK_MAX);
            t.sameDriverCalls();
            t.fast.checkInvariants();
        }

        @ParameterizedTest(name = "policy [{0}] seed {1}")
        @CsvSource({"toy, 5", "'', 6"})
        @DisplayName("lists each block cached whole once: with nothing released, at most one entry per segment")
        void eachBlockOnce(String conf, long seed) {
            Twins t = new Twins(conf);
            Random r = new Random(seed);
            for (int step = 0; step < 12_000; step++) {
                t.allocOrFree(r, r.nextInt(100) < 52);
                assertThat(t.fast.wholeCached().size()).as("entries at step %d", step)
                        .isLessThanOrEqualTo(t.fast.segments().size());
                if (step % 500 == 0) t.fast.checkInvariants();   // includes: no block listed twice
            }
            assertThat(t.fast.emptyCache()).isEqualTo(t.walk.emptyCache());
            t.sameDriverCalls();
            assertThat(t.fast.wholeCached()).as("emptied by the release").isEmpty();
            t.fast.checkInvariants();
        }

        @Test
        @DisplayName("drops the entries no longer cached whole once the list outgrows twice the free blocks")
        void prunes() {
            CachingAllocator a = allocator("toy");
            int n = 2 * WholeSegmentRelease.FULL_WALK_MAX + 40;
            List<Block> live = new ArrayList<>();
            for (int i = 0; i < n; i++) live.add(a.alloc(mib(20)));      // a 20 MiB segment each, unsplit
            live.forEach(a::free);                                           // n blocks cached whole
            assertThat(a.wholeCached()).hasSize(n);
            live.clear();
            for (int i = 0; i < n; i++) live.add(a.alloc(mib(20)));      // taken again: listed, not whole
            assertThat(a.wholeCached()).as("nothing is added while nothing is cached").hasSize(n);
            Block fresh = a.alloc(mib(20));                                  // a new segment
            a.free(fresh);                                                   // n + 1 entries, 1 free block
            assertThat(a.wholeCached()).as("only the block still cached whole is left").containsExactly(fresh);
            a.checkInvariants();
            live.forEach(a::free);
            assertThat(a.emptyCache()).isEqualTo((n + 1) * mib(20));
            a.checkInvariants();
        }

        private CachingAllocator allocator(String conf) {
            CachingAllocator a = new CachingAllocator(new Gpu(mib(1 << 16)).openToyProcess(),
                    conf.equals("toy") ? new ToyPolicy() : new PyTorchPolicy(conf));
            a.trace().record(true, Long.MAX_VALUE);
            return a;
        }
    }
}
