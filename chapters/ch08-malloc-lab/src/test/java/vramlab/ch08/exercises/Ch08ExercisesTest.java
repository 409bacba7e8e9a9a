package vramlab.ch08.exercises;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Locale;
import java.util.stream.LongStream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Each exercise's answer, from the reference, agrees with a model written here from the rules
 * the notes state, seed by seed.
 */
class Ch08ExercisesTest {
    static LongStream seeds() { return LongStream.rangeClosed(1, 30); }

    /** The class by the notes' rule: the smallest 512 B x 2^c at or above the size, c <= 11. */
    static int model(long size) {
        for (int c = 0; c <= 11; c++) if ((512L << c) >= size) return c;
        return -1;
    }

    @ParameterizedTest
    @MethodSource("seeds")
    void sizeClasses(long seed) {
        StringBuilder want = new StringBuilder();
        for (long s : PredictTheSizeClasses.sizes(seed)) {
            int c = model(s);
            long block = c < 0 ? (s + (2 << 20) - 1) / (2 << 20) * (2 << 20) : 512L << c;
            want.append("alloc(").append(s).append("): class ").append(c).append(", block ").append(block)
                    .append(" B, waste ").append(block - s).append(" B\n");
        }
        assertThat(new PredictTheSizeClasses().answer(seed)).isEqualTo(want.toString());
        assertThat(new PredictTheSizeClasses().prompt(seed)).doesNotContain("class 0,");
    }

    @ParameterizedTest
    @MethodSource("seeds")
    void slabs(long seed) {
        long[] perClass = new long[12];
        for (long[] q : CountTheSlabs.requests(seed)) perClass[model(q[1])] += q[0];
        long slabs = 0;
        for (int c = 0; c < 12; c++) {
            long perSlab = (2L << 20) / (512L << c);
            slabs += (perClass[c] + perSlab - 1) / perSlab;
        }
        assertThat(new CountTheSlabs().answer(seed)).startsWith(slabs + " cudaMalloc calls, " + slabs * (2L << 20) + " B");
    }

    @ParameterizedTest
    @MethodSource("seeds")
    void score(long seed) {
        long[][] f = ScoreTheEntry.figures(seed);
        double sum = 0;
        for (long[] w : f) sum += 0.6 * w[0] / w[1] + 0.4 * Math.min(1.0, (double) w[3] / w[2]);
        assertThat(new ScoreTheEntry().answer(seed)).endsWith(String.format(Locale.ROOT, "index = %.2f%n", 100 * sum / 2));
    }
}
