package vramlab.alloc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import vramlab.ch03.Ch03Feedback;

/**
 * What the steps-on-their-own tests of chapter 3 say to a wrong body: the call as it was made,
 * and enough of the free set to check the hint. The kit's own test (the release leaves it out):
 * it runs the tests' checks on wrong bodies of steps 3.2 and 3.4.
 */
@DisplayName("chapter 3's steps on their own describe a wrong body's call as it was made")
class StepsInIsolationFeedbackTest {

    @Test
    @DisplayName("3.4 merged on one side only: the freed block as it was, and the hint says one side")
    void mergeOneSideOnly() {
        Throwable t = catchThrowable(() -> StepsInIsolationTest.mergeBothSides((block, pool) -> {
            if (CachingAllocator.canMerge(block.next, block)) {
                Block next = block.next;
                pool.remove(next);
                block.size += next.size;
                block.next = next.next;
                if (next.next != null) next.next.prev = block;
            }
            return block;                                 // the left neighbour forgotten
        }));
        assertThat(t).isInstanceOf(AssertionError.class);
        assertThat(t.getMessage())
                .startsWith("mergeWithNeighbours(seg0[8..10)M 2M FREE) in seg0[0..2)M 2M LIVE seg0[2..8)M 6M FREE"
                        + " seg0[8..10)M 2M FREE seg0[10..14)M 4M FREE seg0[14..20)M 6M LIVE:")
                .contains("expected seg0 2M+12M but was seg0 8M+6M")
                .contains("Looks like: merged with one side only.");
    }

    @Test
    @DisplayName("3.2 taking another stream's block: the listing shows each free block's stream")
    void findShowsStreams() {
        Throwable t = catchThrowable(() -> StepsInIsolationTest.bestFit((pool, stream, rounded) ->
                pool.stream().filter(b -> b.size() >= rounded).findFirst().orElse(null)));
        assertThat(t).isInstanceOf(AssertionError.class);
        assertThat(t.getMessage())
                .startsWith("findFreeBlock(pool, stream 1, 1 MiB) over [seg0[10..14)M 4M FREE stream 0,")
                .contains("Looks like: another stream's block.");
    }

    @Test
    @DisplayName("3.3: the call names the remainder, and a size just under 2 MiB does not read as 2.00 MiB")
    void splitNamesTheRemainder() {
        assertThat(new Ch03Feedback.Split(PoolKind.SMALL, 2L << 20, (2L << 20) - 512).toString())
                .isEqualTo("shouldSplit(SMALL, 2 MiB, 2 MiB - 512 B) with a remainder of 512 B");
    }
}
