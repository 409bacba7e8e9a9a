package vramlab.kv;

import java.util.ArrayList;
import java.util.List;

/**
 * vLLM's {@code FreeKVCacheBlockQueue} ({@code vllm/v1/core/kv_cache_utils.py} @bbf906a8): a doubly
 * linked list of block ids threaded through arrays, so that a block can leave from the front
 * or from the middle in O(1). It starts in block-id order.
 *
 * <p>Invariant: following {@code next} from the head visits each queued block once, the
 * {@code prev} links mirror it, and {@code size} counts them.
 */
public final class FreeBlockQueue {
    private static final int NONE = -1;
    private final int[] prev;
    private final int[] next;
    private final boolean[] queued;
    private int head = NONE;
    private int tail = NONE;
    private int size;

    /** A queue of blocks {@code 0 .. numBlocks-1}, in id order. */
    public FreeBlockQueue(int numBlocks) {
        prev = new int[numBlocks];
        next = new int[numBlocks];
        queued = new boolean[numBlocks];
        for (int id = 0; id < numBlocks; id++) append(id);
    }

    public int size() { return size; }
    public boolean contains(int id) { return queued[id]; }

    /** Takes the block at the front (the one to reuse first). */
    public int popLeft() {
        if (head == NONE) throw new IllegalStateException("popLeft: no free block");
        int id = head;
        remove(id);
        return id;
    }

    /** Puts a block at the back: reused last. */
    public void append(int id) {
        requireOut(id);
        prev[id] = tail;
        next[id] = NONE;
        if (tail == NONE) head = id; else next[tail] = id;
        tail = id;
        queued[id] = true;
        size++;
    }

    /** Puts a block at the front: reused first. */
    public void prepend(int id) {
        requireOut(id);
        next[id] = head;
        prev[id] = NONE;
        if (head == NONE) tail = id; else prev[head] = id;
        head = id;
        queued[id] = true;
        size++;
    }

    /** Takes a block out of the queue wherever it is. */
    public void remove(int id) {
        if (!queued[id]) throw new IllegalArgumentException("remove(" + id + "): block is not in the free queue");
        if (prev[id] == NONE) head = next[id]; else next[prev[id]] = next[id];
        if (next[id] == NONE) tail = prev[id]; else prev[next[id]] = prev[id];
        queued[id] = false;
        size--;
    }

    private void requireOut(int id) {
        if (queued[id]) throw new IllegalArgumentException("block " + id + " is already in the free queue");
    }

    /** The queued ids, front first. */
    public List<Integer> toList() {
        List<Integer> ids = new ArrayList<>();
        for (int id = head; id != NONE; id = next[id]) ids.add(id);
        return ids;
    }

    public void checkInvariants() {
        int count = 0, last = NONE;
        for (int id = head; id != NONE; id = next[id]) {
            if (!queued[id] || prev[id] != last || count > size) {
                throw new IllegalStateException("free queue links broken at block " + id + ": " + toList());
            }
            last = id;
            count++;
        }
        if (count != size || last != tail) throw new IllegalStateException("free queue size " + size + " but " + count + " linked");
    }

    @Override
    public String toString() { return toList().toString(); }
}
