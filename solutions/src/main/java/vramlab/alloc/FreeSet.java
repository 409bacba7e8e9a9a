package vramlab.alloc;

import java.util.AbstractSet;
import java.util.Comparator;
import java.util.ConcurrentModificationException;
import java.util.Iterator;
import java.util.NavigableSet;
import java.util.NoSuchElementException;

/**
 * One pool's free blocks (or its unmapped ranges) in the order PyTorch's pools keep them: a
 * {@link NavigableSet} with exactly the {@code TreeSet} semantics of
 * {@link #BY_STREAM_SIZE_ADDRESS} (or {@link #BY_STREAM_ADDRESS}),
 * so {@code ceiling} is the {@code lower_bound} of CCA get_free_block and best fit picks the
 * same block; what differs is only how the blocks are stored.
 *
 * <p>The kit's own structure, for speed at 100k blocks and more: a sorted list of chunks,
 * each a sorted run of at most {@link #CHUNK} blocks whose keys (stream, size, address) sit
 * side by side in one array of longs, plus the last key of every chunk. A search is a binary
 * search over those last keys and then one inside a chunk: contiguous arrays instead of one
 * tree node and one block per level, which is where a {@code TreeSet} spends its time (a
 * short run of one stream's keys is scanned rather than halved: see {@link #search}). A
 * full chunk splits in half; a chunk that falls under a quarter merges with a neighbour when
 * the two fit in three quarters, so the number of chunks stays proportional to the blocks.
 * Each block in a chunk points back to it, and each chunk knows its place, so removing a
 * block that is in the set (what a merge does twice per free) needs no search: a look along
 * one chunk for the block itself. Anything else (a block with an equal key, a block not
 * there) is looked for by key, as a {@code TreeSet} would.
 *
 * <p>As in a {@code TreeSet}, a block is found by its key, so its {@code size} and
 * {@code address} must not change while it is in the set; {@link #checkInvariants()} checks
 * that they have not. The views ({@code subSet}, {@code headSet}, {@code tailSet},
 * {@code descendingSet}) are live, as {@code TreeSet}'s are, and step by search.
 */
public final class FreeSet extends AbstractSet<Block> implements NavigableSet<Block> {
    /** Free blocks ordered as PyTorch orders its pools: (stream, size, address) (CCA:746-754). */
    static final Comparator<Block> BY_STREAM_SIZE_ADDRESS = (a, b) -> {
        // Written out rather than chained: this runs log n times per alloc and free.
        if (a.stream != b.stream) return Integer.compare(a.stream, b.stream);
        if (a.size != b.size) return Long.compare(a.size, b.size);
        return Long.compare(a.address, b.address);
    };

    /** Unmapped ranges of expandable segments: (stream, address), lowest address first. */
    static final Comparator<Block> BY_STREAM_ADDRESS = (a, b) -> a.stream != b.stream
            ? Integer.compare(a.stream, b.stream)
            : Long.compare(a.address, b.address);

    /** The most blocks one chunk holds (tests make smaller ones to reach the edges). */
    static final int CHUNK = 32;

    /** Which key a set orders by, after the stream. */
    public enum Order {
        /** A pool's free blocks: (stream, size, address). */
        STREAM_SIZE_ADDRESS,
        /** A pool's unmapped ranges of expandable segments: (stream, address). */
        STREAM_ADDRESS
    }

    /** A sorted run of blocks and their keys, each key (stream, k1, k2) in three adjacent longs. */
    static final class Chunk {
        int n;
        int pos = -1;                  // where its set holds it in chunks[] (checked before use)
        final long[] keys;
        final Block[] blocks;

        Chunk(int capacity) {
            keys = new long[3 * capacity];
            blocks = new Block[capacity];
        }

        int stream(int i) { return (int) keys[3 * i]; }
        long k1(int i) { return keys[3 * i + 1]; }
        long k2(int i) { return keys[3 * i + 2]; }

        int compareAt(int i, int s, long a, long b) {
            int j = 3 * i;
            return compare((int) keys[j], keys[j + 1], keys[j + 2], s, a, b);
        }

