package vramlab.alloc;

import java.util.AbstractSet;
import java.util.Collections;
import java.util.Comparator;
import java.util.Iterator;
import java.util.NavigableSet;
import java.util.NoSuchElementException;

/**
 * A live range of a {@link FreeSet}, ascending or descending, as {@code TreeSet}'s
 * {@code subSet}, {@code headSet}, {@code tailSet} and {@code descendingSet} are: bounds in
 * the set's own order (null for none), every call answered by the set's own navigation.
 * Its size is counted by walking it, as a {@code TreeSet} view's is.
 */
final class FreeSetView extends AbstractSet<Block> implements NavigableSet<Block> {
    private final FreeSet set;
    private final Block lo, hi;               // null: unbounded on that side
    private final boolean loInclusive, hiInclusive;
    private final boolean descending;

    FreeSetView(FreeSet set, Block lo, boolean loInclusive, Block hi, boolean hiInclusive,
                boolean descending) {
        this.set = set;
        this.lo = lo;
        this.loInclusive = loInclusive;
        this.hi = hi;
        this.hiInclusive = hiInclusive;
        this.descending = descending;
    }

    private int cmp(Block x, Block y) { return set.comparator().compare(x, y); }

    private boolean tooLow(Block e) {
        if (lo == null) return false;
        int c = cmp(e, lo);
        return c < 0 || c == 0 && !loInclusive;
    }

    private boolean tooHigh(Block e) {
        if (hi == null) return false;
        int c = cmp(e, hi);
        return c > 0 || c == 0 && !hiInclusive;
    }

    private boolean inRange(Block e) { return !tooLow(e) && !tooHigh(e); }

    /** A new bound must lie inside this view (an exclusive one may sit on an exclusive bound). */
    private void checkBound(Block e, boolean inclusive) {
        boolean outside = inclusive ? !inRange(e)
                : lo != null && cmp(e, lo) < 0 || hi != null && cmp(e, hi) > 0;
        if (outside) throw new IllegalArgumentException("key out of range: " + e);
    }

    // ---- navigation in the set's own order --------------------------------------------------

    private Block inHi(Block e) { return e == null || tooHigh(e) ? null : e; }
    private Block inLo(Block e) { return e == null || tooLow(e) ? null : e; }

    private Block lowest() {
        if (lo == null) return inHi(set.isEmpty() ? null : set.first());
        return inHi(loInclusive ? set.ceiling(lo) : set.higher(lo));
    }

    private Block highest() {
        if (hi == null) return inLo(set.isEmpty() ? null : set.last());
        return inLo(hiInclusive ? set.floor(hi) : set.lower(hi));
    }

    private Block absCeiling(Block e) { return tooLow(e) ? lowest() : inHi(set.ceiling(e)); }
    private Block absHigher(Block e) { return tooLow(e) ? lowest() : inHi(set.higher(e)); }
    private Block absFloor(Block e) { return tooHigh(e) ? highest() : inLo(set.floor(e)); }
    private Block absLower(Block e) { return tooHigh(e) ? highest() : inLo(set.lower(e)); }

    // ---- NavigableSet, in this view's order -------------------------------------------------

    @Override public Block ceiling(Block e) { return descending ? absFloor(e) : absCeiling(e); }
    @Override public Block higher(Block e) { return descending ? absLower(e) : absHigher(e); }
    @Override public Block floor(Block e) { return descending ? absCeiling(e) : absFloor(e); }
    @Override public Block lower(Block e) { return descending ? absHigher(e) : absLower(e); }

    @Override
    public Block first() {
        Block b = descending ? highest() : lowest();
        if (b == null) throw new NoSuchElementException();
        return b;
    }

    @Override
    public Block last() {
        Block b = descending ? lowest() : highest();
        if (b == null) throw new NoSuchElementException();
        return b;
    }

    @Override
    public Block pollFirst() {
        Block b = descending ? highest() : lowest();
        if (b != null) set.remove(b);
        return b;
    }

    @Override
    public Block pollLast() {
        Block b = descending ? lowest() : highest();
        if (b != null) set.remove(b);
        return b;
    }

    @Override
    public boolean contains(Object o) {
        return o instanceof Block && inRange((Block) o) && set.contains(o);
    }

    @Override
    public boolean add(Block e) {
        if (!inRange(e)) throw new IllegalArgumentException("key out of range: " + e);
        return set.add(e);
    }

    @Override
    public boolean remove(Object o) { return o instanceof Block && inRange((Block) o) && set.remove(o); }

    @Override
    public int size() {
        int n = 0;
        for (Block b = lowest(); b != null; b = absHigher(b)) n++;
        return n;
    }

    @Override
    public boolean isEmpty() { return lowest() == null; }

    @Override
    public Iterator<Block> iterator() {
        return new Iterator<>() {
            private Block next = descending ? highest() : lowest();
            private Block lastReturned;

            @Override
            public boolean hasNext() { return next != null; }

            @Override
            public Block next() {
                if (next == null) throw new NoSuchElementException();
                lastReturned = next;
                next = descending ? absLower(next) : absHigher(next);
                return lastReturned;
            }

            @Override
            public void remove() {
                if (lastReturned == null) throw new IllegalStateException();
                set.remove(lastReturned);
                lastReturned = null;
            }
        };
    }

    @Override
    public Iterator<Block> descendingIterator() { return descendingSet().iterator(); }

    @Override
    public Comparator<? super Block> comparator() {
        Comparator<? super Block> c = set.comparator();
        return descending ? Collections.reverseOrder(c) : c;
    }

    @Override
    public NavigableSet<Block> descendingSet() {
        return new FreeSetView(set, lo, loInclusive, hi, hiInclusive, !descending);
    }

    @Override
    public NavigableSet<Block> subSet(Block from, boolean fromInclusive, Block to, boolean toInclusive) {
        if (comparator().compare(from, to) > 0) throw new IllegalArgumentException("fromKey > toKey");
        checkBound(from, fromInclusive);
        checkBound(to, toInclusive);
        return descending ? new FreeSetView(set, to, toInclusive, from, fromInclusive, true)
                : new FreeSetView(set, from, fromInclusive, to, toInclusive, false);
    }

    @Override
    public NavigableSet<Block> headSet(Block to, boolean inclusive) {
        checkBound(to, inclusive);
        return descending ? new FreeSetView(set, to, inclusive, hi, hiInclusive, true)
                : new FreeSetView(set, lo, loInclusive, to, inclusive, false);
    }

    @Override
    public NavigableSet<Block> tailSet(Block from, boolean inclusive) {
        checkBound(from, inclusive);
        return descending ? new FreeSetView(set, lo, loInclusive, from, inclusive, true)
                : new FreeSetView(set, from, inclusive, hi, hiInclusive, false);
    }

    @Override public NavigableSet<Block> subSet(Block from, Block to) { return subSet(from, true, to, false); }
    @Override public NavigableSet<Block> headSet(Block to) { return headSet(to, false); }
    @Override public NavigableSet<Block> tailSet(Block from) { return tailSet(from, true); }
}
