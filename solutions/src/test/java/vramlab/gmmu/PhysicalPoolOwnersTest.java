package vramlab.gmmu;

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

/**
 * A 2 MiB page's granule slot holds its bare owner and its {@link PhysicalPool.Chunk} is made
 * only when asked for (issue 38). The books must read as they did when every chunk was an
 * object: after random sequences of every way in and out, {@code chunks()} and
 * {@code chunkAt} equal a plain model of chunks by address, owners by identity.
 */
@DisplayName("PhysicalPool: page owners in granule slots read back as chunks")
class PhysicalPoolOwnersTest {
    static final long F = PhysicalPool.FRAME;
    static final long PAGE = PhysicalPool.PAGE;

    /** The model: address -> {size, owner}. */
    record Held(long size, Object owner) {}

    @Test
    @DisplayName("a null owner is refused by allocate and allocatePages, and nothing is taken")
    void nullOwner() {
        PhysicalPool p = new PhysicalPool(0, 16 * PAGE);
        assertThatThrownBy(() -> p.allocate(PAGE, PAGE, null)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> p.allocate(F, F, null)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> p.allocatePages(new long[2], null)).isInstanceOf(IllegalArgumentException.class);
        assertThat(p.usedBytes()).isZero();
        assertThat(p.chunks()).isEmpty();
        p.checkInvariants();
    }

    @Test
    @DisplayName("a page whose owner is itself a Chunk keeps that owner")
    void chunkAsOwner() {
        PhysicalPool p = new PhysicalPool(0, 16 * PAGE);
        PhysicalPool.Chunk owner = new PhysicalPool.Chunk(123, 456, "inner");
        long[] at = new long[3];
        assertThat(p.allocatePages(at, owner)).isEqualTo(3);
        long single = p.allocate(PAGE, PAGE, owner);
        for (long a : new long[] {at[0], at[1], at[2], single}) {
            assertThat(p.chunkAt(a + F)).isEqualTo(new PhysicalPool.Chunk(a, PAGE, owner));
            assertThat(p.chunkAt(a).owner()).isSameAs(owner);
        }
        p.checkInvariants();
        p.releasePages(at);
        p.release(single);
        assertThat(p.chunks()).isEmpty();
        p.checkInvariants();
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 7, 38, 99, 2026, 31337})
    @DisplayName("random allocate / allocatePages / release / releasePages: the books equal the model")
    void randomSequences(long seed) {
        Random r = new Random(seed);
        long capacity = (40 + r.nextInt(40)) * PAGE + r.nextInt(32) * F;      // a ragged end now and then
        PhysicalPool p = new PhysicalPool(0, capacity);
        TreeMap<Long, Held> model = new TreeMap<>();
        List<Object> owners = List.of("a", "b", 42, new PhysicalPool.Chunk(0, F, "c"));
        for (int step = 0; step < 600; step++) {
            int op = r.nextInt(6);
            Object owner = r.nextBoolean() ? new Object() : owners.get(r.nextInt(owners.size()));
            if (op == 0) {                                          // pages in one call
                long[] into = new long[1 + r.nextInt(5)];
                int got = p.allocatePages(into, owner);
                for (int k = 0; k < got; k++) model.put(into[k], new Held(PAGE, owner));
            } else if (op == 1) {                                   // one chunk: a page, several, or frames
                long size = switch (r.nextInt(4)) {
                    case 0 -> PAGE;
                    case 1 -> (2 + r.nextInt(3)) * PAGE;
                    case 2 -> (1 + r.nextInt(40)) * F;
                    default -> (1 + r.nextInt(3)) * F;
                };
                long align = size % PAGE == 0 && r.nextBoolean() ? PAGE : F;
                long a = p.allocate(size, align, owner);
                if (a >= 0) model.put(a, new Held(size, owner));
            } else if ((op == 2 || op == 3) && !model.isEmpty()) {  // release one
                Long a = pick(model, r);
                p.release(a);
                model.remove(a);
            } else if (!model.isEmpty()) {                          // releasePages of several, in any order
                List<Long> some = new ArrayList<>();
                for (int k = 1 + r.nextInt(6); k > 0 && some.size() < model.size(); k--) {
                    Long a = pick(model, r);
                    if (!some.contains(a)) some.add(a);
                }
                if (r.nextBoolean()) some.sort(null);
                long[] arr = some.stream().mapToLong(Long::longValue).toArray();
                p.releasePages(arr);
                for (long a : arr) model.remove(a);
            }
            check(p, model, r);
        }
    }

    private static Long pick(TreeMap<Long, Held> model, Random r) {
        List<Long> keys = new ArrayList<>(model.keySet());
        return keys.get(r.nextInt(keys.size()));
    }

    private static void check(PhysicalPool p, TreeMap<Long, Held> model, Random r) {
        p.checkInvariants();
        List<PhysicalPool.Chunk> chunks = p.chunks();
        assertThat(chunks).hasSize(model.size());
        int i = 0;
        long used = 0;
        for (Map.Entry<Long, Held> e : model.entrySet()) {
            PhysicalPool.Chunk c = chunks.get(i++);
            assertThat(c.address()).isEqualTo(e.getKey());
            assertThat(c.size()).isEqualTo(e.getValue().size());
            assertThat(c.owner()).isSameAs(e.getValue().owner());
            used += c.size();
        }
        assertThat(p.usedBytes()).isEqualTo(used);
        for (int k = 0; k < 20; k++) {                              // chunkAt at random frames
            long a = (long) r.nextInt((int) (p.capacity() / F)) * F + (r.nextBoolean() ? 0 : F / 2);
            Map.Entry<Long, Held> e = model.floorEntry(a);
            PhysicalPool.Chunk c = p.chunkAt(a);
            if (e == null || a >= e.getKey() + e.getValue().size()) {
                assertThat(c).isNull();
            } else {
                assertThat(c).isEqualTo(new PhysicalPool.Chunk(e.getKey(), e.getValue().size(), e.getValue().owner()));
            }
        }
    }
}
