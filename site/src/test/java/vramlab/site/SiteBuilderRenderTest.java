package vramlab.site;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Renders a small course (the fixture notes beside a copy of ch04's real source) with
 * Asciidoctor. JRuby makes each render take seconds, so these run only under {@code -Psite}
 * (which sets {@code vramlab.site.render}); plain {@code mvn test} skips them with a message.
 */
@DisplayName("Rendering the site")
class SiteBuilderRenderTest {
    @TempDir Path repo;
    Path docs;

    @BeforeEach
    void course() throws IOException {
        assumeTrue(Boolean.getBoolean("vramlab.site.render"), "rendering tests run under -Psite (JRuby is slow)");
        Path real = Repo.root();
        Path ch = repo.resolve("chapters/ch04-real-oom");
        copyTree(real.resolve("chapters/ch04-real-oom/src/main"), ch.resolve("src/main"));
        copyTree(real.resolve("site/src/site"), repo.resolve("site/src/site"));
        docs = Files.createDirectories(ch.resolve("src/docs/asciidoc"));
        Files.createDirectories(repo.resolve("chapters/ch03-caching-allocator"));
        Files.createDirectories(repo.resolve("slides"));
        try (InputStream in = getClass().getResourceAsStream("/fixtures/deck-ch04-real-oom.adoc")) {
            Files.copy(in, repo.resolve("slides/ch04-real-oom.adoc"));
        }
    }

    SiteBuilder builder() {
        return new SiteBuilder(repo, repo.resolve("out/site"), Repo.root().resolve("site/target/revealjs/package"),
                Repo.root().resolve("site/target/typeface/package"), Edition.STUDENT);
    }

    void notes(String text) throws IOException { Files.writeString(docs.resolve("ch04-real-oom.adoc"), text); }

    @Test
    @DisplayName("a chapter becomes notes, a deck, its figures and the lab's real output; the index links them")
    void rendersAChapter() throws IOException {
        try (InputStream in = getClass().getResourceAsStream("/fixtures/ch04-real-oom.adoc")) {
            Files.copy(in, docs.resolve("ch04-real-oom.adoc"));
        }
        Path index = builder().build();
        Path out = index.getParent();
        String notes = Files.readString(out.resolve("ch04-real-oom/notes.html"));
        String text = notes.replaceAll("<[^>]+>", "");
        assertThat(notes).contains("<img src=\"figures/fragmentation.svg\"", "<pre class=\"rouge highlight\">");
        assertThat(text).contains("public static Sim fragmentation(PrintStream out)")  // the tagged include
                .contains("What to notice:");                                        // the lab, run at build time
        String deck = Files.readString(out.resolve("ch04-real-oom/slides.html"));
        assertThat(deck).contains("../reveal.js/dist/reveal.js", "Chapter 4", "16 MiB free, 8 MiB refused")
                .containsPattern("center: *true");                    // slides sit mid-frame, not at the top
        assertThat(BookPage.plainText(deck)).contains("public static String figureFragmentation() {")
                .doesNotContain("tag::figure-fragmentation");
        assertThat(notes).contains("href=\"../book.css\"", "class=\"vl-pager\"", "Chapter 4");
        assertThat(out.resolve("fonts/" + SiteBuilder.FONT_FILES.get(0))).exists();
        assertThat(out.resolve("ch04-real-oom/figures/fragmentation.svg")).exists();
        assertThat(out.resolve("ch03-caching-allocator/figures/split-merge.svg")).exists();
        assertThat(Files.readString(index)).contains("href=\"ch04-real-oom/notes.html\"",
                "href=\"ch04-real-oom/slides.html\"");
        assertThat(OfflineCheck.scanTree(out)).isEmpty();
    }

    @Test
    @DisplayName("an Asciidoctor warning fails the build: here an include of build output that is not there")
    void warningFails() throws IOException {
        notes("= Fragmentation and the real OOM\n\nimage::figures/fragmentation.svg[]\n\n....\n"
                + "include::{generated}/no-such-output.txt[]\n....\n");
        assertThatThrownBy(() -> builder().build()).isInstanceOf(SiteBuilder.SiteException.class)
                .hasMessageContaining("Asciidoctor warned").hasMessageContaining("no-such-output.txt");
    }

    @Test
    @DisplayName("a chapter page without a generated figure fails the build")
    void figureRequired() throws IOException {
        notes("= Fragmentation and the real OOM\n\nNo picture here.\n");
        assertThatThrownBy(() -> builder().build()).isInstanceOf(SiteBuilder.SiteException.class)
                .hasMessageContaining("notes.html: shows no generated figure");
    }

    static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> s = Files.walk(from)) {
            for (Path p : (Iterable<Path>) s::iterator) {
                Path t = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) Files.createDirectories(t); else Files.copy(p, t);
            }
        }
    }
}
