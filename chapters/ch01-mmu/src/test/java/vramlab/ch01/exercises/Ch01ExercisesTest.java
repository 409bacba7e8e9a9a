package vramlab.ch01.exercises;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import vramlab.ch01.MmuChapter;
import vramlab.gmmu.PageSize;
import vramlab.kit.Exercise;

/**
 * Each exercise's answer, checked against a model written here from the published layout (UVM's
 * index_bits_turing / index_bits_hopper and allocation_size_turing), not from the simulator.
 */
@DisplayName("Chapter 1's exercises")
class Ch01ExercisesTest {
    static final long[] SEEDS = {1, 2, 3, 7, 42, 2026, 99991};

    @Nested
    @DisplayName("the chapter lists them in the notes' order")
    class Registered {
        @org.junit.jupiter.api.Test
        @DisplayName("slice the address, count the tables, predict the TLB")
        void inOrder() {
            List<Exercise> list = new MmuChapter().exercises();
            assertThat(list).hasSize(3);
            assertThat(list.get(0)).isInstanceOf(SliceTheAddress.class);
            assertThat(list.get(1)).isInstanceOf(CountTheTables.class);
            assertThat(list.get(2)).isInstanceOf(PredictTheTlb.class);
        }

        @ParameterizedTest(name = "seed {0}")
        @ValueSource(longs = {1, 2, 42})
        @DisplayName("a prompt is the same for the same seed and never prints the answer's totals")
        void deterministic(long seed) {
            for (Exercise e : new MmuChapter().exercises()) {
                assertThat(e.prompt(seed)).isEqualTo(e.prompt(seed)).isNotEqualTo(e.prompt(seed + 1));
                assertThat(e.answer(seed)).isEqualTo(e.answer(seed));
                assertThat(e.prompt(seed)).doesNotContain("hits ", "tables, ", "The PTE is in");
            }
        }
    }

    @Nested
    @DisplayName("Slice the address: each index is the VA's bits [hi:lo] of its level")
    class Slice {
        /** {hi, lo} per level visited, from UVM's bit widths: VER2 {2,9,9,8}, VER3 {1,9,9,9,8}, then 5 or 9. */
        List<int[]> levels(SliceTheAddress.Case c) {
            List<int[]> l = new ArrayList<>();
            boolean ver3 = c.format().vaBits() == 57;
            if (ver3) l.add(new int[] {56, 56});
            l.add(new int[] {ver3 ? 55 : 48, 47});
            l.add(new int[] {46, 38});
            l.add(new int[] {37, 29});
            l.add(new int[] {28, 21});
            if (c.size() == PageSize.SIZE_64K) l.add(new int[] {20, 16});
            if (c.size() == PageSize.SIZE_4K) l.add(new int[] {20, 12});
            return l;
        }

        @ParameterizedTest(name = "seed {0}")
        @ValueSource(longs = {1, 2, 3, 7, 42, 2026, 99991})
        @DisplayName("the answer lists every level's index and the offset in the page")
        void indices(long seed) {
            SliceTheAddress.Case c = SliceTheAddress.of(seed);
            String[] lines = new SliceTheAddress().answer(seed).split("\n");
            List<int[]> levels = levels(c);
            assertThat(lines).hasSize(levels.size() + 2);
            for (int i = 0; i < levels.size(); i++) {
                int hi = levels.get(i)[0], lo = levels.get(i)[1];
                long index = (c.va() >>> lo) % (1L << (hi - lo + 1));
                assertThat(lines[i + 1]).endsWith("= " + index).contains(String.format("[%2d:%2d]", hi, lo));
            }
            long offset = c.va() % c.size().bytes();
            assertThat(lines[lines.length - 1]).endsWith("= 0x" + Long.toHexString(offset) + ".");
        }
    }

    @Nested
    @DisplayName("Count the tables: one table per distinct prefix, sized as UVM allocates it")
    class Tables {
        @ParameterizedTest(name = "seed {0}")
        @ValueSource(longs = {1, 2, 3, 7, 42, 2026, 99991})
        @DisplayName("the count and the bytes match a model that counts distinct VA prefixes")
        void count(long seed) {
            Set<Long> pde2 = new HashSet<>(), pde1 = new HashSet<>(), pde0 = new HashSet<>();
            Set<Long> pt64 = new HashSet<>(), pt4 = new HashSet<>();
            for (CountTheTables.Mapping m : CountTheTables.mappings(seed)) {
                pde2.add(m.va() >>> 47);
                pde1.add(m.va() >>> 38);
                pde0.add(m.va() >>> 29);
                if (m.size() == PageSize.SIZE_64K) pt64.add(m.va() >>> 21);
                if (m.size() == PageSize.SIZE_4K) pt4.add(m.va() >>> 21);
            }
            int tables = 1 + pde2.size() + pde1.size() + pde0.size() + pt64.size() + pt4.size();
            long bytes = 4096L * (1 + pde2.size() + pde1.size() + pde0.size() + pt4.size()) + 256L * pt64.size();
            String answer = new CountTheTables().answer(seed);
            assertThat(answer).contains(tables + " tables, " + bytes + " bytes");
        }
    }

    @Nested
    @DisplayName("Predict the TLB: a 4-entry LRU cache keyed by page")
    class Tlb {
        @ParameterizedTest(name = "seed {0}")
        @ValueSource(longs = {1, 2, 3, 7, 42, 2026, 99991})
        @DisplayName("every read's hit or miss and the totals match an LRU list of page bases")
        void hitsAndMisses(long seed) {
            Map<Long, Boolean> lru = new LinkedHashMap<>(16, 0.75f, true);
            List<String> expected = new ArrayList<>();
            int hits = 0, misses = 0;
            for (long va : PredictTheTlb.reads(seed)) {
                long page = va < PredictTheTlb.MID ? va & -(2L << 20)
                        : va < PredictTheTlb.SMALL ? va & -(64L << 10) : va & -4096L;
                if (lru.get(page) != null) {
                    hits++;
                    expected.add("hit");
                } else {
                    misses++;
                    expected.add("miss");
                    lru.put(page, true);
                    if (lru.size() > PredictTheTlb.ENTRIES) lru.remove(lru.keySet().iterator().next());
                }
            }
            String[] lines = new PredictTheTlb().answer(seed).split("\n");
            for (int i = 0; i < expected.size(); i++) {
                assertThat(lines[i].trim().split("\\s+")[2]).as("read %d", i + 1).isEqualTo(expected.get(i));
            }
            assertThat(lines[lines.length - 1]).startsWith("hits " + hits + ", misses " + misses);
        }
    }
}
