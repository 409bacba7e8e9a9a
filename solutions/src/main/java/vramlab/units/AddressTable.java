package vramlab.units;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Values by a non-zero {@code long} key (an address): a hash table whose keys are primitives,
 * for the books a replay reads and writes on every segment (the driver's cudaMallocs and VA
 * ranges by their start). A {@code TreeMap<Long, V>} made a {@code Long} and an entry per key and
 * compared boxed keys down a red-black tree; this one answers get, put and remove in a probe or
 * two. The order of the keys is not kept: {@link #keysInOrder} sorts them when asked (checks,
 * teardown), which the hot paths never do.
 *
 * <p>Open addressing with linear probing and backward-shift deletion (no tombstones), at most
 * half full; 0 marks an empty slot, so 0 is not a key (no device pointer is 0).
 */
public final class AddressTable<V> {
    private long[] keys = new long[16];
    private Object[] values = new Object[16];
    private int size;

    /** How many keys are held. */
    public int size() { return size; }

    /** The value under {@code key}, or null. */
    @SuppressWarnings("unchecked")
    public V get(long key) {
        int i = find(key);
        return i < 0 ? null : (V) values[i];
    }

    /**
     * Puts {@code value} under {@code key}, which must not be held yet.
     *
     * @throws IllegalArgumentException for the key 0 or a null value
     * @throws IllegalStateException when {@code key} is held already
     */
    public void put(long key, V value) {
        if (key == 0 || value == null) {
            throw new IllegalArgumentException("AddressTable.put(" + key + ", " + value + "): 0 is no key, null no value");
        }
        if (2 * (size + 1) > keys.length) grow();
        int mask = keys.length - 1;
        int i = home(key, mask);
        while (keys[i] != 0) {
            if (keys[i] == key) throw new IllegalStateException("AddressTable: 0x" + Long.toHexString(key) + " is held");
            i = (i + 1) & mask;
        }
        keys[i] = key;
        values[i] = value;
        size++;
    }

    /** Removes and returns the value under {@code key}, or null when none is. */
    @SuppressWarnings("unchecked")
    public V remove(long key) {
        int i = find(key);
        if (i < 0) return null;
        V gone = (V) values[i];
        int mask = keys.length - 1;
        // backward shift: pull later entries of the probe run into the hole, if that is not before their home
        for (int j = (i + 1) & mask; keys[j] != 0; j = (j + 1) & mask) {
            int home = home(keys[j], mask);
            if (((j - home) & mask) >= ((j - i) & mask)) {
                keys[i] = keys[j];
                values[i] = values[j];
                i = j;
            }
        }
        keys[i] = 0;
        values[i] = null;
        size--;
        return gone;
    }

    /** The keys held, lowest first (a sort: for checks and walks, not for every call). */
    public long[] keysInOrder() {
        long[] out = new long[size];
        int n = 0;
        for (long k : keys) if (k != 0) out[n++] = k;
        Arrays.sort(out);
        return out;
    }

    /** The values, in the order of their keys, lowest first. */
    public List<V> valuesInKeyOrder() {
        List<V> out = new ArrayList<>(size);
        for (long k : keysInOrder()) out.add(get(k));
        return out;
    }

    private int find(long key) {
        if (key == 0) return -1;
        int mask = keys.length - 1;
        for (int i = home(key, mask); keys[i] != 0; i = (i + 1) & mask) {
            if (keys[i] == key) return i;
        }
        return -1;
    }

    /**
     * The slot a key's probe run starts at, in a table of {@code mask + 1} slots (a power of
     * two): the top bits of the key times 2^64 / phi (Fibonacci hashing), which spreads
     * addresses that are all multiples of 2 MiB as well as any others; the low bits would not.
     */
    private static int home(long key, int mask) {
        return (int) ((key * 0x9E3779B97F4A7C15L) >>> (64 - Integer.bitCount(mask)));
    }

    private void grow() {
        long[] oldKeys = keys;
        Object[] oldValues = values;
        keys = new long[2 * oldKeys.length];
        values = new Object[2 * oldKeys.length];
        size = 0;
        for (int i = 0; i < oldKeys.length; i++) {
            if (oldKeys[i] != 0) {
                @SuppressWarnings("unchecked") V v = (V) oldValues[i];
                put(oldKeys[i], v);
            }
        }
    }

    /** Sizes agree, empty slots hold nothing, no key is cut off from its home slot (for tests). */
    public void checkInvariants() {
        int mask = keys.length - 1, n = 0;
        for (int i = 0; i < keys.length; i++) {
            if (keys[i] == 0) {
                if (values[i] != null) throw new IllegalStateException("AddressTable: a value in an empty slot " + i);
                continue;
            }
            n++;
            if (values[i] == null) throw new IllegalStateException("AddressTable: 0x" + Long.toHexString(keys[i]) + " has no value");
            for (int j = home(keys[i], mask); j != i; j = (j + 1) & mask) {
                if (keys[j] == 0) {
                    throw new IllegalStateException("AddressTable: 0x" + Long.toHexString(keys[i]) + " is cut off from its home");
                }
            }
        }
        if (n != size) throw new IllegalStateException("AddressTable: size " + size + " but " + n + " keys");
        if (2 * size > keys.length) throw new IllegalStateException("AddressTable: over half full");
    }
}
