package vramlab.site;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.asciidoctor.Asciidoctor;
import org.asciidoctor.Attributes;
import org.asciidoctor.Options;
import org.asciidoctor.SafeMode;
import org.asciidoctor.log.Severity;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import vramlab.cli.ReleaseCommand;
import vramlab.kit.Citations;
import vramlab.quiz.build.StepBodies;

/**
 * A release written without its site ({@code ./vramlab release DIR --no-site}) ships the notes
 * as AsciiDoc, which a student reads on GitHub or renders with {@code asciidoctor} on the file:
 * rendered here by plain Asciidoctor, nothing of the site's (no include processor, no attributes
 * from the site build, {@code attribute-missing=warn}), every chapter's notes render with no
 * warning, show each citation as a link and no graded step's reference body; and their includes,
 * expanded by the release, render exactly as Asciidoctor renders the same notes with the
 * includes left to it. JRuby makes this take seconds: under {@code -Psite} only, like the other
 * rendering tests.
 */
class ReleaseNotesRenderTest {
    @TempDir static Path tmp;
    static Path root;
    static Path release;

    @BeforeAll
    static void write() throws IOException {
        assumeTrue(Boolean.getBoolean("vramlab.site.render"), "rendering tests run under -Psite (JRuby is slow)");
        root = Repo.root();
        release = tmp.resolve("course");
        assertThat(ReleaseCommand.writeChecked(root, release, null, 1)).as("what release would refuse").isEmpty();
    }

    @Test
    @DisplayName("a --no-site release's notes render alone, with no warning, citations as links and no step's body")
    void notesRenderAlone() throws Exception {
        List<Path> notes = notes(release);
        assertThat(notes).as("chapters' notes in the release").hasSizeGreaterThanOrEqualTo(8);
        Path out = Files.createDirectories(tmp.resolve("rendered"));
        List<String> warnings = render(notes, n -> out.resolve(n.getFileName().toString().replace(".adoc", ".html")));
        assertThat(warnings).as("Asciidoctor's warnings on the release's notes").isEmpty();
        List<Path> pages;
        try (Stream<Path> s = Files.list(out)) {
            pages = s.toList();
        }
        assertThat(pages).hasSameSizeAs(notes);
        String ch03 = Files.readString(out.resolve("ch03-caching-allocator.html"));
        assertThat(ch03).as("step 3.2's listing, from labs/: its Todo, not its body")
                .contains("Find a block").doesNotContain("{generated}", "{core}", "Unresolved directive");
        String cca = Citations.read(root).get("cca").url("");
        assertThat(ch03).as("a citation of CUDACachingAllocator.cpp, a link at the table's commit")
                .contains("<a href=\"" + cca + "#L").doesNotContain("src:cca[");
        for (Path page : pages) {
            assertThat(Files.readString(page)).as(page + ": a citation left as text").doesNotContainPattern(Citations.SRC);
        }
        assertThat(StepBodies.of(root.resolve("solutions")).shownIn(out)).as("graded bodies in the rendered notes").isEmpty();
    }

    @Test
    @DisplayName("the notes with their includes expanded by the release render as Asciidoctor renders them with the"
            + " includes, read from the release as written")
    void expandedAsIncluded() throws Exception {
        // The release's own files around the notes; the notes as the kit has them, then as release prepares them.
        Path included = tmp.resolve("included");
        for (String sub : List.of("chapters", "labs", "toolkit")) {
            SiteBuilderRenderTest.copyTree(release.resolve(sub), included.resolve(sub));
        }
        for (Path n : notes(included)) {
            Path docs = n.getParent();
            deleteTree(docs);
            SiteBuilderRenderTest.copyTree(root.resolve(included.relativize(docs).toString()), docs);
        }
        ReleaseCommand.prepareNotes(root, included);
        Path expanded = tmp.resolve("expanded");
        SiteBuilderRenderTest.copyTree(included, expanded);
        ReleaseCommand.expandNotes(expanded);

        List<Path> before = notes(included);
        List<Path> after = notes(expanded);
        assertThat(before).hasSameSizeAs(after).hasSizeGreaterThanOrEqualTo(8);
        assertThat(String.join("\n", Files.readAllLines(before.get(2)))).as("the notes before: with their includes")
                .contains("\ninclude::");
        assertThat(render(before, n -> n.resolveSibling("page.html"))).as("warnings, includes left to Asciidoctor").isEmpty();
        assertThat(render(after, n -> n.resolveSibling("page.html"))).as("warnings, includes expanded").isEmpty();
        for (int i = 0; i < before.size(); i++) {
            assertThat(Files.readAllLines(after.get(i))).as(after.get(i) + ": an include left").noneMatch(l -> l.startsWith("include::"));
            assertThat(Files.readString(after.get(i).resolveSibling("page.html"))).as(after.get(i).getFileName().toString())
                    .isEqualTo(Files.readString(before.get(i).resolveSibling("page.html")));
        }
    }

    /** Each chapter's notes under {@code dir}, sorted. */
    static List<Path> notes(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir.resolve("chapters"))) {
            return s.map(ch -> ch.resolve("src/docs/asciidoc").resolve(ch.getFileName() + ".adoc"))
                    .filter(Files::isRegularFile).sorted().toList();
        }
    }

    /** Renders each of {@code notes} with plain Asciidoctor into {@code page.apply(note)}; its warnings. */
    static List<String> render(List<Path> notes, java.util.function.UnaryOperator<Path> page) {
        List<String> warnings = new ArrayList<>();
        try (Asciidoctor asciidoctor = Asciidoctor.Factory.create()) {
            asciidoctor.registerLogHandler(r -> {
                if (r.getSeverity().ordinal() >= Severity.WARN.ordinal()) {
                    warnings.add((r.getCursor() == null ? "" : r.getCursor().getFile() + ":"
                            + r.getCursor().getLineNumber() + ": ") + r.getMessage());
                }
            });
            for (Path n : notes) {
                asciidoctor.convertFile(n.toFile(), Options.builder()
                        .safe(SafeMode.UNSAFE)                  // as the asciidoctor command runs a file
                        .toFile(page.apply(n).toFile())
                        .attributes(Attributes.builder().attribute("attribute-missing", "warn")
                                .attribute("nofooter", "").build())     // no "Last updated": the file's time
                        .build());
            }
        }
        return warnings;
    }

    static void deleteTree(Path dir) throws IOException {
        List<Path> all;
        try (Stream<Path> s = Files.walk(dir)) {
            all = s.sorted(java.util.Comparator.reverseOrder()).toList();
        }
        for (Path p : all) Files.delete(p);
    }
}
