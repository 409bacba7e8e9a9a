package vramlab.alloc;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The placement that indexes segments only once a hint comes, against the one it replaced,
 * which indexed every segment from the start: the same address for every new segment.
 */
@DisplayName("SegmentPlacement places as when it indexed every segment")
class SegmentPlacementTest {

    /** The placement as it was: every segment in the index from the first. */
    static final class Eager {
        final TreeMap<Long, Segment> byAddress = new TreeMap<>();
        long expected = CachingAllocator.NO_HINT;

        void add(Segment s) { byAddress.put(s.address, s); }

        void remove(Segment s) { byAddress.remove(s.address); }

        long address(long ptr, long size) {
            long hint = expected;
            expected = CachingAllocator.NO_HINT;
            if (hint != CachingAllocator.NO_HINT && isUnused(hint, size)) return hint;
            if (byAddress.isEmpty() || isUnused(ptr, size)) return ptr;
            Segment top = byAddress.lastEntry().getValue();
            return Math.max(ptr, top.address + top.size);
        }

        boolean isUnused(long address, long size) {
            Map.Entry<Long, Segment> below = byAddress.floorEntry(address + size - 1);
            return below == null || below.getValue().address + below.getValue().size <= address;
        }
    }

    /**
     * A driver in miniature: first fit over 64 slots of 2 MiB, so pointers are reused once
     * freed and never overlap a live range; a segment holds its range while it lives.
     */
    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12})
    @DisplayName("seeded runs: hints that fit, overlap or are the driver's own, first given early or late or never")
    void seeded(long seed) {
        Random r = new Random(seed);
        long unit = 2L << 20;
        long base = 0x7f0a00000000L;
        Map<Integer, Segment> held = new LinkedHashMap<>();
        SegmentPlacement placement = new SegmentPlacement(held.values());
        Eager eager = new Eager();
        boolean[] slot = new boolean[64];
        Map<Segment, int[]> ranges = new LinkedHashMap<>();
        List<Segment> live = new ArrayList<>();
        int firstHintAt = seed % 3 == 0 ? Integer.MAX_VALUE : r.nextInt(400);
        int id = 0, hints = 0;
        for (int i = 0; i < 3000; i++) {
            if (!live.isEmpty() && (r.nextInt(5) < 2 || live.size() > 40)) {
                Segment s = live.remove(r.nextInt(live.size()));
                held.remove(s.id);
                placement.remove(s);
                eager.remove(s);
                int[] range = ranges.remove(s);
                for (int k = range[0]; k < range[0] + range[1]; k++) slot[k] = false;
                continue;
            }
            int pages = 1 + r.nextInt(3);
            int at = firstFit(slot, pages);
            if (at < 0) continue;
            for (int k = at; k < at + pages; k++) slot[k] = true;
            long ptr = base + at * unit;
            long size = pages * unit - (r.nextBoolean() ? 0 : 512L * r.nextInt(100));
            if (i >= firstHintAt && r.nextInt(3) == 0) {
                long hint = switch (r.nextInt(3)) {
                    case 0 -> ptr;
                    case 1 -> base + r.nextInt(64) * unit;                       // often over a live segment
                    default -> base + 64 * unit + r.nextInt(32) * unit;         // beyond the driver's slots
                };
                placement.expect(hint);
                eager.expected = hint;
                hints++;
            }
            long address = placement.address(ptr, size);
            assertThat(address).as("step %d: segment at ptr 0x%x", i, ptr).isEqualTo(eager.address(ptr, size));
            Segment s = new Segment(id++, address, ptr, size, PoolKind.LARGE, 0, null);
            held.put(s.id, s);
            placement.add(s);
            eager.add(s);
            live.add(s);
            ranges.put(s, new int[] {at, pages});
        }
        assertThat(placement.indexed()).isEqualTo(hints > 0);
        if (firstHintAt == Integer.MAX_VALUE) assertThat(hints).isZero();
        else assertThat(hints).as("the run must give hints to compare them").isGreaterThan(100);
    }

    private static int firstFit(boolean[] slot, int pages) {
        for (int at = 0; at + pages <= slot.length; at++) {
            boolean free = true;
            for (int k = at; k < at + pages && free; k++) free = !slot[k];
            if (free) return at;
        }
        return -1;
    }
}
