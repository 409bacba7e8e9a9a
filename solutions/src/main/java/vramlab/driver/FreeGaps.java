package vramlab.driver;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import vramlab.units.Bytes;

/**
 * The free gaps of a {@link UvaWindow}, by address: disjoint, never touching, ranges
 * {@code [start, end)}. It answers the window's first-fit question, "the lowest address at or
 * above {@code from}, a multiple of {@code alignment}, where {@code size} bytes are free", in
 * O(log n) of the gaps, whatever the window's history: walking the taken ranges from the bottom,
 * as the window once did, costs every range below the answer.
 *
 * <p>The gaps sit in a treap (a binary search tree by start, balanced by random priorities from
 * a fixed seed, so a run is repeatable). Each node also keeps, for its subtree, the longest gap
 * and the most room a range aligned to {@code unit} can have in one gap
 * ({@code end - alignUp(start, unit)}). A search skips any subtree whose bound is below the
 * size: with {@code alignment == unit} (every cudaMalloc, and every reservation at the default
 * alignment) the room is exact, so the search goes straight down to the answer; another
 * alignment is bounded by the length (smaller alignments) or the unit's room (larger ones), and
 * a gap that passes the bound but not the exact test costs a few more nodes.
 */
final class FreeGaps {
    private static final class Node {
        long start;
        long end;
        int priority;                                  // not final: a removed node is reused
        Node left;
        Node right;
        long maxLength;        // the longest gap in this subtree
        long maxRoom;          // the most end - alignUp(start, unit) in this subtree

        Node(long start, long end, int priority) {
            this.start = start;
            this.end = end;
            this.priority = priority;
        }
    }

    private final long unit;
    private Node root;
    private int count;
    private int seed = 0x9E3779B9;
    /**
     * Nodes {@link #remove} took out of the tree, kept for the next {@link #insert}: a replay
     * frees and takes a VA range per segment, which removes a gap and adds one, and each new
     * node was heap its long run never collects (issue 38). At most {@code SPARE} are kept.
     */
    private static final int SPARE = 16;
    private final Node[] spare = new Node[SPARE];
    private int spares;
    private Node removed;                                  // the node the last remove took out
    /** Nodes looked at by searches, splits and joins: the tests' step count. */
    long visits;

    FreeGaps(long unit) {
        if (!Bytes.isPowerOfTwo(unit)) throw new IllegalArgumentException("FreeGaps: unit " + unit);
        this.unit = unit;
    }

    /** How many gaps there are. */
    int size() { return count; }

    /**
     * The lowest {@code a >= from}, a multiple of {@code alignment}, with {@code [a, a + size)}
     * inside one gap; -1 when there is none.
     */
    long firstFit(long from, long size, long alignment) {
        Node n = leftmostFit(root, 0, from, size, alignment);
        found = n;
        return n == null ? -1 : Bytes.alignUp(Math.max(n.start, from), alignment);
    }

    /**
     * The leftmost gap in {@code n}'s subtree, {@code n} at {@code depth} below the root, where
     * {@code size} bytes fit at or above {@code from}: the gap that holds {@code from}, from there,
     * or one that starts above it. The one that holds {@code from} is the last gap at or below
     * it on the way down (the ones before it end below it), so one descent answers both. The
     * nodes it passes go into {@link #path}, so that the answer's ancestors are there when it is
     * found.
     */
    private Node leftmostFit(Node n, int depth, long from, long size, long alignment) {
        if (n == null) return null;
        visits++;
        if (bound(n, alignment) < size) return null;
        if (depth == path.length) path = Arrays.copyOf(path, 2 * depth);
        path[depth] = n;
        if (n.start <= from) {
            if (n.end > from && Bytes.alignUp(from, alignment) <= n.end - size) {    // holds from, and fits
                bestDepth = depth;
                return n;
            }
            return leftmostFit(n.right, depth + 1, from, size, alignment);
        }
        Node left = leftmostFit(n.left, depth + 1, from, size, alignment);
        if (left != null) return left;
        if (Bytes.alignUp(n.start, alignment) <= n.end - size) {
            bestDepth = depth;
            return n;
        }
        return leftmostFit(n.right, depth + 1, from, size, alignment);
    }

    /** No gap in {@code n}'s subtree has more room than this for {@code alignment}. */
    private long bound(Node n, long alignment) {
        return alignment < unit ? n.maxLength : n.maxRoom;
    }

