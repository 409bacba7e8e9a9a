package vramlab.gmmu;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.SplittableRandom;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import vramlab.units.Bytes;

/**
 * What a cudaMalloc page costs the pool, counted in the words its maps read, on a full 1 TiB card
 * through a long churn of pages: at most a constant times log2 of the pages live, where the plain
 * bitmap the pool searched before ({@link ScanGranules}, kept here as the reference of that cost)
 * read every word from its lowest free granule up. Words, not time: the test cannot time out on
 * a fast machine, and fails on a search whose cost grows with the card or the history.
 */
@DisplayName("The pool's cost per cudaMalloc page")
class PhysicalPoolCostTest {
    static final long PAGE = PhysicalPool.GRANULE * PhysicalPool.FRAME;
    static final double LOG_FACTOR = 2;

    /**
     * The granule search as the pool did it before the summaries: a plain bitmap and a hint below
     * which no granule is free, moved up by the search and down by a release. {@code words}
     * counts the words {@link BitSet#nextClearBit} reads, from the hint's word to the answer's.
     */
    static final class ScanGranules {
        final BitSet busy = new BitSet();
        int lowestFree;
        long words;

        int take() {
            int g = busy.nextClearBit(lowestFree);
            words += g / 64 - lowestFree / 64 + 1;
            lowestFree = g;
            busy.set(g);
            return g;
        }

        void release(int g) {
            busy.clear(g);
            lowestFree = Math.min(lowestFree, g);
        }
    }

    @Test
    @DisplayName("reads O(log n) words per page through a churn of 100k live pages on 1 TiB, as the scan does not")
    void logarithmicOnAFullCard() {
        PhysicalPool pool = new PhysicalPool(0, Bytes.TiB);
        ScanGranules scan = new ScanGranules();
        SplittableRandom r = new SplittableRandom(38);
        List<Long> live = new ArrayList<>();
        double worstRatio = 0;
        double worstScanRatio = 0;
        long worst = 0;
        long worstScan = 0;
        for (int i = 0; i < 300_000; i++) {
            boolean grow = live.size() < 100_000 ? r.nextInt(10) < 8 : r.nextInt(10) < 5;
            if (grow || live.isEmpty()) {
                long steps = pool.searchSteps();
                long words = scan.words;
                long at = pool.allocate(PAGE, PAGE, i);
                assertThat(at).as("page %d", i).isEqualTo(scan.take() * PAGE);
                live.add(at);
                long cost = pool.searchSteps() - steps;
                assertThat(cost).as("words page %d read", i).isPositive();
                double log = Math.log(live.size() + 1) / Math.log(2);
                worst = Math.max(worst, cost);
                worstScan = Math.max(worstScan, scan.words - words);
                if (live.size() >= 1024) {             // log n of at least 10: past the first pages
                    worstRatio = Math.max(worstRatio, cost / log);
                    worstScanRatio = Math.max(worstScanRatio, (scan.words - words) / log);
                }
            } else {
                int k = r.nextInt(live.size());
                long at = live.get(k);
                live.set(k, live.get(live.size() - 1));
                live.remove(live.size() - 1);
                pool.release(at);
                scan.release((int) (at / PAGE));
            }
        }
        pool.checkInvariants();
        assertThat(live.size()).as("pages live at the end").isGreaterThan(90_000);
        assertThat(worst).as("the most words one page's search read (%d levels)", pool.busyGranules.levels())
                .isLessThanOrEqualTo(2L * 2 * pool.busyGranules.levels());
        assertThat(worstRatio).as("the most words one page read over log2 of the pages live (at most %d words)", worst)
                .isLessThan(LOG_FACTOR);
        assertThat(worstScanRatio).as("the scan's words for one page over log2 n (at most %d words): the bound "
                + "tells the scan from the summaries", worstScan).isGreaterThan(10 * LOG_FACTOR);
    }
}