        void insert(int i, int s, long a, long b, Block block) {
            System.arraycopy(keys, 3 * i, keys, 3 * i + 3, 3 * (n - i));
            System.arraycopy(blocks, i, blocks, i + 1, n - i);
            keys[3 * i] = s;
            keys[3 * i + 1] = a;
            keys[3 * i + 2] = b;
            blocks[i] = block;
            block.freeChunk = this;
            n++;
        }

        /** Where {@code block} itself sits in this chunk, or -1. */
        int indexOf(Block block) {
            for (int i = 0; i < n; i++) if (blocks[i] == block) return i;
            return -1;
        }

        void delete(int i) {
            blocks[i].freeChunk = null;
            int tail = n - i - 1;
            System.arraycopy(keys, 3 * i + 3, keys, 3 * i, 3 * tail);
            System.arraycopy(blocks, i + 1, blocks, i, tail);
            n--;
            blocks[n] = null;
        }

        /** Appends {@code from}'s entries {@code [start, from.n)} to this chunk. */
        void append(Chunk from, int start) {
            int len = from.n - start;
            System.arraycopy(from.keys, 3 * start, keys, 3 * n, 3 * len);
            System.arraycopy(from.blocks, start, blocks, n, len);
            for (int k = n; k < n + len; k++) blocks[k].freeChunk = this;
            n += len;
        }

        /** Moves entries {@code [start, n)} into a new chunk. */
        Chunk splitOff(int start) {
            Chunk right = new Chunk(blocks.length);
            right.append(this, start);
            java.util.Arrays.fill(blocks, start, n, null);
            n = start;
            return right;
        }
    }

    private final Order order;
    private final boolean bySize;
    private final int max;                       // blocks per chunk at most
    // package-private so that tests can break the books on purpose, as a bug would
    Chunk[] chunks = new Chunk[4];
    long[] last = new long[3 * 4];               // the last key of each chunk, three longs each
    int count;                                   // chunks in use
    int size;
    private int modCount;

    public FreeSet(Order order) { this(order, CHUNK); }

    FreeSet(Order order, int chunkCapacity) {
        if (chunkCapacity < 4) {
            throw new IllegalArgumentException("chunks of " + chunkCapacity + " blocks: at least 4");
        }
        this.order = order;
        this.bySize = order == Order.STREAM_SIZE_ADDRESS;
        this.max = chunkCapacity;
    }

    public Order order() { return order; }

    private long key1(Block b) { return bySize ? b.size : b.address; }
    private long key2(Block b) { return bySize ? b.address : 0; }

    static int compare(int s1, long a1, long b1, int s2, long a2, long b2) {
        if (s1 != s2) return Integer.compare(s1, s2);
        if (a1 != a2) return Long.compare(a1, a2);
        return Long.compare(b1, b2);
    }

    /** The first chunk whose last key is at or after (or, when {@code strict}, after) the key. */
    private int chunkFor(int s, long a, long b, boolean strict) {
        return search(last, count, s, a, b, strict);
    }

    /** The first index in {@code ch} whose key is at or after (when {@code strict}: after) the key. */
    private static int indexIn(Chunk ch, int s, long a, long b, boolean strict) {
        return search(ch.keys, ch.n, s, a, b, strict);
    }

    /** Up to this many keys, a search of one stream's keys scans instead of halving. */
    static final int SCAN_MAX = 64;

    /**
     * The first of {@code n} keys of three longs each at or after (when {@code strict}: after)
     * (s, a, b). Keys of one stream (nearly every search) are scanned when there are at most
     * {@link #SCAN_MAX}: under the launcher's C1 a scan, whose one branch per key the processor
     * predicts, beat halving by a third at 32 keys and still by a tenth at a hundred, since
     * each halving step is a branch it mispredicts half the time.
     */
    private static int search(long[] k, int n, int s, long a, long b, boolean strict) {
        if (n > 0 && n <= SCAN_MAX && (int) k[0] == s && (int) k[3 * (n - 1)] == s) return scan(k, n, a, b, strict);
        return halve(k, n, s, a, b, strict);
    }

