package vramlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import vramlab.kit.ChapterLab;
import vramlab.kit.Chapters;
import vramlab.kit.Exercise;

@DisplayName("vramlab exercise")
class ExerciseCommandTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) {
        Io io = new Io(new ByteArrayInputStream(new byte[0]), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return Main.run(args, io);
    }

    private String out() { return out.toString(StandardCharsets.UTF_8); }

    @Test
    @DisplayName("without a number it lists the chapter's exercises")
    void lists() {
        assertThat(run("exercise", "caching-allocator")).isZero();
        assertThat(out()).contains("Exercises of ch03-caching-allocator").contains("  1. ");
    }

    @Test
    @DisplayName("with a number it prints the prompt for the seed, and the answer only when asked")
    void promptThenAnswer() {
        assertThat(run("exercise", "3", "1", "--seed", "7")).isZero();
        String prompt = out();
        assertThat(prompt).contains("seed 7").contains("add --answer").doesNotContain("Answer");
        out.reset();
        assertThat(run("exercise", "3", "1", "--seed", "7", "--answer")).isZero();
        assertThat(out()).startsWith(prompt.substring(0, prompt.indexOf("(add --answer")).stripTrailing())
                .contains("Answer (computed by the simulator for seed 7)");
    }

    @Test
    @DisplayName("every chapter's every exercise is deterministic per seed, and seeds differ")
    void deterministic() {
        for (ChapterLab c : Chapters.all()) {
            for (Exercise e : c.exercises()) {
                for (long seed = 1; seed <= 5; seed++) {
                    assertThat(e.prompt(seed)).as(c.id() + " " + e.title()).isEqualTo(e.prompt(seed)).isNotBlank();
                    assertThat(e.answer(seed)).as(c.id() + " " + e.title()).isEqualTo(e.answer(seed)).isNotBlank();
                }
                long distinct = java.util.stream.LongStream.rangeClosed(1, 8).mapToObj(e::prompt).distinct().count();
                assertThat(distinct).as(c.id() + " " + e.title() + ": seeds give other numbers").isGreaterThan(1);
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            exercise                      | expected a chapter
            exercise 3 99                 | expected a number from 1 to
            exercise 3 1 --seed x         | --seed 'x': expected a whole number
            exercise 3 --answer           | need an exercise number
            exercise nope                 | exercise
            """)
    @DisplayName("bad input is one error line and exit 2")
    void badInput(String line, String message) {
        assertThat(run(line.split(" "))).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).startsWith("error: ").contains(message)
                .doesNotContain("Exception");
    }
}
