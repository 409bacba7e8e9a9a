package vramlab.alloc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NavigableSet;
import java.util.TreeSet;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The free index's own rules, case by case: when chunks merge (a table of small cases with
 * chunks of 8 blocks), what checkInvariants notices when its books are broken on purpose, and
 * the corners of iterators and views the random comparison reaches rarely.
 */
@DisplayName("FreeSet, case by case")
class FreeSetChecksTest {
    /** Blocks of one stream with sizes 512 B, 1 KiB, ... (index i has size (i + 1) * 512). */
    private static final List<Block> KEYS = new FreeSetAgainstTreeSetTest.Keys(1, 40, 1).blocks;

    private static FreeSet of(int capacity, String indices) { return of(KEYS, capacity, indices); }

    /** A set with chunks of {@code capacity} holding the blocks of {@code keys} at these indices. */
    private static FreeSet of(List<Block> keys, int capacity, String indices) {
        FreeSet set = new FreeSet(FreeSet.Order.STREAM_SIZE_ADDRESS, capacity);
        for (String i : indices.split(" ")) set.add(keys.get(Integer.parseInt(i)));
        return set;
    }

    @Nested
    @DisplayName("chunks of 8: a chunk under 2 blocks joins a neighbour when the two hold at most 6")
    class Merging {
        @ParameterizedTest(name = "add [{0}], remove [{1}]: {2} chunks")
        @CsvSource(delimiter = '|', textBlock = """
                0 1 2 3 4 5 6 7                 | 7 6 5 4 3 2 1 0     | 0
                0 1 2 3 4 5 6 7 8               | 0                   | 2
                0 1 2 3 4 5 6 7 8               | 1 2 3               | 1
                0 1 2 3 4 5 6 7 8 9             | 1 2 3               | 2
                0 1 2 3 4 5 6 7 8               | 6 7 8               | 2
                0 2 4 6 8 10 12 14 16 1         | 10 12 14 16         | 1
                0 2 4 6 8 10 12 14 16 1 3       | 10 12 14 16         | 2
                0 2 4 6 8 10 12 14 16 18 20 22 24 | 8 10 12 14 16     | 2
                """)
        void mergeTable(String add, String remove, int chunks) {
            FreeSet set = of(8, add.trim());
            TreeSet<Block> ref = new TreeSet<>(FreeSet.BY_STREAM_SIZE_ADDRESS);
            for (String i : add.trim().split(" ")) ref.add(KEYS.get(Integer.parseInt(i)));
            for (String i : remove.trim().split(" ")) {
                assertThat(set.remove(KEYS.get(Integer.parseInt(i)))).isTrue();
                ref.remove(KEYS.get(Integer.parseInt(i)));
                set.checkInvariants();
            }
            assertThat(set.chunkCount()).isEqualTo(chunks);
            assertThat(set).containsExactlyElementsOf(ref);
            assertThat(set.size()).isEqualTo(ref.size());
        }

        @Test
        @DisplayName("nine blocks added in order split the full chunk into 4 and 5")
        void split() {
            FreeSet set = of(8, "0 1 2 3 4 5 6 7");
            assertThat(set.chunkCount()).isEqualTo(1);
            set.add(KEYS.get(8));
            assertThat(set.chunkCount()).isEqualTo(2);
            set.checkInvariants();
            assertThat(set.chunks[0].n).isEqualTo(4);
            assertThat(set.chunks[1].n).isEqualTo(5);
        }
    }

    @Nested
    @DisplayName("checkInvariants notices each way the books can go wrong")
    class Checks {
        private void broken(FreeSet set, String message) {
            assertThatThrownBy(set::checkInvariants).isInstanceOf(IllegalStateException.class)
                    .hasMessageStartingWith("free set: ").hasMessageContaining(message);
        }

        @Test
        @DisplayName("full chunks pass; an empty chunk, or one over its capacity, does not")
        void chunkSizes() {
            FreeSet full = of(4, "0 1 2 3");
            full.checkInvariants();
            full.chunks[0].n = 0;
            broken(full, "chunk 0 holds 0 blocks");
            FreeSet over = of(4, "0 1 2 3");
            over.chunks[0].n = 5;
            broken(over, "chunk 0 holds 5 blocks");
        }

