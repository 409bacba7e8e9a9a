package vramlab.slides;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import vramlab.site.Course;
import vramlab.site.DeckLint;
import vramlab.site.NotesLint;

/**
 * The decks as written, checked without rendering (the browser check under -Psite renders
 * them and checks that every slide fits its 1280x720 frame).
 */
@DisplayName("The decks")
class DecksTest {
    static final Path ROOT = root();

    static Path root() {
        Path p = Path.of("").toAbsolutePath();
        while (p != null && !Files.isDirectory(p.resolve("slides"))) p = p.getParent();
        if (p == null) throw new IllegalStateException("no slides/ above " + Path.of("").toAbsolutePath());
        return p;
    }

    @Test
    @DisplayName("are one a chapter of the course map, named slides/chNN-slug.adoc")
    void oneAChapter() throws IOException {
        List<String> decks;
        try (Stream<Path> s = Files.list(ROOT.resolve("slides"))) {
            decks = s.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".adoc"))
                    .filter(n -> !n.equals("README.adoc")).sorted().toList();
        }
        assertThat(decks).containsExactlyElementsOf(Course.map().stream().map(e -> e.id() + ".adoc").toList());
    }

    @TestFactory
    @DisplayName("are written as slides: notes on every slide, few words, short code, figure first, what to remember last")
    Stream<DynamicTest> lint() {
        return Course.map().stream().map(e -> DynamicTest.dynamicTest(e.id(), () -> {
            Path deck = Course.deckOf(ROOT, e.id());
            List<Object> problems = new ArrayList<>(NotesLint.check(deck, ROOT));
            problems.addAll(DeckLint.check(deck, ROOT, e.title()));
            assertThat(problems).isEmpty();
        }));
    }

    @TestFactory
    @DisplayName("average under 45 words a slide, and have at least six slides besides the title")
    Stream<DynamicTest> words() {
        return Course.map().stream().map(e -> DynamicTest.dynamicTest(e.id(), () -> {
            Path deck = Course.deckOf(ROOT, e.id());
            List<DeckLint.Slide> slides = DeckLint.slides(deck, Files.readAllLines(deck), ROOT, new ArrayList<>());
            assertThat(slides).hasSizeGreaterThanOrEqualTo(6);
            double average = slides.stream().mapToInt(DeckLint.Slide::words).average().orElse(0);
            assertThat(average).as("%s: words a slide", e.id()).isLessThan(45);
            assertThat(slides).allSatisfy(s -> assertThat(s.notes()).as("%s: '%s' has notes", e.id(), s.title()).isTrue());
        }));
    }
}
