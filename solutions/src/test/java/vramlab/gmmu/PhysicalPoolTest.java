package vramlab.gmmu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import vramlab.units.Bytes;

@DisplayName("The physical pool")
class PhysicalPoolTest {
    static final long M2 = 2 * Bytes.MiB;
    static final long F = PhysicalPool.FRAME;

    @Test
    @DisplayName("hands out the lowest aligned free run, and each chunk has one owner")
    void lowestAligned() {
        PhysicalPool p = new PhysicalPool(0, 8 * Bytes.MiB);
        assertThat(p.allocate(F, F, "ctx")).isEqualTo(0);
        assertThat(p.allocate(M2, M2, "a")).as("skips to the next 2 MiB boundary").isEqualTo(M2);
        assertThat(p.allocate(F, F, "b")).as("fills the gap below").isEqualTo(F);
        assertThat(p.chunkAt(M2 + 5).owner()).isEqualTo("a");
        p.checkInvariants();
    }

    @Test
    @DisplayName("says -1 when no run fits, and takes it after a release")
    void exhaustion() {
        PhysicalPool p = new PhysicalPool(0, 4 * Bytes.MiB);
        p.allocate(F, F, "x");
        assertThat(p.allocate(M2, M2, "a")).isEqualTo(M2);
        assertThat(p.allocate(M2, M2, "b")).as("frame 0 is taken").isEqualTo(-1);
        p.release(0);
        assertThat(p.allocate(M2, M2, "b")).isZero();
        assertThat(p.freeBytes()).isZero();
        assertThatThrownBy(() -> p.release(F)).hasMessageContaining("no chunk starts there");
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {7, 11, 99})
    @DisplayName("random allocate/release keeps chunks disjoint and gives every frame back")
    void random(long seed) {
        Random rnd = new Random(seed);
        PhysicalPool p = new PhysicalPool(0, 64 * Bytes.MiB);
        List<Long> live = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            if (!live.isEmpty() && rnd.nextBoolean()) {
                p.release(live.remove(rnd.nextInt(live.size())));
            } else {
                long size = rnd.nextBoolean() ? M2 : F * (1 + rnd.nextInt(4));
                long a = p.allocate(size, size == M2 ? M2 : F, i);
                if (a >= 0) {
                    assertThat(a % (size == M2 ? M2 : F)).isZero();
                    live.add(a);
                }
            }
            p.checkInvariants();
        }
        live.forEach(p::release);
        p.checkInvariants();
        assertThat(p.usedBytes()).isZero();
        assertThat(p.freeBytes()).isEqualTo(64 * Bytes.MiB);
    }

    @ParameterizedTest(name = "{0} B aligned to {1} B")
    @CsvSource({"0, 65536", "-65536, 65536", "32768, 65536", "65536, 32768", "65536, 196608"})
    @DisplayName("a size of no whole frame, or an alignment not a power-of-two number of frames, is refused")
    void refusedRequests(long bytes, long alignment) {
        PhysicalPool p = new PhysicalPool(0, 8 * Bytes.MiB);
        assertThatThrownBy(() -> p.allocate(bytes, alignment, "x")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("allocate(" + bytes + ", align " + alignment
                        + "): sizes and alignments are whole 64 KiB frames, alignment a power of two");
        assertThat(p.chunks()).isEmpty();
    }
}
