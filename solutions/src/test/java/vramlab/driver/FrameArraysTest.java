package vramlab.driver;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Random;
import java.util.Set;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import vramlab.units.Bytes;

/**
 * {@link Gpu#takePages}' arrays come back and go out again (issue 38). A reused array must never
 * be one that is still in use, must have the asked length, and what is kept stays bounded.
 */
@DisplayName("FrameArrays: reused frame arrays never alias a live one")
class FrameArraysTest {

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 5, 38, 4242})
    @DisplayName("random take / give: the right length, never a live array, at most PER_LENGTH kept")
    void randomTakeGive(long seed) {
        Random r = new Random(seed);
        FrameArrays arrays = new FrameArrays();
        Set<long[]> live = Collections.newSetFromMap(new IdentityHashMap<>());
        List<long[]> order = new ArrayList<>();
        for (int step = 0; step < 20_000; step++) {
            if (order.isEmpty() || r.nextInt(100) < 52) {
                int length = r.nextInt(10) == 0 ? 1 + r.nextInt(2 * FrameArrays.MAX_LENGTH) : 1 + r.nextInt(4);
                long[] a = arrays.take(length);
                assertThat(a).hasSize(length);
                assertThat(live.add(a)).as("handed out while live").isTrue();
                order.add(a);
            } else {
                long[] a = order.remove(r.nextInt(order.size()));
                live.remove(a);
                arrays.give(a);
            }
            for (int length = 1; length <= 4; length++) {
                assertThat(arrays.kept(length)).isBetween(0, FrameArrays.PER_LENGTH);
            }
        }
        assertThat(arrays.kept(FrameArrays.MAX_LENGTH + 1)).isZero();
    }

    @Test
    @DisplayName("an array given back is the next one of its length handed out; other lengths are not")
    void reuse() {
        FrameArrays arrays = new FrameArrays();
        long[] three = arrays.take(3);
        arrays.give(three);
        assertThat(arrays.take(2)).isNotSameAs(three);
        assertThat(arrays.take(3)).isSameAs(three);
        assertThat(arrays.take(3)).isNotSameAs(three);
        long[] big = new long[FrameArrays.MAX_LENGTH + 1];
        arrays.give(big);
        assertThat(arrays.take(big.length)).isNotSameAs(big);
        for (int k = 0; k < FrameArrays.PER_LENGTH + 10; k++) arrays.give(new long[1]);
        assertThat(arrays.kept(1)).isEqualTo(FrameArrays.PER_LENGTH);
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {3, 38, 777})
    @DisplayName("random cudaMalloc / cudaFree / cuMem* on a GPU: live allocations never share an array, and the books hold")
    void noAliasInTheDriver(long seed) {
        Random r = new Random(seed);
        Gpu gpu = new Gpu(0, 256 * Bytes.MiB, 0);
        GpuProcess p = gpu.open(1, "t", 0);
        List<Long> ptrs = new ArrayList<>();
        List<long[]> handles = new ArrayList<>();                  // {handle, va, size, reservation}
        for (int step = 0; step < 1500; step++) {
            int op = r.nextInt(10);
            if (op < 5) {
                long size = r.nextInt(8) == 0 ? 1 + r.nextInt((int) Bytes.MiB) : (1 + r.nextInt(24)) * Bytes.MiB;
                long ptr = p.tryCudaMalloc(size);
                if (ptr != 0) ptrs.add(ptr);
            } else if (op < 8 && !ptrs.isEmpty()) {
                p.cudaFree(ptrs.remove(r.nextInt(ptrs.size())));
            } else if (op == 8) {
                long size = (1 + r.nextInt(4)) * Gpu.PAGE;
                if (size > gpu.free()) continue;
                long h = p.cuMemCreate(size);
                long va = p.cuMemAddressReserve(size);
                p.cuMemMap(va, size, h);
                p.cuMemSetAccess(va, size, vramlab.gmmu.Access.READWRITE);
                handles.add(new long[] {h, va, size});
            } else if (!handles.isEmpty()) {
                long[] h = handles.remove(r.nextInt(handles.size()));
                p.cuMemUnmap(h[1], h[2]);
                p.cuMemRelease(h[0]);
                p.cuMemAddressFree(h[1], h[2]);
            }
            Set<long[]> seen = Collections.newSetFromMap(new IdentityHashMap<>());
            p.forEachMalloc((at, chunks) -> assertThat(seen.add(chunks)).as("array shared at " + at).isTrue());
            for (Vmm.Handle h : p.vmm().handles()) assertThat(seen.add(h.chunks)).as("handle array shared").isTrue();
            gpu.checkInvariants();
        }
    }
}
