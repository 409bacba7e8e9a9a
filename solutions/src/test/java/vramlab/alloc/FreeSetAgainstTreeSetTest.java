package vramlab.alloc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.ConcurrentModificationException;
import java.util.Iterator;
import java.util.List;
import java.util.NavigableSet;
import java.util.NoSuchElementException;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.function.Function;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The free index is a {@code TreeSet} in PyTorch's order, stored differently: every call on a
 * {@link FreeSet} (and on its views) answers what a {@code TreeSet} with the same comparator
 * answers, the very same block, on exhaustive short sequences with tiny chunks and on seeded
 * random ones long enough to split and merge many chunks.
 */
@DisplayName("FreeSet against a TreeSet with the same comparator")
class FreeSetAgainstTreeSetTest {
    private static final boolean PIT = System.getProperty("vramlab.pit") != null;

    /** Blocks with few distinct keys, so that equal keys, ties and streams all occur. */
    static final class Keys {
        final List<Block> blocks = new ArrayList<>();

        Keys(int streams, int sizes, int addresses) {
            for (int s = 0; s < streams; s++) {
                Segment seg = new Segment(s, 0, 1L << 40, PoolKind.LARGE, s);
                for (int z = 1; z <= sizes; z++) {
                    for (int a = 0; a < addresses; a++) blocks.add(new Block(seg, s, a * 512L, z * 512L));
                }
            }
        }

        Block pick(SplittableRandom r) { return blocks.get(r.nextInt(blocks.size())); }
    }

    private static Comparator<Block> comparator(FreeSet.Order order) {
        return order == FreeSet.Order.STREAM_SIZE_ADDRESS ? FreeSet.BY_STREAM_SIZE_ADDRESS
                : FreeSet.BY_STREAM_ADDRESS;
    }

    /** A probe as the allocator makes one: before every block of its stream and size. */
    private static Block probe(int stream, long size) {
        Segment s = new Segment(-1, Long.MIN_VALUE, 0, PoolKind.LARGE, 0);
        return new Block(s, stream, 0, size);
    }

    /** Runs one operation on both and compares the answers; returns a description for messages. */
    static String step(int op, Block k, NavigableSet<Block> mine, NavigableSet<Block> ref) {
        switch (op) {
            case 0, 1, 2 -> assertThat(mine.add(k)).as("add %s", k).isEqualTo(ref.add(k));
            case 3 -> assertThat(mine.remove(k)).as("remove %s", k).isEqualTo(ref.remove(k));
            case 4 -> {             // the allocator's pattern: find a block, then remove the one found
                Block f = mine.ceiling(k), g = ref.ceiling(k);
                assertThat(f).as("ceiling %s", k).isSameAs(g);
                if (f != null) assertThat(mine.remove(f)).as("remove found %s", f).isEqualTo(ref.remove(g));
            }
            case 5 -> assertThat(mine.pollFirst()).as("pollFirst").isSameAs(ref.pollFirst());
            case 6 -> assertThat(mine.pollLast()).as("pollLast").isSameAs(ref.pollLast());
            default -> {
                Iterator<Block> a = mine.iterator(), b = ref.iterator();
                while (b.hasNext()) {               // remove every block of k's stream on the way
                    Block x = b.next();
                    assertThat(a.next()).isSameAs(x);
                    if (x.stream == k.stream) {
                        a.remove();
                        b.remove();
                    }
                }
                assertThat(a.hasNext()).isFalse();
            }
        }
        return op + " " + k;
    }