    /** {@link #search} over keys all of one stream, one after another. */
    static int scan(long[] k, int n, long a, long b, boolean strict) {
        int i = 0;
        while (i < n && k[3 * i + 1] < a) i++;
        if (strict) {
            while (i < n && k[3 * i + 1] == a && k[3 * i + 2] <= b) i++;
        } else {
            while (i < n && k[3 * i + 1] == a && k[3 * i + 2] < b) i++;
        }
        return i;
    }

    /**
     * {@link #search} by binary search. Written out, with the keys' array in a local, so that
     * the launcher's C1 compiles it without a call or a field load per step.
     */
    static int halve(long[] k, int n, int s, long a, long b, boolean strict) {
        int lo = 0, hi = n;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            int j = 3 * mid;
            int ks = (int) k[j];
            boolean before;
            if (ks != s) {
                before = ks < s;
            } else {
                long ka = k[j + 1];
                if (ka != a) before = ka < a;
                else before = strict ? k[j + 2] <= b : k[j + 2] < b;
            }
            if (before) lo = mid + 1;
            else hi = mid;
        }
        return lo;
    }

    private void setLast(int c) {
        Chunk ch = chunks[c];
        System.arraycopy(ch.keys, 3 * (ch.n - 1), last, 3 * c, 3);
    }

    private void insertChunk(int c, Chunk ch) {
        if (count == chunks.length) {
            int cap = 2 * count;
            chunks = java.util.Arrays.copyOf(chunks, cap);
            last = java.util.Arrays.copyOf(last, 3 * cap);
        }
        int tail = count - c;
        System.arraycopy(chunks, c, chunks, c + 1, tail);
        System.arraycopy(last, 3 * c, last, 3 * c + 3, 3 * tail);
        chunks[c] = ch;
        count++;
        renumber(c);
        setLast(c);
    }

    private void deleteChunk(int c) {
        chunks[c].pos = -1;
        int tail = count - c - 1;
        System.arraycopy(chunks, c + 1, chunks, c, tail);
        System.arraycopy(last, 3 * c + 3, last, 3 * c, 3 * tail);
        count--;
        chunks[count] = null;
        renumber(c);
    }

    /** Chunks from {@code c} on moved: each learns its new place. */
    private void renumber(int c) {
        for (int k = c; k < count; k++) chunks[k].pos = k;
    }

    // ---- navigation: TreeSet's, by key ------------------------------------------------------

    /** The smallest block at or after the key; null when none ({@code lower_bound}). */
    private Block atOrAfter(int s, long a, long b, boolean strict) {
        int c = chunkFor(s, a, b, strict);
        if (c == count) return null;
        Chunk ch = chunks[c];
        return ch.blocks[indexIn(ch, s, a, b, strict)];
    }

    /** The largest block before (when {@code inclusive}: at or before) the key; null when none. */
    private Block before(int s, long a, long b, boolean inclusive) {
        int c = chunkFor(s, a, b, inclusive);
        if (c == count) return count == 0 ? null : last();
        Chunk ch = chunks[c];
        int i = indexIn(ch, s, a, b, inclusive);
        if (i > 0) return ch.blocks[i - 1];
        if (c == 0) return null;
        Chunk prev = chunks[c - 1];
        return prev.blocks[prev.n - 1];
    }

    @Override
    public Block ceiling(Block e) { return atOrAfter(e.stream, key1(e), key2(e), false); }

    @Override
    public Block higher(Block e) { return atOrAfter(e.stream, key1(e), key2(e), true); }

    @Override
    public Block floor(Block e) { return before(e.stream, key1(e), key2(e), true); }

    @Override
    public Block lower(Block e) { return before(e.stream, key1(e), key2(e), false); }

    @Override
    public Block first() {
        if (count == 0) throw new NoSuchElementException();
        return chunks[0].blocks[0];
    }

    @Override
    public Block last() {
        if (count == 0) throw new NoSuchElementException();
        Chunk ch = chunks[count - 1];
        return ch.blocks[ch.n - 1];
    }

    @Override
    public Block pollFirst() {
        if (count == 0) return null;
        Block b = first();
        remove(b);
        return b;
    }

    @Override
    public Block pollLast() {
        if (count == 0) return null;
        Block b = last();
        remove(b);
        return b;
    }

    @Override
    public int size() { return size; }

    @Override
    public boolean contains(Object o) {
        if (!(o instanceof Block)) return false;
        Block e = (Block) o;
        Block found = atOrAfter(e.stream, key1(e), key2(e), false);
        return found != null && compareTo(found, e) == 0;
    }

    private int compareTo(Block x, Block y) {
        return compare(x.stream, key1(x), key2(x), y.stream, key1(y), key2(y));
    }

    // ---- changes ----------------------------------------------------------------------------

    /** Adds the block unless one with its key is there already (then false, as a TreeSet). */
    @Override
    public boolean add(Block e) {
        int s = e.stream;
        long a = key1(e), b = key2(e);
        if (count == 0) {
            Chunk ch = new Chunk(max);
            ch.insert(0, s, a, b, e);
            insertChunk(0, ch);
            size++;
            modCount++;
            return true;
        }
        int c = Math.min(chunkFor(s, a, b, false), count - 1);   // past every key: the last chunk
        Chunk ch = chunks[c];
        int i = indexIn(ch, s, a, b, false);
        if (i < ch.n && ch.compareAt(i, s, a, b) == 0) return false;
        if (ch.n == max) {                                   // full: split in half first
            Chunk right = ch.splitOff(max / 2);
            setLast(c);
            insertChunk(c + 1, right);
            if (i > ch.n) {
                i -= ch.n;
                ch = right;
                c++;
            }
        }
        ch.insert(i, s, a, b, e);
        if (i == ch.n - 1) setLast(c);
        size++;
        modCount++;
        return true;
    }

    @Override
    public boolean remove(Object o) {
        if (!(o instanceof Block)) return false;
        Block e = (Block) o;
        int s = e.stream;
        long a = key1(e), b = key2(e);
        int c, i;
        Chunk ch = e.freeChunk;
        if (ch != null && ch.pos >= 0 && ch.pos < count && chunks[ch.pos] == ch
                && (i = ch.indexOf(e)) >= 0 && ch.compareAt(i, s, a, b) == 0) {
            c = ch.pos;                                      // the block itself, key unchanged: no search
        } else {
            c = chunkFor(s, a, b, false);
            if (c == count) return false;
            ch = chunks[c];
            i = indexIn(ch, s, a, b, false);
            if (ch.compareAt(i, s, a, b) != 0) return false;
        }
        ch.delete(i);
        size--;
        modCount++;
        if (ch.n == 0) deleteChunk(c);
        else if (ch.n < max / 4) mergeSmall(c);
        else if (i == ch.n) setLast(c);
        return true;
    }

    /** A chunk under a quarter full joins a neighbour when the two fit in three quarters. */
    private void mergeSmall(int c) {
        Chunk ch = chunks[c];
        if (c + 1 < count && ch.n + chunks[c + 1].n <= 3 * max / 4) {
            ch.append(chunks[c + 1], 0);
            deleteChunk(c + 1);
        } else if (c > 0 && chunks[c - 1].n + ch.n <= 3 * max / 4) {
            chunks[c - 1].append(ch, 0);
            deleteChunk(c);
            c--;
        }
        setLast(c);
    }

    @Override
    public void clear() {
        for (int c = 0; c < count; c++) {
            Chunk ch = chunks[c];
            for (int i = 0; i < ch.n; i++) ch.blocks[i].freeChunk = null;
            ch.pos = -1;
        }
        java.util.Arrays.fill(chunks, 0, count, null);
        count = 0;
        size = 0;
        modCount++;
    }

    // ---- iteration and views ----------------------------------------------------------------

    /** Ascending; fail-fast on a change not made through the iterator, as TreeSet's is. */
    @Override
    public Iterator<Block> iterator() {
        return new Iterator<>() {
            private int c, i;                      // the position of the next block
            private Block lastReturned;
            private int expected = modCount;

            @Override
            public boolean hasNext() { return c < count; }

            @Override
            public Block next() {
                if (modCount != expected) throw new ConcurrentModificationException();
                if (c >= count) throw new NoSuchElementException();
                Chunk ch = chunks[c];
                lastReturned = ch.blocks[i];
                if (++i == ch.n) {
                    c++;
                    i = 0;
                }
                return lastReturned;
            }

            @Override
            public void remove() {
                if (lastReturned == null) throw new IllegalStateException();
                if (modCount != expected) throw new ConcurrentModificationException();
                Block gone = lastReturned;
                FreeSet.this.remove(gone);
                lastReturned = null;
                expected = modCount;
                c = chunkFor(gone.stream, key1(gone), key2(gone), false);   // the next block's place
                i = c == count ? 0 : indexIn(chunks[c], gone.stream, key1(gone), key2(gone), false);
            }
        };
    }

    @Override
    public Iterator<Block> descendingIterator() { return descendingSet().iterator(); }

    @Override
    public Comparator<? super Block> comparator() {
        return bySize ? BY_STREAM_SIZE_ADDRESS : BY_STREAM_ADDRESS;
    }

    @Override
    public NavigableSet<Block> descendingSet() {
        return new FreeSetView(this, null, false, null, false, true);
    }

    @Override
    public NavigableSet<Block> subSet(Block from, boolean fromInclusive, Block to, boolean toInclusive) {
        if (compareTo(from, to) > 0) throw new IllegalArgumentException("fromKey > toKey");
        return new FreeSetView(this, from, fromInclusive, to, toInclusive, false);
    }

    @Override
    public NavigableSet<Block> headSet(Block to, boolean inclusive) {
        return new FreeSetView(this, null, false, to, inclusive, false);
    }

    @Override
    public NavigableSet<Block> tailSet(Block from, boolean inclusive) {
        return new FreeSetView(this, from, inclusive, null, false, false);
    }

    @Override
    public NavigableSet<Block> subSet(Block from, Block to) { return subSet(from, true, to, false); }

    @Override
    public NavigableSet<Block> headSet(Block to) { return headSet(to, false); }

    @Override
    public NavigableSet<Block> tailSet(Block from) { return tailSet(from, true); }

    // ---- checks -------------------------------------------------------------------------------

    /** How many chunks hold the blocks (for tests of the merge rule). */
    int chunkCount() { return count; }

    /**
     * Keys strictly increasing within and across chunks, each equal to its block's current key,
     * no chunk empty or over its capacity, the last keys and the size right, and no reference
     * left to a removed block or chunk (it would keep a freed block alive).
     */
    public void checkInvariants() {
        int total = 0;
        boolean any = false;
        int ps = 0;
        long pa = 0, pb = 0;
        for (int c = 0; c < count; c++) {
            Chunk ch = chunks[c];
            if (ch.n <= 0 || ch.n > max) fail("chunk " + c + " holds " + ch.n + " blocks");
            if (ch.pos != c) fail("chunk " + c + " thinks it is at " + ch.pos);
            for (int i = 0; i < ch.n; i++) {
                Block blk = ch.blocks[i];
                if (ch.stream(i) != blk.stream || ch.k1(i) != key1(blk) || ch.k2(i) != key2(blk)) {
                    fail("block " + blk + " changed its key while in the set");
                }
                if (any && ch.compareAt(i, ps, pa, pb) <= 0) {
                    fail("blocks out of order at " + blk);
                }
                any = true;
                ps = ch.stream(i);
                pa = ch.k1(i);
                pb = ch.k2(i);
            }
            if ((int) last[3 * c] != ps || last[3 * c + 1] != pa || last[3 * c + 2] != pb) {
                fail("chunk " + c + ": stale last key");
            }
            for (int i = ch.n; i < ch.blocks.length; i++) {
                if (ch.blocks[i] != null) fail("chunk " + c + " still holds a removed block at " + i);
            }
            total += ch.n;
        }
        if (total != size) fail("size " + size + " but " + total + " blocks held");
        for (int c = count; c < chunks.length; c++) {
            if (chunks[c] != null) fail("a removed chunk is still held at " + c);
        }
    }

    private static void fail(String what) { throw new IllegalStateException("free set: " + what); }
}
