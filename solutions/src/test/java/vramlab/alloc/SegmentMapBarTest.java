package vramlab.alloc;

import static org.assertj.core.api.Assertions.assertThat;
import static vramlab.units.Bytes.gib;
import static vramlab.units.Bytes.kib;
import static vramlab.units.Bytes.mib;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import vramlab.driver.Gpu;

/**
 * {@link SegmentMap#bar}: a cell shows the busiest state of any byte in it (live, then waiting
 * for events, then free, then unmapped), checked against a unit-by-unit reference.
 */
@DisplayName("A segment bar's cell shows the busiest byte in it")
class SegmentMapBarTest {
    /** States as the bar draws them, least busy first. */
    private static final String STATES = "_.~#";

    @Test
    @DisplayName("a 2 MiB small segment with 485 KiB live at its front is |#.|, not |..|")
    void smallPoolPartlyLive() {
        CachingAllocator a = new CachingAllocator(new Gpu(gib(1)).openToyProcess(), new PyTorchPolicy());
        a.alloc(kib(485));
        assertThat(SegmentMap.bar(a.segments().iterator().next())).isEqualTo("|#.|");
    }

    @Test
    @DisplayName("every split of a 3 MiB segment into 512 KiB blocks, every state: cells on block edges")
    void alignedUnits() {
        int checked = exhaustive(6, kib(512), STATES);
        assertThat(checked).isEqualTo(4 * (int) Math.pow(5, 5));
    }

    @Test
    @DisplayName("every split of a 3136 KiB segment into 448 KiB blocks: cell edges fall inside blocks")
    void unalignedUnits() {
        int checked = exhaustive(7, kib(448), "_.#");
        assertThat(checked).isEqualTo(3 * (int) Math.pow(4, 6));
    }

    @Test
    @DisplayName("a 100 MiB segment (40 cells of 2.5 MiB), random splits and states")
    void scaled() {
        Random random = new Random(7);
        for (int round = 0; round < 500; round++) {
            int units = 50;
            List<Integer> lengths = new ArrayList<>();
            for (int left = units; left > 0; ) {
                int len = 1 + random.nextInt(Math.min(left, 4));
                lengths.add(len);
                left -= len;
            }
            char[] states = new char[lengths.size()];
            for (int i = 0; i < states.length; i++) states[i] = STATES.charAt(random.nextInt(4));
            Segment s = segment(lengths, states, mib(2));
            assertThat(SegmentMap.bar(s)).as("round %d", round).isEqualTo(reference(lengths, states, mib(2)));
        }
    }

    /** Every composition of {@code units} into blocks, every state per block; returns how many. */
    private static int exhaustive(int units, long unit, String states) {
        int checked = 0;
        for (int cuts = 0; cuts < 1 << (units - 1); cuts++) {
            List<Integer> lengths = new ArrayList<>();
            int len = 1;
            for (int u = 0; u < units - 1; u++) {
                if ((cuts >> u & 1) != 0) {
                    lengths.add(len);
                    len = 1;
                } else {
                    len++;
                }
            }
            lengths.add(len);
            int blocks = lengths.size();
            int combos = (int) Math.pow(states.length(), blocks);
            for (int code = 0; code < combos; code++) {
                char[] st = new char[blocks];
                for (int i = 0, c = code; i < blocks; i++, c /= states.length()) st[i] = states.charAt(c % states.length());
                Segment s = segment(lengths, st, unit);
                assertThat(SegmentMap.bar(s)).as("%s %s", lengths, new String(st))
                        .isEqualTo(reference(lengths, st, unit));
                checked++;
            }
        }
        return checked;
    }

    /** A segment of blocks of {@code lengths[i] * unit} bytes, in the given states. */
    private static Segment segment(List<Integer> lengths, char[] states, long unit) {
        long size = 0;
        for (int len : lengths) size += len * unit;
        Segment s = new Segment(0, 1L << 40, size, PoolKind.LARGE, 0);
        Block prev = null;
        long offset = 0;
        for (int i = 0; i < lengths.size(); i++) {
            Block b = new Block(s, 0, offset, lengths.get(i) * unit);
            switch (states[i]) {
                case '#' -> b.allocated = true;
                case '~' -> b.eventCount = 1;
                case '_' -> b.mapped = false;
                default -> { }
            }
            if (prev == null) s.first = b; else prev.next = b;
            b.prev = prev;
            prev = b;
            offset += b.size;
        }
        return s;
    }

    /** The bar, unit by unit: a cell takes the busiest state among the units overlapping it. */
    private static String reference(List<Integer> lengths, char[] states, long unit) {
        List<Character> perUnit = new ArrayList<>();
        for (int i = 0; i < lengths.size(); i++) for (int u = 0; u < lengths.get(i); u++) perUnit.add(states[i]);
        long size = perUnit.size() * unit;
        int cells = (int) Math.min(40, Math.max(1, size / mib(1)));
        StringBuilder sb = new StringBuilder("|");
        for (int i = 0; i < cells; i++) {
            double start = (double) size * i / cells;
            double end = (double) size * (i + 1) / cells;
            int busiest = 0;
            for (int u = 0; u < perUnit.size(); u++) {
                if (u * unit < end && (u + 1) * unit > start) {
                    busiest = Math.max(busiest, STATES.indexOf(perUnit.get(u)));
                }
            }
            sb.append(STATES.charAt(busiest));
        }
        return sb.append('|').toString();
    }
}