    /** Every query about every key, and the whole contents in both directions. */
    static void sameAnswers(NavigableSet<Block> mine, NavigableSet<Block> ref, Keys keys) {
        same(new ArrayList<>(mine), new ArrayList<>(ref), "contents", null);
        same(mine.size(), ref.size(), "size", null);
        same(mine.isEmpty(), ref.isEmpty(), "isEmpty", null);
        List<Block> down = new ArrayList<>();
        mine.descendingIterator().forEachRemaining(down::add);
        same(down, new ArrayList<>(ref.descendingSet()), "descending", null);
        if (ref.isEmpty()) {
            assertThatThrownBy(mine::first).isInstanceOf(NoSuchElementException.class);
            assertThatThrownBy(mine::last).isInstanceOf(NoSuchElementException.class);
        } else {
            same(mine.first(), ref.first(), "first", null);
            same(mine.last(), ref.last(), "last", null);
        }
        for (Block k : keys.blocks) {
            same(mine.contains(k), ref.contains(k), "contains", k);
            same(mine.ceiling(k), ref.ceiling(k), "ceiling", k);
            same(mine.higher(k), ref.higher(k), "higher", k);
            same(mine.floor(k), ref.floor(k), "floor", k);
            same(mine.lower(k), ref.lower(k), "lower", k);
        }
    }

    /** Blocks compare by identity (Block keeps Object's equals), so this is "the same block". */
    private static void same(Object mine, Object ref, String call, Block k) {
        if (!java.util.Objects.equals(mine, ref)) {
            throw new AssertionError(call + (k == null ? "" : "(" + k + ")") + ": TreeSet answers " + ref
                    + ", FreeSet " + mine);
        }
    }

    @Nested
    @DisplayName("exhaustive small cases, chunks of 4 blocks")
    class Exhaustive {
        @ParameterizedTest(name = "{0}")
        @EnumSource(FreeSet.Order.class)
        @DisplayName("every set of 8 keys, built in 2 orders, then every add and remove, answers as TreeSet")
        void everyStateEveryOp(FreeSet.Order order) {
            Keys keys = new Keys(2, 2, 2);               // 8 blocks; (stream, address) order has ties
            int n = keys.blocks.size();
            for (int subset = 0; subset < 1 << n; subset += PIT ? 5 : 1) {
                for (int build = 1; build < (PIT ? 2 : 3); build++) {
                    for (int op = 0; op < 2 * n; op++) {
                        FreeSet mine = new FreeSet(order, 4);
                        TreeSet<Block> ref = new TreeSet<>(comparator(order));
                        for (int i = 0; i < n; i++) {
                            int j = build == 1 ? n - 1 - i : (i * 3 + subset) % n;
                            if ((subset & 1 << j) != 0) step(0, keys.blocks.get(j), mine, ref);
                        }
                        step(op < n ? 0 : 3, keys.blocks.get(op % n), mine, ref);
                        mine.checkInvariants();
                        sameAnswers(mine, ref, keys);
                    }
                }
            }
        }
    }

    @Nested
    @DisplayName("seeded random sequences")
    class Random {
        @ParameterizedTest(name = "{0}")
        @EnumSource(FreeSet.Order.class)
        @DisplayName("thousands of random operations, with chunks of 4 and 64, give TreeSet's answers")
        void randomSequences(FreeSet.Order order) {
            for (int capacity : new int[] {4, FreeSet.CHUNK}) {
                for (long seed = 1; seed <= (PIT ? 1 : 2); seed++) {
                    SplittableRandom r = new SplittableRandom(seed * 31 + capacity);
                    Keys keys = new Keys(3, 12, 20);
                    FreeSet mine = new FreeSet(order, capacity);
                    TreeSet<Block> ref = new TreeSet<>(comparator(order));
                    for (int i = 0; i < (PIT ? 800 : 1500); i++) {
                        // grow for a while, then shrink: chunks split, then merge
                        int op = r.nextInt(i % 1000 < 600 ? 5 : 8);   // 1000-1500: grow again
                        if (op == 7 && r.nextInt(20) > 0) op = 3;
                        step(op, keys.pick(r), mine, ref);
                        mine.checkInvariants();
                        if (i % 250 == 0) sameAnswers(mine, ref, keys);
                    }
                    sameAnswers(mine, ref, keys);
                }
            }
        }

        @Test
        @DisplayName("best fit with the allocator's probe finds the block TreeSet finds")
        void probeCeiling() {
            SplittableRandom r = new SplittableRandom(16);
            Keys keys = new Keys(2, 40, 10);
            FreeSet mine = new FreeSet(FreeSet.Order.STREAM_SIZE_ADDRESS);
            TreeSet<Block> ref = new TreeSet<>(FreeSet.BY_STREAM_SIZE_ADDRESS);
            for (int i = 0; i < 600; i++) {
                Block k = keys.pick(r);
                step(r.nextInt(4), k, mine, ref);
                Block p = probe(r.nextInt(3), 512L * r.nextInt(42));
                assertThat(mine.ceiling(p)).as("ceiling of probe %s", p).isSameAs(ref.ceiling(p));
            }
        }
    }

