package vramlab.site;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

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
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import vramlab.cli.ReleaseCommand;
import vramlab.quiz.build.StepBodies;

/**
 * A release written without its site ({@code ./vramlab release DIR --no-site}) ships the notes
 * as AsciiDoc, which a student reads on GitHub or renders with {@code asciidoctor} on the file:
 * rendered here by plain Asciidoctor, nothing of the site's (no include processor, no attributes
 * from the site build, {@code attribute-missing=warn}), every chapter's notes render with no
 * warning (no include that does not resolve inside the release, no attribute left undefined) and
 * show no graded step's reference body. JRuby makes this take seconds: under {@code -Psite} only,
 * like the other rendering tests.
 */
class ReleaseNotesRenderTest {
    @Test
    @DisplayName("a --no-site release's notes render alone, with no warning and no step's body")
    void notesRenderAlone(@TempDir Path tmp) throws Exception {
        assumeTrue(Boolean.getBoolean("vramlab.site.render"), "rendering tests run under -Psite (JRuby is slow)");
        Path root = Repo.root();
        Path release = tmp.resolve("course");
        assertThat(ReleaseCommand.writeChecked(root, release, null, 1)).as("what release would refuse").isEmpty();
        List<Path> notes;
        try (Stream<Path> s = Files.list(release.resolve("chapters"))) {
            notes = s.map(ch -> ch.resolve("src/docs/asciidoc").resolve(ch.getFileName() + ".adoc"))
                    .filter(Files::isRegularFile).sorted().toList();
        }
        assertThat(notes).as("chapters' notes in the release").hasSizeGreaterThanOrEqualTo(8);
        Path out = Files.createDirectories(tmp.resolve("rendered"));
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
                        .toFile(out.resolve(n.getFileName().toString().replace(".adoc", ".html")).toFile())
                        .attributes(Attributes.builder().attribute("attribute-missing", "warn").build())
                        .build());
            }
        }
        assertThat(warnings).as("Asciidoctor's warnings on the release's notes").isEmpty();
        List<Path> pages;
        try (Stream<Path> s = Files.list(out)) {
            pages = s.toList();
        }
        assertThat(pages).hasSameSizeAs(notes);
        String ch03 = Files.readString(out.resolve("ch03-caching-allocator.html"));
        assertThat(ch03).as("step 3.2's listing, from labs/: its Todo, not its body")
                .contains("Find a block").doesNotContain("{generated}", "{core}", "Unresolved directive");
        assertThat(StepBodies.of(root.resolve("solutions")).shownIn(out)).as("graded bodies in the rendered notes").isEmpty();
    }
}
