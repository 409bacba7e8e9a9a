package vramlab.quiz;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The section a wrong quiz answer sends a student to: its heading and the anchor the rendered notes give it. */
class NotesSectionTest {
    @TempDir Path tmp;

    @Test
    @DisplayName("a generated anchor is Asciidoctor's: headings of the chapters, with the ids AsciidoctorJ 2.5.13 gave them")
    void generated() {
        // Each pair was read from the section's id in AsciidoctorJ 2.5.13's own parse of the chapter.
        assertThat(NotesSection.anchor("Rule 3: best fit from the pool's free set")).isEqualTo("_rule_3_best_fit_from_the_pools_free_set");
        assertThat(NotesSection.anchor("Rule 1: a large cudaMalloc rounds up to whole 2 MiB pages; small ones share pages"))
                .isEqualTo("_rule_1_a_large_cudamalloc_rounds_up_to_whole_2_mib_pages_small_ones_share_pages");
        assertThat(NotesSection.anchor("One reservation per (pool, stream), pages on demand"))
                .isEqualTo("_one_reservation_per_pool_stream_pages_on_demand");
        assertThat(NotesSection.anchor("Rule 5: blocks are ceil(tokens / 16)")).isEqualTo("_rule_5_blocks_are_ceiltokens_16");
        assertThat(NotesSection.anchor("\"Free neighbours merge\"")).isEqualTo("_free_neighbours_merge");
        assertThat(NotesSection.anchor("A third design: the driver's stream-ordered pool"))
                .isEqualTo("_a_third_design_the_drivers_stream_ordered_pool");
        assertThat(NotesSection.anchor("Misconception: `torch.cuda.empty_cache()` frees pinned memory too"))
                .isEqualTo("_misconception_torch_cuda_empty_cache_frees_pinned_memory_too");
        assertThat(NotesSection.anchor("Shrinking: empty_cache unmaps pages")).isEqualTo("_shrinking_empty_cache_unmaps_pages");
    }

    @Test
    @DisplayName("the notes' headings: an explicit id wins, a repeat gets _2, an included file's count, a listing's do not")
    void headings() throws IOException {
        Files.writeString(tmp.resolve("part.adoc"), """
                [[part]]
                [appendix]
                == The part

                === Run it
                """);
        Path notes = Files.writeString(tmp.resolve("ch09-x.adoc"), """
                = Chapter nine
                :toc:

                == Run it

                [#rule-one.crux]
                === Rule 1: one

                ----
                == not a heading
                ----

                include::part.adoc[]

                === Rule 2: two's
                """);
        assertThat(NotesSection.headings(notes)).containsExactly(
                new NotesSection.Heading("Run it", 2, "_run_it", 4),
                new NotesSection.Heading("Rule 1: one", 3, "rule-one", 7),
                new NotesSection.Heading("The part", 2, "part", 13),           // an included file's: the include's line
                new NotesSection.Heading("Run it", 3, "_run_it_2", 13),
                new NotesSection.Heading("Rule 2: two's", 3, "_rule_2_twos", 15));
        assertThat(NotesSection.of("ch09", "ch09-x", "Rule 1: one", notes).reread())
                .isEqualTo("reread ch09 \"Rule 1: one\" (ch09-x/notes.html#rule-one)");
        Path release = Files.writeString(tmp.resolve("ch09-r.adoc"), "== Rule `+x()+`\n");
        assertThat(NotesSection.of("ch09", "ch09-x", "Rule `x()`", release).anchor())
                .as("a release writes a code span `x` as `+x+`: the same section").isEqualTo("_rule_x");
        assertThat(NotesSection.of("ch09", "ch09-x", "Rule 1: one", tmp.resolve("missing.adoc")).reread())
                .as("no notes to read the anchor from: the heading alone").isEqualTo("reread ch09 \"Rule 1: one\"");
        Path quoted = Files.writeString(tmp.resolve("ch09-q.adoc"), "== \"Free neighbours merge\"\n");
        assertThat(NotesSection.of("ch09", "ch09-q", "\"Free neighbours merge\"", quoted).reread())
                .as("a heading in quotes keeps its own pair (it read \"\"Free neighbours merge\"\")")
                .isEqualTo("reread ch09 \"Free neighbours merge\" (ch09-q/notes.html#_free_neighbours_merge)");
    }