    @Nested
    @DisplayName("views")
    class Views {
        /** Each kind of view, made the same way from both sets. */
        private final List<Function<NavigableSet<Block>, NavigableSet<Block>>> views(Keys keys) {
            Block a = keys.blocks.get(7), b = keys.blocks.get(41), c = keys.blocks.get(13);
            return List.of(
                    NavigableSet::descendingSet,
                    s -> s.subSet(a, true, b, false),
                    s -> s.subSet(a, false, b, true),
                    s -> (NavigableSet<Block>) s.subSet(a, b),
                    s -> s.headSet(b, true),
                    s -> (NavigableSet<Block>) s.headSet(b),
                    s -> s.tailSet(a, false),
                    s -> (NavigableSet<Block>) s.tailSet(a),
                    s -> s.descendingSet().headSet(a, true),
                    s -> s.descendingSet().tailSet(b, false),
                    s -> s.descendingSet().subSet(b, true, a, true),
                    s -> s.subSet(a, true, b, true).descendingSet(),
                    s -> s.subSet(a, true, b, true).subSet(c, false, b, false),
                    s -> s.tailSet(a, true).headSet(b, true).tailSet(c, true),
                    s -> s.headSet(b, false).descendingSet().subSet(c, true, a, false));
        }

        @ParameterizedTest(name = "{0}")
        @EnumSource(FreeSet.Order.class)
        @DisplayName("every view answers as the TreeSet's, and changes through it reach the set")
        void viewsAgree(FreeSet.Order order) {
            Keys keys = new Keys(2, 5, 5);
            List<Function<NavigableSet<Block>, NavigableSet<Block>>> views = views(keys);
            for (int v = 0; v < views.size(); v++) {
                SplittableRandom r = new SplittableRandom(v);
                FreeSet mine = new FreeSet(order, 4);
                TreeSet<Block> ref = new TreeSet<>(comparator(order));
                for (int i = 0; i < 40; i++) step(0, keys.pick(r), mine, ref);
                NavigableSet<Block> mv = views.get(v).apply(mine), rv = views.get(v).apply(ref);
                assertThat(mv.comparator().compare(keys.blocks.get(0), keys.blocks.get(9)))
                        .isEqualTo(rv.comparator().compare(keys.blocks.get(0), keys.blocks.get(9)));
                for (int i = 0; i < (PIT ? 25 : 40); i++) {
                    Block k = keys.pick(r);
                    int op = r.nextInt(8);
                    if (op <= 2 && !rv.contains(k)) {
                        boolean refThrew = throwsIae(() -> rv.add(k));
                        assertThat(throwsIae(() -> mv.add(k))).as("view %d: add %s out of range", v, k)
                                .isEqualTo(refThrew);
                    } else if (op > 2) {
                        step(op, k, mv, rv);
                    }
                    mine.checkInvariants();
                    sameAnswers(mv, rv, keys);
                    same(new ArrayList<>(mine), new ArrayList<>(ref), "the set under view " + v, null);
                }
            }
        }

