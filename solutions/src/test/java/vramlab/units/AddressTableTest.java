package vramlab.units;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The address table against the {@code TreeMap<Long, V>} it stands in for, call by call. */
@DisplayName("AddressTable answers as a TreeMap of the same keys")
class AddressTableTest {

    private static void agree(AddressTable<String> table, TreeMap<Long, String> model, long key) {
        assertThat(table.get(key)).isEqualTo(model.get(key));
        assertThat(table.size()).isEqualTo(model.size());
        table.checkInvariants();
    }

    private static void sameContents(AddressTable<String> table, TreeMap<Long, String> model) {
        assertThat(table.keysInOrder()).containsExactly(model.keySet().stream().mapToLong(Long::longValue).toArray());
        assertThat(table.valuesInKeyOrder()).containsExactlyElementsOf(model.values());
    }

    @Test
    @DisplayName("every order of removing seven keys from one small table (probe runs, wrap-around, backward shifts)")
    void everyRemovalOrder() {
        long[][] keySets = {
                {1, 2, 3, 4, 5, 6, 7},
                {Bytes.MiB * 2, Bytes.MiB * 4, Bytes.MiB * 6, Bytes.MiB * 8, Bytes.MiB * 10, Bytes.MiB * 12, Bytes.MiB * 14},
                {0x7f0a00000000L, 0x7f0a00200000L, 0x7f0a00400000L, 0x7f0a00000200L, 0x7f0a00000400L, 0x100000L, -8},
        };
        for (long[] keys : keySets) {
            permute(keys, 0, keys);
        }
    }

    private static void permute(long[] order, int k, long[] keys) {
        if (k == order.length) {
            AddressTable<String> table = new AddressTable<>();
            TreeMap<Long, String> model = new TreeMap<>();
            for (long key : keys) {
                table.put(key, "v" + key);
                model.put(key, "v" + key);
                agree(table, model, key);
            }
            sameContents(table, model);
            for (long key : order) {
                assertThat(table.remove(key)).isEqualTo(model.remove(key));
                agree(table, model, key);
                for (long other : keys) assertThat(table.get(other)).isEqualTo(model.get(other));
            }
            return;
        }
        for (int i = k; i < order.length; i++) {
            long t = order[k]; order[k] = order[i]; order[i] = t;
            permute(order, k + 1, keys);
            t = order[k]; order[k] = order[i]; order[i] = t;
        }
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4, 5, 6})
    @DisplayName("seeded puts, removes and gets of 2 MiB-aligned addresses and 512 B slices, growing to thousands")
    void seeded(long seed) {
        Random r = new Random(seed);
        AddressTable<String> table = new AddressTable<>();
        TreeMap<Long, String> model = new TreeMap<>();
        List<Long> held = new ArrayList<>();
        for (int i = 0; i < 40_000; i++) {
            long key = r.nextBoolean()
                    ? 0x7f0a00000000L + Bytes.MiB * 2 * r.nextInt(8192)
                    : 0x7f0a00000000L + 512L * r.nextInt(1 << 20);
            int op = r.nextInt(10);
            if (op < 5 && i < 30_000) {
                if (model.containsKey(key)) {
                    assertThatThrownBy(() -> table.put(key, "x")).isInstanceOf(IllegalStateException.class);
                } else {
                    table.put(key, "v" + i);
                    model.put(key, "v" + i);
                    held.add(key);
                }
            } else if (op < 9 && !held.isEmpty()) {
                long gone = held.remove(r.nextInt(held.size()));
                assertThat(table.remove(gone)).isEqualTo(model.remove(gone));
                assertThat(table.remove(gone)).isNull();
            } else {
                assertThat(table.remove(key)).isEqualTo(model.remove(key));
                held.remove(key);
            }
            assertThat(table.get(key)).isEqualTo(model.get(key));
            assertThat(table.size()).isEqualTo(model.size());
            if (i % 1000 == 0) {
                table.checkInvariants();
                sameContents(table, model);
            }
        }
        for (Map.Entry<Long, String> e : model.entrySet()) assertThat(table.get(e.getKey())).isEqualTo(e.getValue());
        table.checkInvariants();
        sameContents(table, model);
    }

    @Test
    @DisplayName("0 is no key and null no value")
    void zeroAndNull() {
        AddressTable<String> table = new AddressTable<>();
        assertThatThrownBy(() -> table.put(0, "x")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> table.put(1, null)).isInstanceOf(IllegalArgumentException.class);
        assertThat(table.get(0)).isNull();
        assertThat(table.remove(0)).isNull();
        assertThat(table.size()).isZero();
    }
}
