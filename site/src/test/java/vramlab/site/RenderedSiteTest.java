package vramlab.site;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import vramlab.kit.NotesSource;

/**
 * The two editions as this build rendered them (under {@code -Psite}; see {@link Rendered}):
 * what the student edition must never show, what the instructor edition must show, and what
 * every page must keep verbatim.
 */
@DisplayName("The rendered site")
class RenderedSiteTest {
    static final GradedSteps STEPS = GradedSteps.of(Repo.root());
    static final Pattern MARKERS = Pattern.compile("lab:begin|lab:end");
    /** A document students do not have. A generator's seed ("any seed", "seeds 1 to 5") is fine. */
    static final Pattern SEED = Pattern.compile(
            "(?i)(fact sheet|seed chapter|\\bseed's\\b|\\bthe seeds?\\b(?!\\s*(=|:|\\d|number|value)))");

    @Nested
    @DisplayName("in the student edition")
    class Student {
        @Test
        @DisplayName("shows no line of any graded step's body, and no lab marker, in any notes page or deck")
        void noBodies() throws IOException {
            Path site = Rendered.site(Edition.STUDENT);
            List<String> leaks = new ArrayList<>();
            for (Path page : Rendered.pages(site)) {
                String html = Files.readString(page);
                Set<String> shown = lines(Rendered.listings(html));
                for (GradedSteps.Step s : STEPS.all()) {
                    for (String l : STEPS.distinctiveLines(s)) {
                        if (shown.contains(l)) leaks.add(site.relativize(page) + " shows step " + s.id() + ": " + l);
                    }
                }
                Matcher m = MARKERS.matcher(BookPage.plainText(html));
                if (m.find()) leaks.add(site.relativize(page) + " shows a marker: " + m.group());
            }
            assertThat(leaks).isEmpty();
        }

        @Test
        @DisplayName("its course page (a release's docs/index.html) names no slides/ source and no command a release refuses")
        void indexIsTheStudents() throws IOException {
            String index = BookPage.plainText(Files.readString(Rendered.site(Edition.STUDENT).resolve("index.html")));
            assertThat(index).doesNotContain("For instructors").doesNotContain("slides/ch").doesNotContain("./vramlab site")
                    .doesNotContain("./vramlab slides").contains("Slides and steps");
        }

        @Test
        @DisplayName("shows each step's contract: its placeholder line stands in the notes of its chapter")
        void placeholders() throws IOException {
            Path site = Rendered.site(Edition.STUDENT);
            for (GradedSteps.Step s : STEPS.all()) {
                String chapter = String.format("ch%02d-", Integer.parseInt(s.id().split("\\.")[0]));
                Path notes = notesOf(site, chapter);
                assertThat(Rendered.listings(Files.readString(notes))).as("notes of step %s", s.id())
                        .contains(s.placeholder());
            }
        }
    }

    @Test
    @DisplayName("in the instructor edition, shows every graded step's body, without markers")
    void instructorShowsBodies() throws IOException {
        Path site = Rendered.site(Edition.INSTRUCTOR);
        Set<String> shown = new HashSet<>();
        for (Path page : Rendered.pages(site)) {
            String html = Files.readString(page);
            shown.addAll(lines(Rendered.listings(html)));
            assertThat(MARKERS.matcher(BookPage.plainText(html)).find()).as("a marker in %s", page).isFalse();
        }
        for (GradedSteps.Step s : STEPS.all()) {
            assertThat(STEPS.distinctiveLines(s)).as("step %s has lines no other code has", s.id()).isNotEmpty();
            assertThat(shown).as("the instructor edition shows step %s's body", s.id())
                    .containsAll(STEPS.distinctiveLines(s));
        }
    }

    @Test
    @DisplayName("keeps every code span of the notes and decks verbatim: no arrows, eaten underscores or curly quotes")
    void codeSpansVerbatim() throws IOException {
        Path site = Rendered.site(Edition.STUDENT);
        List<String> lost = new ArrayList<>();
        for (Course.ChapterDir c : Course.chapters(Repo.root())) {
            List<Path> sources = new ArrayList<>();
            try (Stream<Path> s = Files.walk(c.docs())) {
                s.filter(p -> p.toString().endsWith(".adoc")).forEach(sources::add);
            }
            String html = Files.readString(site.resolve(c.id()).resolve("notes.html"));
            String deck = Files.readString(site.resolve(c.id()).resolve("slides.html"));
            for (Path src : sources) {
                for (String span : NotesSource.codeSpans(Files.readString(src))) {
                    if (!html.contains("<code>" + escape(span) + "</code>")) lost.add(c.id() + " notes: `" + span + "`");
                }
            }
            for (String span : NotesSource.codeSpans(Files.readString(c.slides().orElseThrow()))) {
                if (!deck.contains("<code>" + escape(span) + "</code>")) lost.add(c.id() + " deck: `" + span + "`");
            }
        }
        assertThat(lost).isEmpty();
        String ch03 = Files.readString(site.resolve("ch03-caching-allocator/notes.html"));
        assertThat(ch03).contains("<code>requested &lt;= allocated &lt;= reserved</code>").doesNotContain("&#8656;");
        String ch06 = Files.readString(site.resolve("ch06-buddy/notes.html"));
        assertThat(ch06).contains("<code>__rmqueue_smallest()</code>", "<code>__free_one_page()</code>");
    }

    @Test
    @DisplayName("never sends a reader to a document they do not have (the seed, a fact sheet), in either edition")
    void noSeedDocuments() throws IOException {
        List<String> found = new ArrayList<>();
        for (Edition e : Edition.values()) {
            Path site = Rendered.site(e);
            for (Path page : Rendered.pages(site)) {
                String text = BookPage.plainText(Files.readString(page));
                Matcher m = SEED.matcher(text);
                while (m.find()) {
                    int from = Math.max(0, m.start() - 60);
                    found.add(e.id() + " " + site.relativize(page) + ": ..."
                            + text.substring(from, Math.min(text.length(), m.end() + 40)).replaceAll("\\s+", " ") + "...");
                }
            }
        }
        assertThat(found).isEmpty();
    }

    @Test
    @DisplayName("every notes page links its previous and next chapter, its deck and the course map")
    void navigation() throws IOException {
        Path site = Rendered.site(Edition.STUDENT);
        String ch03 = Files.readString(site.resolve("ch03-caching-allocator/notes.html"));
        assertThat(ch03).contains("rel=\"prev\" href=\"../ch02-cudamalloc/notes.html\"",
                "rel=\"next\" href=\"../ch04-real-oom/notes.html\"", "href=\"slides.html\"", "href=\"../index.html\"",
                "class=\"toc2\"", "<p class=\"vl-kicker\">Chapter 3</p>",
                "href=\"../ch05-expandable-segments/notes.html\" title=\"Chapter 5 \u00b7 Expandable segments");
        assertThat(BookPage.plainText(ch03)).contains("The caching allocator: size classes, pools, split, merge");
    }

    static Set<String> lines(String text) {
        Set<String> out = new HashSet<>();
        for (String l : text.split("\n")) out.add(l.trim());
        return out;
    }

    static Path notesOf(Path site, String prefix) throws IOException {
        try (Stream<Path> s = Files.list(site)) {
            return s.filter(p -> p.getFileName().toString().startsWith(prefix)).findFirst().orElseThrow()
                    .resolve("notes.html");
        }
    }

    static String escape(String s) { return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;"); }
}
