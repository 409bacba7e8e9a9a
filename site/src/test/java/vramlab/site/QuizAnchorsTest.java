package vramlab.site;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import vramlab.quiz.NotesSection;

/**
 * Every quiz question's reread anchor ({@code notes.html#_rule_2_pools_never_mix}) is an id of its
 * chapter's rendered notes: the site build checks it ({@link SiteChecks}, {@link QuizAnchors}).
 * Here on pages written by hand with the ids the notes' headings get (plain {@code mvn test}), and
 * under {@code -Psite} on the pages this build rendered.
 */
class QuizAnchorsTest {
    @TempDir Path tmp;

    /** A site in {@code out} whose notes pages carry an id for every heading of their notes but {@code drop}, and one figure each. */
    static List<Course.ChapterDir> pages(Path out, String drop) throws Exception {
        List<Course.ChapterDir> chapters = Course.chapters(Repo.root());
        for (Course.ChapterDir c : chapters) {
            if (c.notes().isEmpty()) continue;
            StringBuilder html = new StringBuilder("<html><body>\n<img src=\"figures/f.svg\">\n");
            for (NotesSection.Heading h : NotesSection.headings(c.notes().get())) {
                if (h.anchor().equals(drop)) continue;
                html.append("<div class=\"sect").append(h.level() - 1).append("\">\n<h").append(h.level() + 1)
                        .append(" id=\"").append(h.anchor()).append("\">").append(h.title()).append("</h").append(h.level() + 1)
                        .append(">\n</div>\n");
            }
            Path page = out.resolve(c.id()).resolve("notes.html");
            Files.createDirectories(page.resolveSibling("figures"));
            Files.writeString(page.resolveSibling("figures/f.svg"), "<svg xmlns=\"http://www.w3.org/2000/svg\"/>\n");
            Files.writeString(page, html.append("</body></html>\n"));
        }
        return chapters;
    }

    @Test
    @DisplayName("the site build passes pages that have every question's anchor, and fails, naming the question, one that lacks one")
    void buildChecksEveryAnchor() throws Exception {
        Path whole = tmp.resolve("whole");
        List<Course.ChapterDir> chapters = pages(whole, null);
        assertThat(QuizAnchors.missing(whole, chapters)).isEmpty();
        SiteChecks.check(whole, chapters, true);

        Path lacking = tmp.resolve("lacking");
        pages(lacking, "_rule_2_pools_never_mix");
        assertThatThrownBy(() -> SiteChecks.check(lacking, chapters, true)).isInstanceOf(SiteBuilder.SiteException.class)
                .hasMessageContaining(lacking.resolve("ch03-caching-allocator/notes.html") + ": no id=\"_rule_2_pools_never_mix\","
                        + " where quiz --check sends a student who lost q3.4's points (reread ch03 \"Rule 2: pools never mix\""
                        + " (ch03-caching-allocator/notes.html#_rule_2_pools_never_mix))");
        // The decks alone (./vramlab slides) render no notes: nothing to check there.
        SiteChecks.check(Files.createDirectories(tmp.resolve("decks")), chapters, false);
    }

    @Test
    @DisplayName("-Psite: every question's reread anchor is an id of its chapter's rendered notes (student edition)")
    void studentPagesHaveEveryAnchor() throws Exception {
        assertThat(QuizAnchors.missing(Rendered.site(Edition.STUDENT), Course.chapters(Repo.root()))).isEmpty();
    }

    @Test
    @DisplayName("-Psite: every question's reread anchor is an id of its chapter's rendered notes (instructor edition)")
    void instructorPagesHaveEveryAnchor() throws Exception {
        assertThat(QuizAnchors.missing(Rendered.site(Edition.INSTRUCTOR), Course.chapters(Repo.root()))).isEmpty();
    }
}