        @Test
        @DisplayName("two blocks out of order, or one key twice")
        void order() {
            FreeSet swapped = of(8, "0 1 2 3");
            FreeSet.Chunk ch = swapped.chunks[0];
            Block b1 = ch.blocks[1];
            ch.blocks[1] = ch.blocks[2];
            ch.blocks[2] = b1;
            long k = ch.keys[4];
            ch.keys[4] = ch.keys[7];
            ch.keys[7] = k;
            broken(swapped, "out of order");
            FreeSet twice = of(8, "0 1 2 3");
            FreeSet.Chunk t = twice.chunks[0];
            t.blocks[2] = t.blocks[1];
            System.arraycopy(t.keys, 3, t.keys, 6, 3);
            broken(twice, "out of order");
        }

        @Test
        @DisplayName("a stale last key, in each of its three parts")
        void lastKey() {
            for (int part = 0; part < 3; part++) {
                FreeSet set = of(8, "0 1 2 3");
                set.checkInvariants();
                set.last[part] += 1;
                broken(set, "stale last key");
            }
        }

        @Test
        @DisplayName("a chunk that thinks it is somewhere else")
        void chunkPlace() {
            FreeSet set = of(4, "0 1 2 3 4 5 6 7 8 9");
            set.checkInvariants();
            set.chunks[1].pos = 2;
            broken(set, "chunk 1 thinks it is at 2");
        }

        @Test
        @DisplayName("a size that is not the blocks held")
        void size() {
            FreeSet set = of(8, "0 1 2");
            set.size++;
            broken(set, "size 4 but 3 blocks held");
        }

        @Test
        @DisplayName("a reference left to a removed block or chunk")
        void staleReferences() {
            FreeSet set = of(8, "0 1 2");
            set.chunks[0].blocks[5] = KEYS.get(9);
            broken(set, "still holds a removed block at 5");
            FreeSet chunks = of(8, "0 1 2");
            chunks.chunks[2] = new FreeSet.Chunk(8);
            broken(chunks, "a removed chunk is still held at 2");
            FreeSet cleared = of(4, "0 1 2 3 4 5 6 7 8 9");
            cleared.clear();
            cleared.checkInvariants();
            FreeSet emptied = of(4, "0 1 2 3 4 5 6 7 8 9");
            for (int i = 9; i >= 0; i--) emptied.remove(KEYS.get(i));
            emptied.checkInvariants();
        }
    }

    @Nested
    @DisplayName("a search scans a short run of one stream's keys and halves the rest, to the same place")
    class ScanOrHalve {
        @Test
        @DisplayName("on seeded runs of keys with ties in size and address, at and after, up to past the scan's limit")
        void samePlace() {
            java.util.SplittableRandom r = new java.util.SplittableRandom(11);
            for (int trial = 0; trial < 3000; trial++) {
                int n = r.nextInt(FreeSet.SCAN_MAX + 6);
                long[] k = new long[3 * Math.max(n, 1)];
                long size = 512, address = 0;
                for (int i = 0; i < n; i++) {             // strictly increasing (size, address), ties in size
                    if (r.nextInt(3) > 0) {
                        size += 512L * (1 + r.nextInt(4));
                        address = r.nextInt(3) * 4096L;
                    } else {
                        address += 512L * (1 + r.nextInt(3));
                    }
                    k[3 * i + 1] = size;
                    k[3 * i + 2] = address;
                }
                for (int q = 0; q < 20; q++) {
                    long a = n > 0 && r.nextBoolean() ? k[3 * r.nextInt(n) + 1] : 512L * r.nextInt(2 + (int) (size / 512));
                    long b = n > 0 && r.nextBoolean() ? k[3 * r.nextInt(n) + 2]
                            : r.nextInt(5) == 0 ? Long.MIN_VALUE : 512L * r.nextInt(40);
                    for (boolean strict : new boolean[] {false, true}) {
                        assertThat(FreeSet.scan(k, n, a, b, strict)).as("trial %d: n %d, (%d, %d), strict %s", trial, n, a, b, strict)
                                .isEqualTo(FreeSet.halve(k, n, 0, a, b, strict));
                    }
                }
            }
        }

        @Test
        @DisplayName("halving orders by stream first: keys of other streams are before or after them all")
        void streams() {
            long[] k = {0, 4096, 0,   1, 512, 0,   1, 1024, 512,   2, 512, 0};
            assertThat(FreeSet.halve(k, 4, 1, 0, Long.MIN_VALUE, false)).isEqualTo(1);
            assertThat(FreeSet.halve(k, 4, 1, 1024, 512, false)).isEqualTo(2);
            assertThat(FreeSet.halve(k, 4, 1, 1024, 512, true)).isEqualTo(3);
            assertThat(FreeSet.halve(k, 4, 1, 1 << 30, 0, false)).as("past stream 1's keys").isEqualTo(3);
            assertThat(FreeSet.halve(k, 4, 3, 0, 0, false)).isEqualTo(4);
        }
    }

