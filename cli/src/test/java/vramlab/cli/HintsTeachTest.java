package vramlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import vramlab.quiz.KitPaths;
import vramlab.quiz.build.ExpressionLeaks;

/**
 * Hints teach without answering: no text a student reads while working a step (the chapters'
 * feedback hints, the JShell start-up and its help) shows a graded step's body, compared as
 * expressions with names and numbers filled in ({@link ExpressionLeaks}), not as text.
 */
class HintsTeachTest {
    static Path root;
    static ExpressionLeaks leaks;

    @BeforeAll
    static void shapes() throws Exception {
        root = KitPaths.root();
        leaks = ExpressionLeaks.of(root.resolve("solutions"));
    }

    @Test
    @DisplayName("the release's check reads a playground bundle, where minified code keeps a body's shape; not reveal.js")
    void readsTheBundle(@TempDir Path dir) throws Exception {
        Files.createDirectories(dir.resolve("docs/playground"));
        Files.createDirectories(dir.resolve("docs/reveal.js/dist"));
        String minified = "function $b(a,b){return a^(1<<b);}";            // 6.2's body, names minified
        Files.writeString(dir.resolve("docs/playground/vramlab-playground.js"), minified);
        Files.writeString(dir.resolve("docs/reveal.js/dist/reveal.js"), minified);
        assertThat(leaks.shownIn(dir)).singleElement().asString()
                .startsWith("docs/playground/vramlab-playground.js: shows the body of step 6.2");
    }

    @Test
    @DisplayName("the check knows the bodies, and finds the hints that once printed them")
    void findsTheOldLeaks() {
        assertThat(leaks.shapes()).containsKeys("5.1", "6.2", "6.6");
        assertThat(leaks.shownIn("flip the order's bit, offset ^ (1 << order)")).singleElement().asString().startsWith("step 6.2");
        assertThat(leaks.shownIn("ceil(n / 16) = (n + BLOCK - 1) / BLOCK")).anySatisfy(s -> assertThat(s).startsWith("step 6.6"));
        assertThat(leaks.shownIn("round the END up, (offset + size + page - 1) / page")).isNotEmpty();
        // 6.5's format is Linux's, which the step's Javadoc quotes: a contract, so not a body.
        assertThat(leaks.shownIn("a block must hold the whole size: round UP to the next power of two, never down")).isEmpty();
    }

    @Test
    @DisplayName("no feedback hint, JShell start-up or JShell help shows a step's body as an expression")
    void noHintShowsABody() throws Exception {
        List<String> shown = new ArrayList<>();
        try (Stream<Path> s = Files.walk(root.resolve("chapters"))) {
            for (Path f : s.filter(Files::isRegularFile).filter(p -> p.toString().matches(".*(Feedback\\.java|\\.jsh|Lab\\.java)$"))
                    .filter(p -> !p.toString().contains("/target/")).sorted().toList()) {
                String text = Files.readString(f);
                String said = f.toString().endsWith(".jsh") ? text : ExpressionLeaks.literals(text);
                for (String l : leaks.shownIn(said)) shown.add(root.relativize(f) + ": " + l);
            }
        }
        assertThat(shown).isEmpty();
    }
}
