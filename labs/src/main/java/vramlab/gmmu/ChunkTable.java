package vramlab.gmmu;

/**
 * A {@link PhysicalPool}'s chunks by their first frame, those that do not cover a granule of
 * their own (the pool keeps those, every cudaMalloc page, in granule slots): a hash table of
 * {@code int} keys, so that taking and giving back a frame run boxes nothing (a
 * {@code HashMap<Long, Chunk>} made a {@code Long} and a node per chunk).
 *
 * <p>Open addressing with linear probing and backward-shift deletion (no tombstones), at most
 * half full. A key is stored as frame + 1, so 0 marks an empty slot.
 */
final class ChunkTable {
    // package-private so that tests can break the books on purpose, as a bug would
    int[] keys = new int[16];
    PhysicalPool.Chunk[] values = new PhysicalPool.Chunk[16];
    int size;

    int size() { return size; }

    /** The chunk whose first frame is {@code frame}, or null. */
    PhysicalPool.Chunk get(int frame) {
        int i = find(frame);
        return i < 0 ? null : values[i];
    }

    /** Adds the chunk that starts at {@code frame}, which must not be there yet. */
    void put(int frame, PhysicalPool.Chunk chunk) {
        if (2 * (size + 1) > keys.length) grow();
        int mask = keys.length - 1;
        int i = home(frame, mask);
        while (keys[i] != 0) {
            if (keys[i] == frame + 1) throw new IllegalStateException("ChunkTable: frame " + frame + " is taken");
            i = (i + 1) & mask;
        }
        keys[i] = frame + 1;
        values[i] = chunk;
        size++;
    }

    /** Removes and returns the chunk that starts at {@code frame}, or null when none does. */
    PhysicalPool.Chunk remove(int frame) {
        int i = find(frame);
        if (i < 0) return null;
        PhysicalPool.Chunk gone = values[i];
        int mask = keys.length - 1;
        // backward shift: pull later entries of the probe run into the hole, if that is not before their home
        for (int j = (i + 1) & mask; keys[j] != 0; j = (j + 1) & mask) {
            int home = home(keys[j] - 1, mask);
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

    private int find(int frame) {
        int mask = keys.length - 1;
        for (int i = home(frame, mask); keys[i] != 0; i = (i + 1) & mask) {
            if (keys[i] == frame + 1) return i;
        }
        return -1;
    }

    /**
     * The slot a frame's probe run starts at, in a table of {@code mask + 1} slots (a power of
     * two): the top bits of the frame times 2^32 / phi (Fibonacci hashing), which spreads
     * multiples of 32 as well as any other frames; the low bits of the product would not.
     */
    static int home(int frame, int mask) {
        return (frame * 0x9E3779B9) >>> Integer.numberOfLeadingZeros(mask);
    }

    private void grow() {
        int[] oldKeys = keys;
        PhysicalPool.Chunk[] oldValues = values;
        keys = new int[2 * oldKeys.length];
        values = new PhysicalPool.Chunk[2 * oldKeys.length];
        size = 0;
        for (int i = 0; i < oldKeys.length; i++) if (oldKeys[i] != 0) put(oldKeys[i] - 1, oldValues[i]);
    }

    /** Sizes agree, empty slots hold nothing, no key is cut off from its home slot (for tests). */
    void checkInvariants() {
        int mask = keys.length - 1, n = 0;
        for (int i = 0; i < keys.length; i++) {
            if (keys[i] == 0) {
                if (values[i] != null) throw new IllegalStateException("ChunkTable: a value in an empty slot " + i);
                continue;
            }
            n++;
            if (values[i] == null) throw new IllegalStateException("ChunkTable: frame " + (keys[i] - 1) + " has no chunk");
            for (int j = home(keys[i] - 1, mask); j != i; j = (j + 1) & mask) {
                if (keys[j] == 0) throw new IllegalStateException("ChunkTable: frame " + (keys[i] - 1) + " is cut off from its home");
            }
        }
        if (n != size) throw new IllegalStateException("ChunkTable: size " + size + " but " + n + " keys");
        if (2 * size > keys.length) throw new IllegalStateException("ChunkTable: over half full");
    }
}