    /**
     * The gap with the greatest start at or below {@code at}, or null; its path is left in
     * {@link #path}. The search also passes the gap with the least start above {@code at}, if
     * any (a search in a binary tree passes both neighbours of its key): that one is left in
     * {@link #above}, at {@code aboveDepth}.
     */
    private Node floor(long at) {
        Node best = null;
        above = null;
        int depth = 0;
        for (Node n = root; n != null; ) {
            visits++;
            if (depth == path.length) path = Arrays.copyOf(path, 2 * depth);
            path[depth++] = n;
            if (n.start <= at) {
                best = n;
                bestDepth = depth - 1;
                n = n.right;
            } else {
                above = n;
                aboveDepth = depth - 1;
                n = n.left;
            }
        }
        found = best;
        return best;
    }

    /**
     * The nodes from the root down that the last search passed: {@code path[0..bestDepth]} leads
     * to {@link #found}, its answer, and {@code path[0..aboveDepth]} to {@link #above}. Valid
     * until the tree's shape changes ({@link #insert}, {@link #remove}), which clear both.
     */
    private Node[] path = new Node[64];
    private int bestDepth;
    private Node found;
    private Node above;
    private int aboveDepth;

    /** After the last search's answer changed in place: its bounds and its ancestors'. */
    private void repull() { repull(bestDepth); }

    private void repull(int depth) {
        for (int k = depth; k >= 0; k--) pull(path[k]);
    }

    /** Whether {@code [start, start + size)} lies inside one gap. */
    boolean fits(long start, long size) {
        Node g = floor(start);
        return g != null && size > 0 && start + size <= g.end;
    }

    /**
     * {@code [start, end)}, free and inside one gap, is taken: the gap shrinks in place (a take
     * at a gap's start or end, the usual case) or splits in two.
     */
    void occupy(long start, long end) {
        if (end <= start) return;
        // the gap the last search found holds start (the take's usual case): it is floor(start),
        // with its path, and the tree need not be searched again
        Node g = found != null && found.start <= start && start < found.end ? found : floor(start);
        if (g == null || g.end < end) {
            throw new IllegalStateException("FreeGaps: [0x" + Long.toHexString(start) + ", 0x"
                    + Long.toHexString(end) + ") is not inside one free gap");
        }
        long gapStart = g.start, gapEnd = g.end;
        if (gapStart == start && gapEnd == end) {
            remove(gapStart);
        } else if (gapStart == start) {
            g.start = end;                                     // still between its neighbours
            repull();
        } else {
            g.end = start;
            repull();
            if (end < gapEnd) insert(end, gapEnd);
        }
    }

    /**
     * {@code [start, end)} is free again: it joins the gap that ends at its start and the one
     * that starts at its end, in place where it can.
     */
    void free(long start, long end) {
        if (end <= start) return;
        Node last = floor(end - 1);                            // the last gap that starts below end
        if (last != null && last.end > start) {
            throw new IllegalStateException("FreeGaps: [0x" + Long.toHexString(start) + ", 0x"
                    + Long.toHexString(end) + ") overlaps the free gap at 0x" + Long.toHexString(last.start));
        }
        boolean joinsBefore = last != null && last.end == start;
        Node after = above;                                    // the first gap that starts at or above end
        boolean joinsAfter = after != null && after.start == end;
        if (joinsBefore && joinsAfter) {
            long e = after.end;
            remove(after.start);
            floor(start).end = e;
            repull();
        } else if (joinsBefore) {
            last.end = end;                                    // last is floor(start), its path the search's
            repull();
        } else if (joinsAfter) {
            after.start = start;                               // still after last, so in its place
            repull(aboveDepth);
        } else {
            insert(start, end);
        }
    }

    private void insert(long start, long end) {
        seed ^= seed << 13;                                    // xorshift32: repeatable priorities
        seed ^= seed >>> 17;
        seed ^= seed << 5;
        root = insert(root, node(start, end, seed));
        count++;
        found = above = null;                                  // the paths are stale
    }

    /**
     * {@code n}'s subtree with {@code x} in it: down by start while {@code x}'s priority is not
     * above, then {@code x} takes the place there and the subtree below is split between its
     * sides. The priorities are distinct, so this is the one treap of those gaps and priorities,
     * the tree that splitting the whole tree at {@code x} and merging it back would make.
     */
    private Node insert(Node n, Node x) {
        if (n == null) return pull(x);
        visits++;
        if (x.priority > n.priority) {
            Node[] lr = split(n, x.start);
            x.left = lr[0];
            x.right = lr[1];
            return pull(x);
        }
        if (x.start < n.start) n.left = insert(n.left, x);
        else n.right = insert(n.right, x);
        return pull(n);
    }

