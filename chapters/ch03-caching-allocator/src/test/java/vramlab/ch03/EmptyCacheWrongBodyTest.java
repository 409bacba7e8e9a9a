package vramlab.ch03;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.Field;
import java.lang.reflect.Method;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import vramlab.alloc.Block;
import vramlab.alloc.CachingAllocator;
import vramlab.alloc.PoolKind;
import vramlab.alloc.Sim;

/**
 * Step 3.5's test against a wrong body a student wrote: "whole" taken as "no block before it"
 * ({@code b.prev() == null}), forgetting the block after it. It earned both points while the
 * test's only live segment had its live block first. The kit's own test (the release leaves it
 * out); the wrong body reaches the allocator's private parts by reflection, as a student's
 * {@code CacheRelease} reaches them directly.
 */
@DisplayName("step 3.5's test catches a release of a segment whose live block comes after a free one")
class EmptyCacheWrongBodyTest {

    /** A wrong {@code releaseWholeFreeSegments}: releases every free block with no previous neighbour. */
    static long prevOnly(Sim sim) {
        try {
            CachingAllocator allocator = sim.allocator();
            Field f = CachingAllocator.class.getDeclaredField("release");
            f.setAccessible(true);
            Object release = f.get(allocator);
            Method releaseBlock = release.getClass().getDeclaredMethod("releaseBlock", Block.class);
            releaseBlock.setAccessible(true);
            long released = 0;
            for (PoolKind kind : new PoolKind[] {PoolKind.LARGE, PoolKind.SMALL}) {
                for (Block b : allocator.freeBlocks(kind)) {
                    if (!b.segment().isExpandable() && b.prev() == null) {
                        released += b.size();
                        releaseBlock.invoke(release, b);
                    }
                }
            }
            return released;
        } catch (java.lang.reflect.InvocationTargetException e) {
            throw (RuntimeException) e.getCause();
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    @DisplayName("b.prev() == null for a whole segment loses step 3.5's points")
    void prevOnlyFails() {
        assertThatThrownBy(() -> CachingAllocatorStepsTest.EmptyCache.releasesWholeFreeSegmentsOnly(
                EmptyCacheWrongBodyTest::prevOnly))
                .hasMessageContaining("not a whole free cudaMalloc segment");
    }
}
