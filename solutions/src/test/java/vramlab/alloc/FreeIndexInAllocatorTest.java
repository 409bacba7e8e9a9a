package vramlab.alloc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static vramlab.units.Bytes.mib;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

import vramlab.driver.Gpu;

/**
 * The allocator's free sets are {@link FreeSet}s: after every alloc and free of a seeded random
 * run, each pool's free set lists exactly the cached blocks found by walking the segments,
 * sorted as PyTorch sorts them, and checkInvariants notices a cached block whose key changed.
 */
@DisplayName("The allocator's free index")
class FreeIndexInAllocatorTest {
    private static CachingAllocator allocator(String policy) {
        Policy p = switch (policy) {
            case "toy" -> new ToyPolicy();
            case "pytorch" -> new PyTorchPolicy();
            default -> new PyTorchPolicy("expandable_segments:True");
        };
        return new CachingAllocator(new Gpu(mib(4096)).openToyProcess(), p);
    }

    /** The cached blocks of one pool, by walking every segment, in (stream, size, address) order. */
    private static List<Block> walked(CachingAllocator a, PoolKind pool) {
        List<Block> out = new ArrayList<>();
        for (Segment s : a.segments()) {
            for (Block b = s.first; b != null; b = b.next) {
                if (s.pool == pool && !b.allocated && b.mapped && b.eventCount == 0) out.add(b);
            }
        }
        out.sort(FreeSet.BY_STREAM_SIZE_ADDRESS);
        return out;
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"toy", "pytorch", "pytorch+expandable"})
    @DisplayName("after every step of a random run, each free set is the walked free blocks in PyTorch's order")
    void freeSetsMatchTheSegments(String policy) {
        CachingAllocator a = allocator(policy);
        SplittableRandom r = new SplittableRandom(policy.length());
        List<Block> live = new ArrayList<>();
        for (int i = 0; i < 700; i++) {
            if (live.isEmpty() || r.nextInt(10) < 6) {
                long size = r.nextInt(4) == 0 ? mib(1) + r.nextLong(mib(30)) : 1 + r.nextLong(mib(1));
                live.add(a.alloc(size, r.nextInt(8) == 0 ? 1 : 0));
            } else {
                a.free(live.remove(r.nextInt(live.size())));
            }
            if (i % 200 == 199) a.emptyCache();
            if (i % 20 == 0) {
                a.checkInvariants();
                for (PoolKind k : PoolKind.values()) {
                    assertThat(a.freeBlocks(k)).as("%s free set after step %d", k, i)
                            .containsExactlyElementsOf(walked(a, k));
                }
            }
        }
    }

    @Test
    @DisplayName("a cached block resized in place, its neighbour moved to keep the tiling, is noticed")
    void keyChangedWhileCached() {
        CachingAllocator a = allocator("pytorch");
        Block keep = a.alloc(mib(3));
        a.free(a.alloc(mib(5)));
        a.checkInvariants();
        Block cached = a.freeBlocks(PoolKind.LARGE).get(0);
        assertThat(cached.prev).isSameAs(keep);
        keep.size += mib(1);                                // as a bug resizing a cached block would
        cached.moveTo(cached.offset + mib(1));
        cached.size -= mib(1);
        assertThatThrownBy(a::checkInvariants).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining(cached.toString());
    }
}
