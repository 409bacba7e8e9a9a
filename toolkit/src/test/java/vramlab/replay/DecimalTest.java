package vramlab.replay;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Random;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("a long written in decimal into a byte buffer")
class DecimalTest {

    private static void check(long n, int at) {
        byte[] to = new byte[at + Decimal.MAX + 3];
        to[to.length - 1] = 42;
        int end = Decimal.write(n, to, at);
        assertThat(new String(to, at, end - at, StandardCharsets.US_ASCII)).as("%d at %d", n, at).isEqualTo(Long.toString(n));
        assertThat(end - at).isLessThanOrEqualTo(Decimal.MAX);
        for (int i = 0; i < at; i++) assertThat(to[i]).as("before the number").isZero();
        assertThat(to[to.length - 1]).as("past the room it was given").isEqualTo((byte) 42);
    }

    @Test
    @DisplayName("spells every edge and seeded random value as Long.toString does")
    void asLongToString() {
        long[] edges = {0, 1, -1, 9, 10, -10, 99, 100, 999_999_999_999_999_999L, 1_000_000_000_000_000_000L,
            Long.MAX_VALUE, Long.MIN_VALUE, Long.MIN_VALUE + 1, Integer.MAX_VALUE, Integer.MIN_VALUE};
        for (long n : edges) for (int at = 0; at < 3; at++) check(n, at);
        for (long p = 1; p > 0 && p <= Long.MAX_VALUE / 10; p *= 10) {
            check(p, 1);
            check(p - 1, 1);
            check(p + 1, 0);
            check(-p, 2);
        }
        // the nine-digit chunks' edges: zeros to pad inside, an int's limit either side
        long[] chunks = {1_000_000_007L, 2_000_000_000_000_000_001L, 1_000_000_000_999_999_999L, 3_000_000_010L,
            (long) Integer.MAX_VALUE + 1, 999_999_999_000_000_000L, 1L << 40, (1L << 40) + 1, 4_294_967_296_000L};
        for (long n : chunks) for (int at = 0; at < 2; at++) {
            check(n, at);
            check(-n, at);
        }
        Random r = new Random(38);
        for (int i = 0; i < 20_000; i++) check(r.nextLong() >> r.nextInt(64), r.nextInt(4));
    }
}
