package vramlab.ch03.exercises;

import static org.assertj.core.api.Assertions.assertThat;
import static vramlab.units.Bytes.mib;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import vramlab.units.Bytes;

/**
 * PredictTheCounters against a toy allocator written here from chapter 3's five rules alone:
 * lists of blocks per segment, best fit by (size, segment, offset), split into a legal remainder,
 * merge with free neighbours. No class of the kit's allocator is used.
 */
@DisplayName("PredictTheCounters matches a list-based toy allocator")
class PredictTheCountersTest {
    static final class Blk {
        final int seg;
        long off;
        long size;
        boolean free = true;
        long req;
        Blk(int seg, long off, long size) { this.seg = seg; this.off = off; this.size = size; }
    }

    static final class Model {
        final List<List<Blk>> segments = new ArrayList<>();
        final List<Boolean> small = new ArrayList<>();
        long requested, allocated, reserved;

        Blk alloc(long n) {
            boolean isSmall = n <= mib(1);
            long want = isSmall ? up(n, 512) : up(n, mib(2));
            Blk best = null;
            for (int s = 0; s < segments.size(); s++) {
                if (small.get(s) != isSmall) continue;
                for (Blk b : segments.get(s)) {
                    if (b.free && b.size >= want && (best == null || b.size < best.size)) best = b;
                }
            }
            if (best == null) {
                long size = isSmall ? mib(2) : Math.max(mib(20), want);
                if (reserved + size > PredictTheCounters.DEVICE) return null;      // the driver says no
                reserved += size;
                List<Blk> seg = new ArrayList<>();
                seg.add(new Blk(segments.size(), 0, size));
                segments.add(seg);
                small.add(isSmall);
                best = seg.get(0);
            }
            long rest = best.size - want;
            if (rest >= (isSmall ? 512 : mib(2))) {
                List<Blk> seg = segments.get(best.seg);
                seg.add(seg.indexOf(best) + 1, new Blk(best.seg, best.off + want, rest));
                best.size = want;
            }
            best.free = false;
            best.req = n;
            requested += n;
            allocated += best.size;
            return best;
        }

        void free(Blk b) {
            b.free = true;
            requested -= b.req;
            allocated -= b.size;
            List<Blk> seg = segments.get(b.seg);
            int i = seg.indexOf(b);
            if (i + 1 < seg.size() && seg.get(i + 1).free) b.size += seg.remove(i + 1).size;
            if (i > 0 && seg.get(i - 1).free) {
                Blk prev = seg.get(i - 1);
                prev.size += b.size;
                seg.remove(i);
            }
        }
    }

    static long up(long n, long step) { return (n + step - 1) / step * step; }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 42, 1234})
    @DisplayName("the answer's counters and segment count are the model's")
    void matches(long seed) {
        Model m = new Model();
        List<Blk> live = new ArrayList<>();
        boolean failed = false;
        for (PredictTheCounters.Step s : PredictTheCounters.steps(seed)) {
            if (!s.isAlloc()) {
                m.free(live.remove(s.victim()));
                continue;
            }
            Blk b = m.alloc(s.size());
            if (b == null) {
                failed = true;
                break;
            }
            live.add(b);
        }
        String answer = new PredictTheCounters().answer(seed);
        assertThat(answer.contains("fails, and the program stops")).isEqualTo(failed);
        assertThat(answer).contains("requested " + Bytes.readable(m.requested) + ", allocated " + Bytes.readable(m.allocated)
                + ", reserved " + Bytes.readable(m.reserved));
        assertThat(answer).as("the counters are said once").doesNotContain("reserved=");
        assertThat(answer).contains("segments: " + m.segments.size());
        assertThat(m.reserved).isLessThanOrEqualTo(PredictTheCounters.DEVICE);
    }
}
