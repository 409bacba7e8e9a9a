package vramlab.units;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

@DisplayName("SeededRandom draws what java.util.Random draws for the same seed")
class SeededRandomTest {
    private static final long[] SEEDS = {0, 1, 7, 42, -1, Long.MIN_VALUE, Long.MAX_VALUE, 0x5DEECE66DL};

    @Nested
    @DisplayName("unbounded")
    class Unbounded {
        @Test
        @DisplayName("nextInt, nextLong, nextBoolean, nextDouble, interleaved, for several seeds")
        void interleaved() {
            for (long seed : SEEDS) {
                Random jdk = new Random(seed);
                SeededRandom ours = new SeededRandom(seed);
                for (int i = 0; i < 2000; i++) {
                    switch (i % 4) {
                        case 0 -> assertThat(ours.nextInt()).as("seed %d draw %d", seed, i).isEqualTo(jdk.nextInt());
                        case 1 -> assertThat(ours.nextLong()).as("seed %d draw %d", seed, i).isEqualTo(jdk.nextLong());
                        case 2 -> assertThat(ours.nextBoolean()).as("seed %d draw %d", seed, i)
                                .isEqualTo(jdk.nextBoolean());
                        default -> assertThat(ours.nextDouble()).as("seed %d draw %d", seed, i)
                                .isEqualTo(jdk.nextDouble());
                    }
                }
            }
        }
    }

    @Nested
    @DisplayName("bounded")
    class Bounded {
        @ParameterizedTest(name = "nextInt({0})")
        @CsvSource({"1", "2", "3", "7", "64", "1000", "1073741824", "1073741825", "2147483647"})
        void nextInt(int bound) {
            for (long seed : SEEDS) {
                Random jdk = new Random(seed);
                SeededRandom ours = new SeededRandom(seed);
                for (int i = 0; i < 1000; i++) {
                    int x = ours.nextInt(bound);
                    assertThat(x).as("seed %d draw %d", seed, i).isEqualTo(jdk.nextInt(bound)).isBetween(0, bound - 1);
                }
            }
        }

        @ParameterizedTest(name = "longs(500, {0}, {1})")
        @CsvSource({"4096, 8388608", "0, 1", "0, 1024", "-5, 5", "0, 4611686018427387905",
                    "-9223372036854775808, 9223372036854775807", "-4611686018427387904, 4611686018427387905"})
        void longs(long origin, long bound) {
            for (long seed : SEEDS) {
                long[] ours = new SeededRandom(seed).longs(500, origin, bound);
                assertThat(ours).as("seed %d", seed).isEqualTo(new Random(seed).longs(500, origin, bound).toArray());
                for (long x : ours) assertThat(x).isGreaterThanOrEqualTo(origin).isLessThan(bound);
            }
        }

        @Test
        @DisplayName("an empty range is refused")
        void emptyRange() {
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> new SeededRandom(1).nextLong(5, 5))
                    .isInstanceOf(IllegalArgumentException.class);
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> new SeededRandom(1).nextInt(0))
                    .isInstanceOf(IllegalArgumentException.class);
        }
    }
}