        @Test
        @DisplayName("a view refuses bounds outside itself and reversed bounds, as TreeSet's do")
        void badBounds() {
            Keys keys = new Keys(1, 6, 1);
            Block a = keys.blocks.get(1), b = keys.blocks.get(4), out = keys.blocks.get(5);
            FreeSet mine = new FreeSet(FreeSet.Order.STREAM_SIZE_ADDRESS);
            TreeSet<Block> ref = new TreeSet<>(FreeSet.BY_STREAM_SIZE_ADDRESS);
            List<Function<NavigableSet<Block>, NavigableSet<Block>>> bad = List.of(
                    s -> s.subSet(b, true, a, true),
                    s -> s.subSet(a, true, b, false).tailSet(out, true),
                    s -> s.subSet(a, true, b, false).headSet(keys.blocks.get(0), true),
                    s -> s.subSet(a, true, b, false).tailSet(b, true),
                    s -> s.subSet(a, false, b, false).headSet(a, true),
                    s -> s.descendingSet().subSet(a, true, b, true),
                    s -> s.subSet(a, true, b, false).descendingSet().headSet(out, false),
                    s -> s.subSet(a, true, b, false).descendingSet().tailSet(keys.blocks.get(0), false));
            for (Function<NavigableSet<Block>, NavigableSet<Block>> f : bad) {
                assertThat(throwsIae(() -> f.apply(ref))).isTrue();
                assertThat(throwsIae(() -> f.apply(mine))).isTrue();
            }
            assertThat(throwsIae(() -> mine.subSet(a, false, b, false).headSet(b, false))).isFalse();
            assertThat(throwsIae(() -> mine.subSet(a, false, b, false).tailSet(a, false))).isFalse();
        }

        private boolean throwsIae(Runnable r) {
            try {
                r.run();
                return false;
            } catch (IllegalArgumentException e) {
                return true;
            }
        }
    }

    @Nested
    @DisplayName("iterators and checks")
    class Edges {
        @Test
        @DisplayName("a remove after a search removes by key, as a TreeSet's does, whatever changed in between")
        void removeAfterSearch() {
            Keys keys = new Keys(2, 40, 3);                       // 240 blocks: several chunks
            FreeSet mine = new FreeSet(FreeSet.Order.STREAM_SIZE_ADDRESS, 8);
            TreeSet<Block> ref = new TreeSet<>(comparator(FreeSet.Order.STREAM_SIZE_ADDRESS));
            for (int i = 0; i < keys.blocks.size(); i += 2) {     // every other one: room to add
                mine.add(keys.blocks.get(i));
                ref.add(keys.blocks.get(i));
            }
            Block f = mine.ceiling(probe(1, 20 * 512L));
            assertThat(f).isSameAs(ref.ceiling(probe(1, 20 * 512L)));
            Block before = keys.blocks.get(keys.blocks.indexOf(f) - 1);   // sorts just before f
            mine.add(before);                                      // f moves one place on
            ref.add(before);
            assertThat(mine.remove(f)).isTrue();
            ref.remove(f);
            assertThat(mine).containsExactlyElementsOf(ref);
            mine.checkInvariants();

            Block g = mine.ceiling(probe(0, 7 * 512L));
            Block twin = new Block(g.segment, g.stream, g.offset, g.size);   // another block, same key
            assertThat(mine.remove(twin)).as("the key, not the object, is what a TreeSet removes").isTrue();
            ref.remove(twin);
            assertThat(mine).containsExactlyElementsOf(ref).doesNotContain(g);
            assertThat(mine.remove(g)).as("gone already").isFalse();
            mine.checkInvariants();

            Block h = mine.ceiling(probe(0, 30 * 512L));
            mine.clear();
            assertThat(mine.remove(h)).as("after clear").isFalse();
            mine.checkInvariants();
        }

        @Test
        @DisplayName("an iterator fails fast after a change behind its back, and remove needs a next first")
        void failFast() {
            Keys keys = new Keys(1, 5, 1);
            FreeSet mine = new FreeSet(FreeSet.Order.STREAM_SIZE_ADDRESS);
            mine.addAll(keys.blocks);
            Iterator<Block> it = mine.iterator();
            assertThatThrownBy(it::remove).isInstanceOf(IllegalStateException.class);
            it.next();
            mine.remove(keys.blocks.get(3));
            assertThatThrownBy(it::next).isInstanceOf(ConcurrentModificationException.class);
            assertThatThrownBy(it::remove).isInstanceOf(ConcurrentModificationException.class);
            Iterator<Block> done = mine.iterator();
            while (done.hasNext()) done.next();
            assertThatThrownBy(done::next).isInstanceOf(NoSuchElementException.class);
            Iterator<Block> once = mine.iterator();
            once.next();
            once.remove();
            assertThatThrownBy(once::remove).isInstanceOf(IllegalStateException.class);
            Iterator<Block> view = mine.descendingIterator();
            assertThatThrownBy(view::remove).isInstanceOf(IllegalStateException.class);
            while (view.hasNext()) view.next();
            assertThatThrownBy(view::next).isInstanceOf(NoSuchElementException.class);
            assertThatThrownBy(() -> mine.descendingSet().subSet(keys.blocks.get(0), true, keys.blocks.get(0),
                    true).first()).isInstanceOf(NoSuchElementException.class);
            assertThatThrownBy(() -> mine.headSet(keys.blocks.get(0)).last())
                    .isInstanceOf(NoSuchElementException.class);
        }