    /** A node for the gap {@code [start, end)}: a spare one, or a new one. */
    private Node node(long start, long end, int priority) {
        if (spares == 0) return new Node(start, end, priority);
        Node n = spare[--spares];
        spare[spares] = null;
        n.start = start;
        n.end = end;
        n.priority = priority;
        return n;                                          // left, right: cleared when kept
    }

    private void remove(long start) {
        root = remove(root, start);
        count--;
        found = above = null;                              // no reference to the removed node is left
        if (spares < SPARE) {
            removed.left = removed.right = null;
            spare[spares++] = removed;
        }
        removed = null;
    }

    /** {@code n}'s subtree without the gap at {@code start}, which is in it: its two sides merged in its place. */
    private Node remove(Node n, long start) {
        visits++;
        if (start < n.start) {
            n.left = remove(n.left, start);
            return pull(n);
        }
        if (start > n.start) {
            n.right = remove(n.right, start);
            return pull(n);
        }
        removed = n;
        return merge(n.left, n.right);
    }

    /** {@code n} split into the gaps starting below {@code key} and the rest. */
    private Node[] split(Node n, long key) {
        if (n == null) return new Node[2];
        visits++;
        if (n.start < key) {
            Node[] r = split(n.right, key);
            n.right = r[0];
            r[0] = pull(n);
            return r;
        }
        Node[] l = split(n.left, key);
        n.left = l[1];
        l[1] = pull(n);
        return l;
    }

    /** Every gap of {@code a} lies below every gap of {@code b}. */
    private Node merge(Node a, Node b) {
        if (a == null) return b;
        if (b == null) return a;
        visits++;
        if (a.priority > b.priority) {
            a.right = merge(a.right, b);
            return pull(a);
        }
        b.left = merge(a, b.left);
        return pull(b);
    }

    private Node pull(Node n) {
        long length = n.end - n.start;
        long room = n.end - Bytes.alignUp(n.start, unit);
        if (n.left != null) {
            length = Math.max(length, n.left.maxLength);
            room = Math.max(room, n.left.maxRoom);
        }
        if (n.right != null) {
            length = Math.max(length, n.right.maxLength);
            room = Math.max(room, n.right.maxRoom);
        }
        n.maxLength = length;
        n.maxRoom = room;
        return n;
    }

    /** One free gap, {@code [start, end)}. */
    record Gap(long start, long end) {}

    /** The gaps in address order (a copy). */
    List<Gap> gaps() {
        List<Gap> out = new ArrayList<>(count);
        collect(root, out);
        return out;
    }

    private static void collect(Node n, List<Gap> out) {
        if (n == null) return;
        collect(n.left, out);
        out.add(new Gap(n.start, n.end));
        collect(n.right, out);
    }

    /** The tree's height (the longest path from the root): what a search can cost. */
    int height() { return height(root); }

    private static int height(Node n) { return n == null ? 0 : 1 + Math.max(height(n.left), height(n.right)); }

    /** Order, heap order, the subtree bounds, the count; gaps neither empty nor touching. */
    void checkInvariants() {
        int[] seen = new int[1];
        check(root, Long.MIN_VALUE, Long.MAX_VALUE, Integer.MAX_VALUE, seen);
        if (seen[0] != count) throw new IllegalStateException("FreeGaps: " + seen[0] + " nodes, count " + count);
        long last = Long.MIN_VALUE;
        for (Gap g : gaps()) {
            if (g.start() >= g.end() || (last != Long.MIN_VALUE && g.start() <= last)) {
                throw new IllegalStateException("FreeGaps: gap [0x" + Long.toHexString(g.start()) + ", 0x"
                        + Long.toHexString(g.end()) + ") is empty or touches the one before");
            }
            last = g.end();
        }
    }

    private void check(Node n, long low, long high, int priority, int[] seen) {
        if (n == null) return;
        seen[0]++;
        long length = n.maxLength, room = n.maxRoom;
        if (n.start < low || n.start > high || n.priority > priority
                || pull(n).maxLength != length || n.maxRoom != room) {
            throw new IllegalStateException("FreeGaps: node [0x" + Long.toHexString(n.start) + ", 0x"
                    + Long.toHexString(n.end) + ") out of order or with stale bounds");
        }
        check(n.left, low, n.start - 1, n.priority, seen);
        check(n.right, n.start + 1, high, n.priority, seen);
    }
}
