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
        @CsvSource({"4096, 8388608", "0, 1", "0, 1024", "-5, 5", "0, 4611686018427387905", "-4096, 4096", "1000, 1064",
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

    @Nested
    @DisplayName("a range wider than 2^63, where every draw out of range is drawn again")
    class WideRanges {
        /** Five seeds, spread over the longs, whose first nextLong() has the sign asked for (and is not -1 or 0). */
        static java.util.stream.LongStream firstDraws(boolean negative) {
            long[] seeds = java.util.stream.LongStream.range(1, 200).map(i -> i * 0x9E3779B97F4A7C15L)
                    .filter(seed -> {
                        long x = new Random(seed).nextLong();
                        return negative ? x < -1 : x > 0;
                    }).limit(5).toArray();
            assertThat(seeds).hasSize(5);
            return java.util.Arrays.stream(seeds);
        }

        @Test
        @DisplayName("a first draw exactly at the origin is kept, as Random.longs keeps it")
        void drawAtTheOrigin() {
            firstDraws(true).forEach(seed -> {
                long x = new Random(seed).nextLong();               // origin = x, bound = MAX: 2^63 - x > 2^63 - 1
                long ours = new SeededRandom(seed).nextLong(x, Long.MAX_VALUE);
                assertThat(ours).as("seed %d", seed).isEqualTo(x)
                        .isEqualTo(new Random(seed).longs(1, x, Long.MAX_VALUE).toArray()[0]);
            });
        }

        @Test
        @DisplayName("a first draw exactly at the bound is drawn again, as Random.longs draws it again")
        void drawAtTheBound() {
            firstDraws(false).forEach(seed -> {
                long x = new Random(seed).nextLong();               // origin = MIN, bound = x: x + 2^63 > 2^63 - 1
                long ours = new SeededRandom(seed).nextLong(Long.MIN_VALUE, x);
                assertThat(ours).as("seed %d", seed).isLessThan(x)
                        .isEqualTo(new Random(seed).longs(1, Long.MIN_VALUE, x).toArray()[0]);
            });
        }
    }
}