    @Nested
    @DisplayName("each block points back to its chunk, so a remove needs no search")
    class BackPointers {
        /** Blocks of their own: the shared KEYS may still point into other tests' sets. */
        private final List<Block> keys = new FreeSetAgainstTreeSetTest.Keys(1, 40, 1).blocks;

        private FreeSet of(int capacity, String indices) { return FreeSetChecksTest.of(keys, capacity, indices); }

        /** Every block held points to the chunk that holds it, and every chunk knows its place. */
        private void pointBack(FreeSet set) {
            for (int c = 0; c < set.chunkCount(); c++) {
                FreeSet.Chunk ch = set.chunks[c];
                assertThat(ch.pos).as("chunk %d's place", c).isEqualTo(c);
                for (int i = 0; i < ch.n; i++) {
                    assertThat(ch.blocks[i].freeChunk).as("block %d of chunk %d", i, c).isSameAs(ch);
                }
            }
        }

        @Test
        @DisplayName("through adds, splits, removes and merges of chunks, seeded and checked against TreeSet")
        void keptThroughChanges() {
            java.util.SplittableRandom r = new java.util.SplittableRandom(7);
            FreeSet set = new FreeSet(FreeSet.Order.STREAM_SIZE_ADDRESS, 4);
            TreeSet<Block> ref = new TreeSet<>(FreeSet.BY_STREAM_SIZE_ADDRESS);
            for (int step = 0; step < 4000; step++) {
                Block b = keys.get(r.nextInt(keys.size()));
                if (r.nextInt(3) == 0) {
                    assertThat(set.remove(b)).isEqualTo(ref.remove(b));
                    assertThat(b.freeChunk).as("a removed block lets go of its chunk").isNull();
                } else {
                    assertThat(set.add(b)).isEqualTo(ref.add(b));
                }
                pointBack(set);
            }
            assertThat(set).containsExactlyElementsOf(ref);
            set.clear();
            for (Block b : keys) assertThat(b.freeChunk).as("clear lets go of every chunk").isNull();
        }

        @Test
        @DisplayName("a block held by two sets is removed from each (the second by its key)")
        void twoSets() {
            FreeSet a = of(4, "0 1 2 3 4 5");
            FreeSet b = of(4, "3 4 5 6 7 8");
            Block shared = keys.get(4);
            assertThat(shared.freeChunk).as("it points into the set that took it last").isSameAs(b.chunks[0]);
            assertThat(a.remove(shared)).isTrue();
            assertThat(a.contains(shared)).isFalse();
            assertThat(b.contains(shared)).isTrue();
            assertThat(b.remove(shared)).isTrue();
            assertThat(b.contains(shared)).isFalse();
            a.checkInvariants();
            b.checkInvariants();
            assertThat(a).containsExactly(keys.get(0), keys.get(1), keys.get(2), keys.get(3), keys.get(5));
        }

        @Test
        @DisplayName("a block whose chunk sits past the end of this set's chunks is looked for by key, safely")
        void foreignPlace() {
            FreeSet four = new FreeSet(FreeSet.Order.STREAM_SIZE_ADDRESS, 4);
            int next = 0;
            while (four.chunkCount() < 4) four.add(keys.get(next++));
            assertThat(four.chunks).as("the chunk array exactly full").hasSize(4);
            List<Block> others = new FreeSetAgainstTreeSetTest.Keys(1, 40, 1).blocks;   // the same keys, other blocks
            FreeSet more = new FreeSet(FreeSet.Order.STREAM_SIZE_ADDRESS, 4);
            for (Block o : others) more.add(o);
            Block far = more.chunks[4].blocks[0];
            assertThat(far.freeChunk.pos).isEqualTo(4);
            int before = four.size();
            boolean inFour = four.contains(far);
            assertThat(four.remove(far)).as("by key: a block of four's with that key, if any").isEqualTo(inFour);
            assertThat(four.size()).isEqualTo(inFour ? before - 1 : before);
            four.checkInvariants();
        }

