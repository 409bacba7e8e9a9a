package vramlab.trace;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The handles a replay is tracking, interned to dense ints: each handle gets the smallest free
 * id while it is tracked, and gives it back when {@link #remove removed}, so ids (and the
 * arrays a replay indexes by them) stay as few as the handles tracked at once, however long
 * the trace. A handle is kept as its UTF-8 bytes (and its string, made when first asked for),
 * and looked up by a {@code String} or straight from a reader's byte buffer, with no string
 * made for the lookup. Open addressing with linear probing and backward-shift deletion (no
 * tombstones).
 */
public final class Handles {
    private static final int EMPTY = -1;

    private int[] slots = new int[64];          // slot -> id, EMPTY when unused
    private byte[][] keys = new byte[32][];     // id -> the handle's UTF-8 bytes; null when the id is free
    private String[] names = new String[32];    // id -> the handle, once asked for
    private int[] hashes = new int[32];         // id -> its spread hash
    private int[] freeIds = new int[32];        // a stack of returned ids
    private int freeCount;
    private int nextId;
    private int size;

    public Handles() { Arrays.fill(slots, EMPTY); }

    /** How many handles are tracked. */
    public int size() { return size; }

    /** One more than the largest id handed out so far: the length arrays indexed by id need. */
    public int idLimit() { return nextId; }

    /** The handle that has this id. */
    public String name(int id) {
        String n = names[id];
        if (n == null) names[id] = n = new String(keys[id], StandardCharsets.UTF_8);
        return n;
    }

    /** The id of {@code handle}, or -1 when it is not tracked. */
    public int find(String handle) {
        int n = handle.length();
        int hash = 0;
        for (int i = 0; i < n; i++) {
            char c = handle.charAt(i);
            if (c >= 0x80) {                                      // not ASCII: by its UTF-8 bytes
                byte[] key = handle.getBytes(StandardCharsets.UTF_8);
                return find(key, 0, key.length);
            }
            hash = 31 * hash + c;
        }
        int h = spread(hash);
        int mask = slots.length - 1;
        for (int i = h & mask; ; i = (i + 1) & mask) {
            int id = slots[i];
            if (id == EMPTY) return -1;
            if (hashes[id] == h && sameAscii(keys[id], handle)) return id;
        }
    }

    /** The id of the handle spelled by the UTF-8 {@code bytes[from, to)}, or -1 when it is not tracked. */
    public int find(byte[] bytes, int from, int to) {
        int h = spread(hash(bytes, from, to));
        int mask = slots.length - 1;
        for (int i = h & mask; ; i = (i + 1) & mask) {
            int id = slots[i];
            if (id == EMPTY) return -1;
            if (hashes[id] == h && same(keys[id], bytes, from, to)) return id;
        }
    }

    /** Starts tracking {@code handle}, which must not be tracked; returns its new id. */
    public int add(String handle) {
        byte[] key = handle.getBytes(StandardCharsets.UTF_8);
        int id = add(key, 0, key.length);
        names[id] = handle;
        return id;
    }

    /** Starts tracking the handle spelled by the UTF-8 {@code bytes[from, to)}, which must not be tracked. */
    public int add(byte[] bytes, int from, int to) {
        if (2 * (size + 1) > slots.length) rehash(slots.length * 2);
        int id = freeCount > 0 ? freeIds[--freeCount] : nextId++;
        if (id >= keys.length) {
            keys = Arrays.copyOf(keys, keys.length * 2);
            names = Arrays.copyOf(names, names.length * 2);
            hashes = Arrays.copyOf(hashes, hashes.length * 2);
        }
        int h = spread(hash(bytes, from, to));
        keys[id] = Arrays.copyOfRange(bytes, from, to);
        hashes[id] = h;
        insert(id, h);
        size++;
        return id;
    }

    /** Stops tracking the handle with this id; the id is handed out again later. */
    public void remove(int id) {
        int mask = slots.length - 1;
        int i = hashes[id] & mask;
        while (slots[i] != id) i = (i + 1) & mask;
        // backward-shift deletion: pull later entries of the probe run into the hole
        for (int j = (i + 1) & mask; slots[j] != EMPTY; j = (j + 1) & mask) {
            int home = hashes[slots[j]] & mask;
            if (((j - home) & mask) >= ((j - i) & mask)) {
                slots[i] = slots[j];
                i = j;
            }
        }
        slots[i] = EMPTY;
        keys[id] = null;
        names[id] = null;
        if (freeCount == freeIds.length) freeIds = Arrays.copyOf(freeIds, freeIds.length * 2);
        freeIds[freeCount++] = id;
        size--;
    }

    /** String's hash formula over the bytes (for an ASCII handle, its string's own hash). */
    static int hash(byte[] bytes, int from, int to) {
        int h = 0;
        for (int i = from; i < to; i++) h = 31 * h + bytes[i];
        return h;
    }

    private static boolean same(byte[] key, byte[] bytes, int from, int to) {
        if (key.length != to - from) return false;
        for (int i = 0; i < key.length; i++) if (key[i] != bytes[from + i]) return false;
        return true;
    }

    private static boolean sameAscii(byte[] key, String s) {
        if (key.length != s.length()) return false;
        for (int i = 0; i < key.length; i++) if (key[i] != s.charAt(i)) return false;
        return true;
    }

    private static int spread(int h) {
        h *= 0x9E3779B9;
        return h ^ (h >>> 16);
    }

    private void insert(int id, int h) {
        int mask = slots.length - 1;
        int i = h & mask;
        while (slots[i] != EMPTY) i = (i + 1) & mask;
        slots[i] = id;
    }

    private void rehash(int capacity) {
        slots = new int[capacity];
        Arrays.fill(slots, EMPTY);
        for (int id = 0; id < nextId; id++) if (keys[id] != null) insert(id, hashes[id]);
    }
}
