package vramlab.gmmu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The frame pool's table of chunks by first frame, call by call against a HashMap. */
@DisplayName("the frame pool's chunk table")
class ChunkTableTest {
    private static PhysicalPool.Chunk chunk(int frame) {
        return new PhysicalPool.Chunk(frame * PhysicalPool.FRAME, PhysicalPool.FRAME, "owner of " + frame);
    }

    @ParameterizedTest(name = "first frames up to {0}")
    @ValueSource(ints = {8, 64, 4096, 1 << 24})
    @DisplayName("gives what a HashMap gives through seeded puts, gets and removes, growing and shrinking")
    void againstHashMap(int range) {
        SplittableRandom r = new SplittableRandom(range);
        ChunkTable table = new ChunkTable();
        Map<Integer, PhysicalPool.Chunk> ref = new HashMap<>();
        for (int step = 0; step < 20_000; step++) {
            // mostly 2 MiB pages' first frames (multiples of 32), as cudaMalloc makes, some others
            int frame = r.nextInt(4) == 0 ? r.nextInt(range) : 32 * r.nextInt(Math.max(1, range / 32));
            int op = step < 10_000 ? r.nextInt(3) : r.nextInt(4);     // the second half removes more
            if (op == 0 || (op == 3 && ref.isEmpty())) {
                if (!ref.containsKey(frame)) {
                    PhysicalPool.Chunk c = chunk(frame);
                    table.put(frame, c);
                    ref.put(frame, c);
                }
            } else if (op == 1) {
                assertThat(table.get(frame)).isSameAs(ref.get(frame));
            } else {
                assertThat(table.remove(frame)).isSameAs(ref.remove(frame));
            }
            assertThat(table.size()).isEqualTo(ref.size());
            if (step % 97 == 0) table.checkInvariants();
        }
        table.checkInvariants();
        for (var e : ref.entrySet()) assertThat(table.get(e.getKey())).isSameAs(e.getValue());
    }

    @Test
    @DisplayName("keys that share a home slot stay findable when one of their run is removed")
    void collisions() {
        ChunkTable table = new ChunkTable();                 // 16 slots until it holds 8
        int[] same = new int[5];                             // five first frames with one home
        for (int f = 0, n = 0; n < same.length; f += 32) {
            if (ChunkTable.home(f, 15) == ChunkTable.home(0, 15)) same[n++] = f;
        }
        Map<Integer, PhysicalPool.Chunk> ref = new HashMap<>();
        for (int f : same) {
            table.put(f, chunk(f));
            ref.put(f, table.get(f));
        }
        table.put(1, chunk(1));                              // one more, perhaps inside that run
        ref.put(1, table.get(1));
        for (int k : new int[] {1, 0, 4, 2}) {
            assertThat(table.remove(same[k])).isSameAs(ref.remove(same[k]));
            table.checkInvariants();
            for (var e : ref.entrySet()) assertThat(table.get(e.getKey())).isSameAs(e.getValue());
        }
        assertThat(table.remove(same[1])).as("already gone").isNull();
        assertThat(table.get(5)).isNull();
    }

    @Test
    @DisplayName("checkInvariants notices each way its books can go wrong, and the frame pool's check runs it")
    void brokenBooks() {
        ChunkTable missing = withFrames(0, 32, 64);
        missing.values[slotOf(missing, 32)] = null;
        assertThatThrownBy(missing::checkInvariants).hasMessageContaining("frame 32 has no chunk");

        ChunkTable stray = withFrames(0, 32);
        int empty = 0;
        while (stray.keys[empty] != 0) empty++;
        stray.values[empty] = chunk(96);
        assertThatThrownBy(stray::checkInvariants).hasMessageContaining("a value in an empty slot " + empty);

        ChunkTable miscounted = withFrames(0, 32);
        miscounted.size = 3;
        assertThatThrownBy(miscounted::checkInvariants).hasMessageContaining("size 3 but 2 keys");

        ChunkTable full = withFrames(0, 32, 64, 96, 128, 160, 192, 224);
        full.checkInvariants();
        full.keys = java.util.Arrays.copyOf(full.keys, 8);         // the same keys in too small a table
        full.values = java.util.Arrays.copyOf(full.values, 8);
        assertThatThrownBy(full::checkInvariants).isInstanceOf(IllegalStateException.class);

        ChunkTable cut = new ChunkTable();                      // a run whose first slot is emptied
        int[] same = new int[2];
        for (int f = 0, n = 0; n < 2; f += 32) if (ChunkTable.home(f, 15) == ChunkTable.home(0, 15)) same[n++] = f;
        cut.put(same[0], chunk(same[0]));
        cut.put(same[1], chunk(same[1]));
        int first = slotOf(cut, same[0]);
        cut.keys[first] = 0;
        cut.values[first] = null;
        cut.size--;
        assertThatThrownBy(cut::checkInvariants).hasMessageContaining("frame " + same[1] + " is cut off from its home");

        PhysicalPool pool = new PhysicalPool(0, 64 * PhysicalPool.FRAME * 32);
        pool.allocate(2 * 1024 * 1024, 2 * 1024 * 1024, "a");
        pool.checkInvariants();
        pool.chunks.size++;
        assertThatThrownBy(pool::checkInvariants).hasMessageContaining("ChunkTable: size");
    }

    private static ChunkTable withFrames(int... frames) {
        ChunkTable t = new ChunkTable();
        for (int f : frames) t.put(f, chunk(f));
        t.checkInvariants();
        return t;
    }

    private static int slotOf(ChunkTable t, int frame) {
        for (int i = 0; i < t.keys.length; i++) if (t.keys[i] == frame + 1) return i;
        throw new AssertionError("frame " + frame + " not in the table");
    }

    @Test
    @DisplayName("refuses a first frame that is already there")
    void twice() {
        ChunkTable table = new ChunkTable();
        table.put(32, chunk(32));
        assertThatThrownBy(() -> table.put(32, chunk(32))).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("frame 32 is taken");
    }
}