        @Test
        @DisplayName("a block whose chunk merged away, or whose set was cleared, is found by its key")
        void stalePointer() {
            FreeSet set = of(8, "0 1 2 3 4 5 6 7 8");      // two chunks: 0-3 and 4-8
            Block moved = keys.get(8);
            FreeSet.Chunk before = moved.freeChunk;
            for (int i : new int[] {4, 5, 6, 7}) set.remove(keys.get(i));   // the right chunk merges left
            assertThat(set.chunkCount()).isEqualTo(1);
            assertThat(moved.freeChunk).isNotSameAs(before).isSameAs(set.chunks[0]);
            assertThat(before.pos).as("the chunk merged away knows it").isEqualTo(-1);
            moved.freeChunk = before;                   // a pointer gone stale (as a bug would leave it)
            assertThat(set.remove(moved)).as("found by its key").isTrue();
            assertThat(set).doesNotContain(moved);
            set.checkInvariants();
        }
    }

    @Nested
    @DisplayName("iterators and views")
    class Corners {
        @Test
        @DisplayName("removing every third block through the iterator, across chunks, leaves TreeSet's")
        void iteratorRemove() {
            for (int capacity : new int[] {4, 8}) {
                FreeSet set = new FreeSet(FreeSet.Order.STREAM_SIZE_ADDRESS, capacity);
                TreeSet<Block> ref = new TreeSet<>(FreeSet.BY_STREAM_SIZE_ADDRESS);
                set.addAll(KEYS);
                ref.addAll(KEYS);
                Iterator<Block> a = set.iterator(), b = ref.iterator();
                for (int i = 0; b.hasNext(); i++) {
                    assertThat(a.next()).isSameAs(b.next());
                    if (i % 3 != 1) continue;
                    a.remove();
                    b.remove();
                    set.checkInvariants();
                }
                assertThat(a.hasNext()).isFalse();
                assertThat(set).containsExactlyElementsOf(ref);
                Iterator<Block> all = set.iterator();
                while (all.hasNext()) {
                    all.next();
                    all.remove();
                }
                assertThat(set).isEmpty();
                set.checkInvariants();
            }
        }

        @Test
        @DisplayName("a view's add says whether the block was new, as TreeSet's does")
        void viewAdd() {
            FreeSet set = of(4, "1 3 5");
            TreeSet<Block> ref = new TreeSet<>(FreeSet.BY_STREAM_SIZE_ADDRESS);
            ref.addAll(set);
            NavigableSet<Block> mv = set.subSet(KEYS.get(0), true, KEYS.get(9), true);
            NavigableSet<Block> rv = ref.subSet(KEYS.get(0), true, KEYS.get(9), true);
            for (int i : new int[] {2, 3, 4, 5}) {
                assertThat(mv.add(KEYS.get(i))).as("add %d", i).isEqualTo(rv.add(KEYS.get(i)));
            }
            assertThat(mv.add(KEYS.get(2))).isFalse();
            assertThat(set).containsExactlyElementsOf(ref);
        }

        @Test
        @DisplayName("views of views: bounds outside are refused, the one-argument forms are half-open")
        void viewBounds() {
            FreeSet set = of(4, "0 1 2 3 4 5 6 7 8 9");
            TreeSet<Block> ref = new TreeSet<>(FreeSet.BY_STREAM_SIZE_ADDRESS);
            ref.addAll(set);
            Block b2 = KEYS.get(2), b4 = KEYS.get(4), b6 = KEYS.get(6), b8 = KEYS.get(8);
            NavigableSet<Block> mv = set.subSet(b2, true, b8, true), rv = ref.subSet(b2, true, b8, true);
            assertThatThrownBy(() -> mv.subSet(KEYS.get(1), true, b4, true))
                    .isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> mv.subSet(b4, true, KEYS.get(9), true))
                    .isInstanceOf(IllegalArgumentException.class);
            assertThat(mv.subSet(b4, b6)).containsExactlyElementsOf(rv.subSet(b4, b6));
            assertThat(mv.headSet(b6)).containsExactlyElementsOf(rv.headSet(b6));
            assertThat(mv.tailSet(b4)).containsExactlyElementsOf(rv.tailSet(b4));
            NavigableSet<Block> md = mv.descendingSet(), rd = rv.descendingSet();
            assertThat(md.subSet(b6, b4)).containsExactlyElementsOf(rd.subSet(b6, b4));
            assertThat(md.headSet(b4)).containsExactlyElementsOf(rd.headSet(b4));
            assertThat(md.tailSet(b4)).containsExactlyElementsOf(rd.tailSet(b4));
            assertThat(set.subSet(b4, true, b4, true)).containsExactly(b4);
            assertThat(new ArrayList<>(md.descendingSet())).containsExactlyElementsOf(rv);
        }
    }
}
