package vramlab.quiz.feedback;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import vramlab.quiz.KitPaths;

/**
 * A graded step's {@code Reread:} line named a heading and no place to open: {@code check} now
 * gives it the place {@code quiz --check} gives its reread line, {@code grade} the one its quiz
 * rows carry, from the copy's root; the heading and every other line stay.
 */
class RereadPlacesTest {
    @TempDir Path tmp;

    static final String FAILURE = "roundSize(1 B): expected 512 B but was 0 B\nLooks like: rounding down.\n"
            + "Rule: a block must hold the whole request.\nReread: ch09 \"Rule 1: one\".";

    /** A student's copy: chapter 9's notes with the heading on line 3, and a release's marker. */
    private Path copy() throws IOException {
        Path copy = tmp.resolve("my copy");
        Files.writeString(Files.createDirectories(copy.resolve("chapters/ch09-x/src/docs/asciidoc")).resolve("ch09-x.adoc"),
                "= Chapter nine\n\n=== Rule 1: one\n");
        Files.createDirectories(copy.resolve("labs"));
        Files.writeString(copy.resolve(KitPaths.RELEASE_MARKER), "a release\n");
        return copy;
    }

    @Test
    @DisplayName("check: the AsciiDoc's path:line from where the student stands, the heading kept, the other lines as they were")
    void fromTheStudentsFolder() throws IOException {
        Path copy = copy();
        String adoc = "chapters/ch09-x/src/docs/asciidoc/ch09-x.adoc:3";
        String head = FAILURE.substring(0, FAILURE.lastIndexOf('\n') + 1);
        assertThat(RereadPlaces.fromCwd(copy, copy).in(FAILURE)).isEqualTo(head + "Reread: ch09 \"Rule 1: one\" (" + adoc + ").");
        assertThat(RereadPlaces.fromCwd(copy, copy.resolve("labs")).in(FAILURE)).as("from labs/")
                .endsWith("\nReread: ch09 \"Rule 1: one\" (../" + adoc + ").");
        assertThat(RereadPlaces.fromCwd(copy, copy).in(FAILURE + "\nState:\nmap [A 24]")).as("a line after it")
                .endsWith("(" + adoc + ").\nState:\nmap [A 24]");
    }

    @Test
    @DisplayName("check: a rendered page as a file: address with the section's anchor; grade: the page from the copy's root")
    void renderedPage() throws IOException {
        Path copy = copy();
        Path html = Files.createDirectories(copy.resolve("docs/ch09-x")).resolve("notes.html");
        Files.writeString(html, "<h3 id=\"_rule_1_one\">Rule 1: one</h3>\n");
        assertThat(RereadPlaces.fromCwd(copy, copy.resolve("labs")).in(FAILURE))
                .endsWith("\nReread: ch09 \"Rule 1: one\" (" + html.toUri() + "#_rule_1_one).")
                .contains("file:///").contains("/my%20copy/docs/ch09-x/notes.html#_rule_1_one)");
        assertThat(RereadPlaces.fromRoot(copy).in(FAILURE)).as("grade's reports and results.json, as its quiz rows")
                .endsWith("\nReread: ch09 \"Rule 1: one\" (docs/ch09-x/notes.html#_rule_1_one).");
    }

    @Test
    @DisplayName("a failure with no Reread: line, one that is not the kit's, and a copy without the chapter's notes are left as they were")
    void leftAlone() throws IOException {
        Path copy = copy();
        RereadPlaces places = RereadPlaces.fromCwd(copy, copy);
        assertThat(places.in("expected 1 but was 2")).isEqualTo("expected 1 but was 2");
        assertThat(places.in("Reread: the notes.")).isEqualTo("Reread: the notes.");
        assertThat(places.in("x\nReread: ch09 \"Rule 1: one\". And more")).isEqualTo("x\nReread: ch09 \"Rule 1: one\". And more");
        assertThat(RereadPlaces.fromCwd(tmp.resolve("nowhere"), tmp).in(FAILURE)).isEqualTo(FAILURE);
        assertThat(places.in(null)).isNull();
    }
}