        @Test
        @DisplayName("clear empties it; objects that are not blocks are never in it; chunks of 3 are refused")
        void clearAndOthers() {
            Keys keys = new Keys(2, 40, 3);
            FreeSet mine = new FreeSet(FreeSet.Order.STREAM_SIZE_ADDRESS, 8);
            mine.addAll(keys.blocks);
            assertThat(mine.chunkCount()).isGreaterThan(1);
            mine.clear();
            mine.checkInvariants();
            assertThat(mine).isEmpty();
            assertThat(mine.chunkCount()).isZero();
            assertThat(mine.pollFirst()).isNull();
            assertThat(mine.pollLast()).isNull();
            assertThat(mine.contains("seg0")).isFalse();
            assertThat(mine.remove("seg0")).isFalse();
            assertThat(mine.descendingSet().contains("seg0")).isFalse();
            assertThat(mine.tailSet(keys.blocks.get(0)).remove("seg0")).isFalse();
            mine.addAll(keys.blocks);
            assertThat(mine).hasSize(keys.blocks.size());
            assertThat(mine.order()).isEqualTo(FreeSet.Order.STREAM_SIZE_ADDRESS);
            assertThat(mine.comparator()).isSameAs(FreeSet.BY_STREAM_SIZE_ADDRESS);
            assertThat(new FreeSet(FreeSet.Order.STREAM_ADDRESS).comparator())
                    .isSameAs(FreeSet.BY_STREAM_ADDRESS);
            assertThatThrownBy(() -> new FreeSet(FreeSet.Order.STREAM_ADDRESS, 3))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("3");
        }

        @Test
        @DisplayName("chunks stay proportional to the blocks: emptied from the front, they merge")
        void chunksMerge() {
            Keys keys = new Keys(1, 200, 1);
            FreeSet mine = new FreeSet(FreeSet.Order.STREAM_SIZE_ADDRESS, 8);
            mine.addAll(keys.blocks);
            int full = mine.chunkCount();
            assertThat(full).isBetween(200 / 8, 200 / 4 + 1);
            for (int i = 0; i < 200; i += 2) mine.remove(keys.blocks.get(i));     // every other one
            mine.checkInvariants();
            assertThat(mine.chunkCount()).isLessThanOrEqualTo(100 / 2 + 1);
            for (int i = 1; i < 200; i += 4) mine.remove(keys.blocks.get(i));
            mine.checkInvariants();
            assertThat(mine.chunkCount()).isLessThan(full);
        }

        @Test
        @DisplayName("checkInvariants names a block whose key changed while it was in the set")
        void keyChanged() {
            Keys keys = new Keys(1, 10, 1);
            FreeSet mine = new FreeSet(FreeSet.Order.STREAM_SIZE_ADDRESS, 4);
            mine.addAll(keys.blocks);
            mine.checkInvariants();
            Block b = keys.blocks.get(3);
            b.size += 1;
            assertThatThrownBy(mine::checkInvariants).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("changed its key");
            b.size -= 1;
            Block c = keys.blocks.get(5);
            c.moveTo(c.offset + 1);
            assertThatThrownBy(mine::checkInvariants).hasMessageContaining("changed its key");
            FreeSet byAddress = new FreeSet(FreeSet.Order.STREAM_ADDRESS, 4);
            byAddress.add(c);
            c.moveTo(c.offset - 1);
            assertThatThrownBy(byAddress::checkInvariants).hasMessageContaining("changed its key");
        }
    }
}
