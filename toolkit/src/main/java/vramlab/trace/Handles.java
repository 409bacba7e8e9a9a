package vramlab.trace;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The handles a replay is tracking, interned to dense ints: each handle gets the smallest free
 * id while it is tracked, and gives it back when {@link #remove removed}, so ids (and the
 * arrays a replay indexes by them) stay as few as the handles tracked at once, however long
 * the trace. Looked up by a {@code String} or straight from a reader's buffer of UTF-8 bytes,
 * with no string made for the lookup.
 *
 * <p>Open addressing with linear probing and backward-shift deletion (no tombstones). A slot
 * packs the handle's hash beside its id in one {@code long}, with the handle's packed form
 * (below) in the next, so a probe reads one place and touches the handle itself only when
 * the hash matches (at 100k live handles each extra array
 * read per probe is a cache miss). The hash is {@code String.hashCode} of the handle, which for
 * an ASCII handle is the same sum over its bytes; a handle with other bytes is decoded first.
 * An ASCII handle of up to 7 bytes (most traces' handles) is packed into a {@code long}
 * instead of copied, so a lookup from the buffer compares one number rather than two arrays
 * and tracking it makes no garbage; its string is made only when asked for.
 */
public final class Handles {
    // Slot i is table[2i] = hash << 32 | (id + 1) (0 when unused) and table[2i + 1] = the handle's
    // packed form: side by side, so a lookup from a buffer reads one cache line per probe.
    private long[] table = new long[2 * 64];
    private static final long LONG = -1, NOT_ASCII = -2;

    private byte[][] keys = new byte[32][];     // id -> the bytes of an ASCII handle longer than 7, else null
    private String[] names = new String[32];    // id -> the handle: always for one not ASCII, else once asked
    private int[] hashes = new int[32];         // id -> its spread hash
    private int[] freeIds = new int[32];        // a stack of returned ids
    private int freeCount;
    private int nextId;
    private int size;

    /** How many handles are tracked. */
    public int size() { return size; }

    /** One more than the largest id handed out so far: the length arrays indexed by id need. */
    public int idLimit() { return nextId; }

    /** The handle that has this id. */
    public String name(int id) {
        String n = names[id];
        if (n == null) names[id] = n = new String(asciiBytes(id), StandardCharsets.ISO_8859_1);
        return n;
    }

    /** An ASCII handle's bytes: kept when long, else unpacked from its slot's {@code long}. */
    private byte[] asciiBytes(int id) {
        if (keys[id] != null) return keys[id];
        long p = table[2 * slotOf(id) + 1];
        byte[] b = new byte[(int) (p >>> 56)];
        for (int i = 0; i < b.length; i++) b[i] = (byte) (p >>> (i << 3));
        return b;
    }

    /** The id of {@code handle}, or -1 when it is not tracked. */
    public int find(String handle) {
        int h = spread(handle.hashCode());
        int mask = slotCount() - 1;
        for (int i = h & mask; ; i = (i + 1) & mask) {
            long slot = table[2 * i];
            if (slot == 0) return -1;
            if ((int) (slot >>> 32) == h) {
                int id = (int) slot - 1;
                String name = names[id];                 // often the very string that was added
                if (name == handle || (name != null ? name.equals(handle) : sameAscii(asciiBytes(id), handle))) return id;
            }
        }
    }

    /** The id of the handle spelled by the UTF-8 {@code bytes[from, to)}, or -1 when it is not tracked. */
    public int find(byte[] bytes, int from, int to) {
        int i = slotOf(bytes, from, to);
        return i == NOT_ASCII_SLOT ? find(new String(bytes, from, to - from, StandardCharsets.UTF_8))
                : i < 0 ? -1 : (int) table[2 * i] - 1;
    }

    /**
     * {@link #find(byte[], int, int)} and, when tracked, {@link #remove(int)} in one: the slot
     * the lookup found is the one emptied, with no second walk to find it again (a free's
     * handle, on a replay's reading thread; at 100k live handles each walk is a cache miss).
     */
    public int findAndRemove(byte[] bytes, int from, int to) {
        int i = slotOf(bytes, from, to);
        if (i == NOT_ASCII_SLOT) {
            int id = find(new String(bytes, from, to - from, StandardCharsets.UTF_8));
            if (id >= 0) remove(id);
            return id;
        }
        if (i < 0) return -1;
        int id = (int) table[2 * i] - 1;
        removeAt(i, id);
        return id;
    }

    private static final int NOT_ASCII_SLOT = -2;

    /** The slot of the handle spelled by ASCII {@code bytes[from, to)}: -1 when untracked, NOT_ASCII_SLOT for other bytes. */
    private int slotOf(byte[] bytes, int from, int to) {
        int hash = 0;
        long p = 0;
        for (int i = from; i < to; i++) {
            byte b = bytes[i];
            if (b < 0) return NOT_ASCII_SLOT;
            hash = 31 * hash + b;
            p |= (long) b << (i - from << 3);
        }
        p = to - from <= 7 ? p | (long) (to - from) << 56 : LONG;
        int h = spread(hash);
        int mask = slotCount() - 1;
        for (int i = h & mask; ; i = (i + 1) & mask) {
            long slot = table[2 * i];
            if (slot == 0) return -1;
            if ((int) (slot >>> 32) == h) {
                int id = (int) slot - 1;
                long k = table[2 * i + 1];
                if (p != LONG ? k == p : k == LONG && same(keys[id], bytes, from, to)) return i;
            }
        }
    }

    /** Starts tracking {@code handle}, which must not be tracked; returns its new id. */
    public int add(String handle) {
        int n = handle.length();
        long p = 0;
        boolean ascii = true;
        for (int i = 0; i < n && ascii; i++) {
            char c = handle.charAt(i);
            ascii = c < 0x80;
            if (i < 7) p |= (long) c << (i << 3);
        }
        // an ASCII handle's hash is its bytes' sum; a short one's name and packed bytes say it all
        long form = !ascii ? NOT_ASCII : n <= 7 ? p | (long) n << 56 : LONG;
        int id = newId(spread(handle.hashCode()), form);
        names[id] = handle;
        if (form == LONG) keys[id] = handle.getBytes(StandardCharsets.ISO_8859_1);
        return id;
    }

    /** Starts tracking the handle spelled by the UTF-8 {@code bytes[from, to)}, which must not be tracked. */
    public int add(byte[] bytes, int from, int to) {
        int hash = 0;
        long p = 0;
        for (int i = from; i < to; i++) {
            byte b = bytes[i];
            if (b < 0) return add(new String(bytes, from, to - from, StandardCharsets.UTF_8));   // not ASCII
            hash = 31 * hash + b;
            p |= (long) b << (i - from << 3);
        }
        boolean small = to - from <= 7;                  // no copy: the long holds every byte
        int id = newId(spread(hash), small ? p | (long) (to - from) << 56 : LONG);
        if (!small) keys[id] = Arrays.copyOfRange(bytes, from, to);
        return id;
    }

    private int slotCount() { return table.length / 2; }

    private int newId(int h, long form) {
        if (2 * (size + 1) > slotCount()) rehash(slotCount() * 2);
        int id = freeCount > 0 ? freeIds[--freeCount] : nextId++;
        if (id >= keys.length) {
            int n = keys.length * 2;
            keys = Arrays.copyOf(keys, n);
            names = Arrays.copyOf(names, n);
            hashes = Arrays.copyOf(hashes, n);
        }
        hashes[id] = h;
        insert(slot(id, h), form);
        size++;
        return id;
    }

    /** Stops tracking the handle with this id; the id is handed out again later. */
    public void remove(int id) { removeAt(slotOf(id), id); }

    /** Empties slot {@code i}, which holds {@code id}, and gives the id back. */
    private void removeAt(int i, int id) {
        int mask = slotCount() - 1;
        // backward-shift deletion: pull later entries of the probe run into the hole
        for (int j = (i + 1) & mask; table[2 * j] != 0; j = (j + 1) & mask) {
            int home = (int) (table[2 * j] >>> 32) & mask;
            if (((j - home) & mask) >= ((j - i) & mask)) {
                table[2 * i] = table[2 * j];
                table[2 * i + 1] = table[2 * j + 1];
                i = j;
            }
        }
        table[2 * i] = 0;
        table[2 * i + 1] = 0;
        keys[id] = null;
        names[id] = null;
        if (freeCount == freeIds.length) freeIds = Arrays.copyOf(freeIds, freeIds.length * 2);
        freeIds[freeCount++] = id;
        size--;
    }

    private static long slot(int id, int h) { return (long) h << 32 | (id + 1); }

    /** Where the tracked handle with this id sits in the table. */
    private int slotOf(int id) {
        int mask = slotCount() - 1;
        long mine = slot(id, hashes[id]);
        int i = hashes[id] & mask;
        while (table[2 * i] != mine) i = (i + 1) & mask;
        return i;
    }

    private static int spread(int h) {
        h *= 0x9E3779B9;
        return h ^ (h >>> 16);
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

    private void insert(long slot, long form) {
        int mask = slotCount() - 1;
        int i = (int) (slot >>> 32) & mask;
        while (table[2 * i] != 0) i = (i + 1) & mask;
        table[2 * i] = slot;
        table[2 * i + 1] = form;
    }

    private void rehash(int capacity) {
        long[] old = table;
        table = new long[2 * capacity];
        for (int i = 0; i < old.length; i += 2) if (old[i] != 0) insert(old[i], old[i + 1]);
    }
}