    /**
     * A release written with {@code release --no-site} has no {@code docs/}, a kit whose site was
     * never rendered no {@code site/target/site/}: there the line names the chapter's AsciiDoc
     * notes, which every copy has, and the heading's line. Where the copy has the page, the line
     * names it from the copy's root, where the student runs {@code ./vramlab}: it named
     * {@code ch09-x/notes.html#...}, a path relative to {@code docs/} that opens from nowhere a
     * student stands.
     */
    @Test
    @DisplayName("reread names the page from the copy's root (docs/ in a release, the kit's rendered site), else the AsciiDoc and its line")
    void bothEditions() throws IOException {
        Path copy = tmp.resolve("copy");
        Path notes = Files.createDirectories(copy.resolve("chapters/ch09-x/src/docs/asciidoc")).resolve("ch09-x.adoc");
        Files.writeString(notes, "= Chapter nine\n\n== Run it\n\n=== Rule 1: one\n");
        Files.createDirectories(copy.resolve("labs"));
        String adoc = "reread ch09 \"Rule 1: one\" (chapters/ch09-x/src/docs/asciidoc/ch09-x.adoc:5)";
        assertThat(reread(copy)).as("the kit, its site not rendered").isEqualTo(adoc);
        page(copy, "site/target/site-instructor");
        assertThat(reread(copy)).as("the kit with the instructor edition rendered")
                .isEqualTo("reread ch09 \"Rule 1: one\" (site/target/site-instructor/ch09-x/notes.html#_rule_1_one)");
        page(copy, "site/target/site");
        assertThat(reread(copy)).as("the kit with the student edition rendered: the edition ./vramlab site renders first")
                .isEqualTo("reread ch09 \"Rule 1: one\" (site/target/site/ch09-x/notes.html#_rule_1_one)");

        Files.writeString(copy.resolve(KitPaths.RELEASE_MARKER), "a release\n");
        assertThat(reread(copy)).as("a release without docs/ (a kit's rendered site is no release's)").isEqualTo(adoc);
        assertThat(NotesSection.inCopy(copy, "ch09", "Rule 9: none").reread()).as("a heading the notes lack: the file alone")
                .isEqualTo("reread ch09 \"Rule 9: none\" (chapters/ch09-x/src/docs/asciidoc/ch09-x.adoc)");
        page(copy, "docs");
        assertThat(reread(copy)).as("a release with docs/")
                .isEqualTo("reread ch09 \"Rule 1: one\" (docs/ch09-x/notes.html#_rule_1_one)");
    }

    /**
     * On the terminal ({@code quiz --check}) a page is a {@code file:} address with the anchor:
     * what a click or a browser opens at the section. The AsciiDoc's {@code path:line} is named
     * from where the student stands.
     */
    @Test
    @DisplayName("on a terminal: the page as a file: address with its anchor; the AsciiDoc's path:line from the folder the student is in")
    void onATerminal() throws IOException {
        Path copy = tmp.resolve("my copy");
        Files.writeString(Files.createDirectories(copy.resolve("chapters/ch09-x/src/docs/asciidoc")).resolve("ch09-x.adoc"),
                "= Chapter nine\n\n=== Rule 1: one\n");
        Files.createDirectories(copy.resolve("labs"));
        Files.writeString(copy.resolve(KitPaths.RELEASE_MARKER), "a release\n");
        NotesSection adoc = NotesSection.inCopy(copy, "ch09", "Rule 1: one");
        assertThat(adoc.reread(copy, copy)).isEqualTo("reread ch09 \"Rule 1: one\" (chapters/ch09-x/src/docs/asciidoc/ch09-x.adoc:3)");
        assertThat(adoc.reread(copy, copy.resolve("labs"))).as("from labs/")
                .isEqualTo("reread ch09 \"Rule 1: one\" (../chapters/ch09-x/src/docs/asciidoc/ch09-x.adoc:3)");
        Path html = page(copy, "docs");
        String line = NotesSection.inCopy(copy, "ch09", "Rule 1: one").reread(copy, copy.resolve("labs"));
        assertThat(line).isEqualTo("reread ch09 \"Rule 1: one\" (" + html.toUri() + "#_rule_1_one)")
                .contains("file:///").contains("/my%20copy/docs/ch09-x/notes.html#_rule_1_one)");
        assertThat(java.nio.file.Path.of(java.net.URI.create(line.substring(line.indexOf("(file:") + 1, line.indexOf('#')))))
                .as("the address is the page's").isEqualTo(html.toAbsolutePath());
        NotesSection none = new NotesSection("ch09", "ch09-x", "Rule 1: one", "_rule_1_one");
        assertThat(none.reread(copy, copy)).as("no copy known: as reread()").isEqualTo(none.reread());
    }

    private static String reread(Path copy) { return NotesSection.inCopy(copy, "ch09", "Rule 1: one").reread(); }

    private static Path page(Path copy, String site) throws IOException {
        return Files.writeString(Files.createDirectories(copy.resolve(site).resolve("ch09-x")).resolve("notes.html"), "<html></html>");
    }
}
