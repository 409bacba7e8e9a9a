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
     * A release written with {@code release --no-site} has no {@code docs/}: the line named
     * {@code ch09-x/notes.html#...}, a page that copy does not have. There it names the chapter's
     * AsciiDoc notes, which it has, and the heading's line; the kit and a release with its
     * rendered pages keep the page and anchor.
     */
    @Test
    @DisplayName("reread names the rendered page where the copy has it, else the chapter's AsciiDoc and the heading's line")
    void bothEditions() throws IOException {
        Question q = new Question() {
            @Override public String id() { return "q9.1"; }
            @Override public String title() { return "One"; }
            @Override public String prompt(Variant v) { return "One?"; }
            @Override public java.util.List<Part> parts(Variant v) { return java.util.List.of(); }
            @Override public String notesSection() { return "Rule 1: one"; }
        };
        Path copy = tmp.resolve("copy");
        Path notes = Files.createDirectories(copy.resolve("chapters/ch09-x/src/docs/asciidoc")).resolve("ch09-x.adoc");
        Files.writeString(notes, "= Chapter nine\n\n== Run it\n\n=== Rule 1: one\n");
        Files.createDirectories(copy.resolve("labs"));
        String site = "reread ch09 \"Rule 1: one\" (ch09-x/notes.html#_rule_1_one)";
        assertThat(NotesSection.ofQuestions(copy, java.util.List.of(q)).get("q9.1").reread()).as("the kit").isEqualTo(site);

        Files.writeString(copy.resolve(KitPaths.RELEASE_MARKER), "a release\n");
        assertThat(NotesSection.ofQuestions(copy, java.util.List.of(q)).get("q9.1").reread()).as("a release without docs/")
                .isEqualTo("reread ch09 \"Rule 1: one\" (chapters/ch09-x/src/docs/asciidoc/ch09-x.adoc:5)");
        assertThat(NotesSection.inCopy(copy, "ch09", "Rule 9: none").reread()).as("a heading the notes lack: the file alone")
                .isEqualTo("reread ch09 \"Rule 9: none\" (chapters/ch09-x/src/docs/asciidoc/ch09-x.adoc)");

        Files.writeString(Files.createDirectories(copy.resolve("docs/ch09-x")).resolve("notes.html"), "<html></html>");
        assertThat(NotesSection.ofQuestions(copy, java.util.List.of(q)).get("q9.1").reread()).as("a release with docs/")
                .isEqualTo(site);
    }
}
