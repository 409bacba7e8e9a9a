package vramlab.site;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The rules of a deck, on small decks beside a copy of ch04's real source. */
@DisplayName("Deck lint")
class DeckLintTest {
    @TempDir Path repo;
    Path deck;

    @BeforeEach
    void layout() throws IOException {
        Path java = Files.createDirectories(repo.resolve("chapters/ch04-real-oom/src/main/java/vramlab/ch04"));
        Files.copy(Repo.root().resolve("chapters/ch04-real-oom/src/main/java/vramlab/ch04/RealOomLab.java"),
                java.resolve("RealOomLab.java"));
        deck = Files.createDirectories(repo.resolve("slides")).resolve("ch04-real-oom.adoc");
    }

    static final String GOOD = """
            = T

            == The picture

            image::figures/fragmentation.svg[]

            [.notes]
            --
            What the presenter says.
            --

            == What to remember

            * one thing

            [.notes]
            --
            Close.
            --
            """;

    List<NotesLint.Problem> lint(String text) throws IOException {
        Files.writeString(deck, text);
        return DeckLint.check(deck, repo, "T");
    }

    @Test
    @DisplayName("a deck with a figure first, notes everywhere and 'What to remember' last passes")
    void good() throws IOException {
        assertThat(lint(GOOD)).isEmpty();
        assertThat(DeckLint.slides(deck, Files.readAllLines(deck), repo, new java.util.ArrayList<>()))
                .extracting(DeckLint.Slide::words).containsExactly(2, 5);
    }

    @Test
    @DisplayName("a slide without speaker notes is named")
    void notes() throws IOException {
        assertThat(lint(GOOD.replace("[.notes]\n--\nClose.\n--\n", ""))).singleElement().asString()
                .contains(":12:", "'What to remember' has no speaker notes");
    }

    @Test
    @DisplayName("a slide of more than 50 words is refused; notes do not count")
    void words() throws IOException {
        String many = "word ".repeat(60);
        assertThat(lint(GOOD.replace("* one thing", "* " + many))).extracting(NotesLint.Problem::what)
                .anyMatch(w -> w.contains("shows 63 words"));
        assertThat(lint(GOOD.replace("Close.", many))).isEmpty();
    }

    @Test
    @DisplayName("code longer than 12 lines, or the lab's whole output, has no place on a slide")
    void code() throws IOException {
        String longCode = GOOD.replace("* one thing", "[source,java]\n----\n"
                + "include::../chapters/ch04-real-oom/src/main/java/vramlab/ch04/RealOomLab.java[tag=fragmentation]\n----");
        assertThat(lint(longCode)).extracting(NotesLint.Problem::what).anyMatch(w -> w.contains("lines of code (at most 12"));
        assertThat(lint(GOOD.replace("* one thing", "....\ninclude::{generated}/lab-output.txt[]\n....")))
                .extracting(NotesLint.Problem::what).anyMatch(w -> w.contains("never shows the lab's whole output"));
    }

    @Test
    @DisplayName("the first slide shows a figure, the last is 'What to remember', the title is the chapter's")
    void shape() throws IOException {
        assertThat(lint(GOOD.replace("image::figures/fragmentation.svg[]", "Words.")))
                .extracting(NotesLint.Problem::what).anyMatch(w -> w.contains("figure first"));
        assertThat(lint(GOOD.replace("== What to remember", "== The end")))
                .extracting(NotesLint.Problem::what).anyMatch(w -> w.contains("'== What to remember'"));
        assertThat(lint(GOOD.replace("= T", "= Another title"))).extracting(NotesLint.Problem::what)
                .anyMatch(w -> w.contains("'= T'"));
    }
}
