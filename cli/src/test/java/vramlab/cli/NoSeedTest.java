package vramlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import vramlab.quiz.KitPaths;

/**
 * Students never see the documents the kit grew from: no lab output, quiz prompt, answer sheet
 * or line of labs/ (Javadoc and comments included, which students read) names "the seed", "the
 * seed chapter" or "the fact sheet". ("seed 1", a random generator's seed, is fine.)
 */
@DisplayName("nothing a student reads cites a document they do not have")
class NoSeedTest {
    static final Pattern BANNED = Pattern.compile(
            "(?i)\\b(the seeds?|seed chapter|seed's|seed question|seed variant|fact[ -]sheets?)\\b");

    @ParameterizedTest(name = "chapter {0}")
    @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7})
    @DisplayName("lab output and quiz prompts, for the notes' numbers and for a student's")
    void labAndQuiz(int chapter) {
        String c = Integer.toString(chapter);
        CliRun lab = CliRun.of("lab", c, "--reference");
        assertThat(lab.status()).as(lab.err()).isZero();
        assertThat(lab.out()).startsWith("== ").doesNotContain("[needs step").doesNotContain("[stopped]")
                .doesNotContainPattern(BANNED);
        if (chapter == 4) assertThat(lab.out()).contains("empty_cache() released: 0 MiB");
        for (String[] args : new String[][] {{"quiz", c}, {"quiz", c, "--student", "alice"}}) {
            CliRun q = CliRun.of(args);
            assertThat(q.status()).as(q.err()).isZero();
            assertThat(q.out()).as(String.join(" ", args)).doesNotContainPattern(BANNED);
        }
    }

    @Test
    @DisplayName("labs/ (sources, Javadoc, comments, Todo messages) and every answer sheet")
    void files() throws IOException {
        Path root = KitPaths.root();
        for (Path dir : new Path[] {root.resolve("labs/src/main/java"), root.resolve("labs/answers"),
                root.resolve("solutions/answers")}) {
            try (Stream<Path> s = Files.walk(dir)) {
                for (Path f : s.filter(Files::isRegularFile).toList()) {
                    assertThat(Files.readString(f)).as(root.relativize(f).toString()).doesNotContainPattern(BANNED);
                }
            }
        }
    }
}
