package vramlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import picocli.CommandLine;
import vramlab.quiz.KitPaths;

/** {@code release --help} prints its description as it is written: no line of it is broken in two. */
class ReleaseHelpTest {
    @Test
    @DisplayName("release --help: every line of the description is one line of the help (none wider than the help)")
    void descriptionLinesAreWhole() {
        CliRun help = CliRun.of("release", "--help");
        assertThat(help.status()).as(help.err()).isZero();
        List<String> shown = help.out().lines().map(String::strip).toList();
        String description = String.join("\n", new CommandLine(new ReleaseCommand()).getCommandSpec().usageMessage().description());
        assertThat(description.lines().map(String::strip).filter(l -> !l.isEmpty()).toList()).isNotEmpty()
                .allSatisfy(line -> assertThat(shown).as("release --help shows this line whole").contains(line));
    }

    @Test
    @DisplayName("release --help names SOURCE_DATE_EPOCH, which dates the release, and that a bad one stops it")
    void helpNamesSourceDateEpoch() {
        String help = CliRun.of("release", "--help").out().replaceAll("\\s+", " ");
        assertThat(help).contains("SOURCE_DATE_EPOCH (whole seconds since 1970 UTC, in decimal digits) dates the release")
                .contains("stops it before it writes (exit 2)");
    }

    /**
     * The README shows quiz --check's reread line as the release prints it to a student at its
     * root: the rendered page's address and anchor where the release has docs/ (the folder the
     * copy will be in written {@code file:///.../}), else (release --no-site) the chapter's
     * AsciiDoc and the heading's line, since a --no-site copy has no notes.html to open.
     */
    @Test
    @DisplayName("the release's README says what check, grade and quiz --check print: TODO, the reread line and where its page is")
    void releaseReadmeExplainsTheMessages(@TempDir Path copy) throws Exception {
        String notes = "chapters/ch03-caching-allocator/src/docs/asciidoc/ch03-caching-allocator.adoc";
        Files.createDirectories(copy.resolve(notes).getParent());
        Files.copy(KitPaths.root().resolve(notes), copy.resolve(notes));
        Files.writeString(copy.resolve(KitPaths.RELEASE_MARKER), "a release\n");
        String noSite = ReleaseCommand.rereadExample(copy);
        assertThat(noSite).as("a release without docs/").matches("reread ch03 \"Rule 2: pools never mix\" \\(\\Q" + notes + "\\E:\\d+\\)");
        Files.writeString(Files.createDirectories(copy.resolve("docs/ch03-caching-allocator")).resolve("notes.html"), "<html/>");
        String site = ReleaseCommand.rereadExample(copy);
        assertThat(site).as("a release with docs/: quiz --check's address, the copy's folder left out").isEqualTo("reread ch03"
                + " \"Rule 2: pools never mix\" (file:///.../docs/ch03-caching-allocator/notes.html#_rule_2_pools_never_mix)");
        for (boolean withSite : new boolean[] {false, true}) {
            String readme = ReleaseCommand.readme(withSite, withSite ? site : noSite).replaceAll("\\s+", " ");
            assertThat(readme).as("site " + withSite)
                    .contains("a step you have not written is `TODO`, \"not written yet\", as `check` says it")
                    .contains("`" + (withSite ? site : noSite) + "`")
                    .contains("leave the `student` line empty").doesNotContain("{reread");
        }
        assertThat(ReleaseCommand.readme(true, site).replaceAll("\\s+", " "))
                .contains("the address of that section in the chapter's rendered page under `docs/`");
        // quiz --check prints no reread line under a question not answered, and counts those above the score:
        // both READMEs say so with the line as QuizCommand writes it.
        String count = "`" + QuizCommand.unanswered(java.util.List.of("q3.2", "q3.6", "q3.7"), 8) + "`";
        assertThat(ReleaseCommand.readme(true, site).replaceAll("\\s+", " ")).contains("with nothing to reread under it")
                .contains(count).contains("under a failed step, the section to reread, as `quiz --check` and `check` name it");
        assertThat(Files.readString(KitPaths.root().resolve("README.adoc")).replaceAll("\\s+", " "))
                .contains("with nothing to reread under it").contains(count)
                .contains("`Reread: ch03 \"Rule 1: the rounding ladder\" (file:///");
        assertThat(ReleaseCommand.readme(false, noSite).replaceAll("\\s+", " "))
                .contains("the line it is on in the chapter's AsciiDoc notes (this copy has no rendered pages)")
                .doesNotContain("`docs/").doesNotContain("notes.html");
    }

    @Test
    @DisplayName("--help in a release: the loop without touching STUDENT_COPY (already there) or --reference (refused)")
    void rootHelpInARelease(@TempDir Path release) throws Exception {
        Files.createDirectories(release.resolve("labs"));
        Files.writeString(release.resolve("RELEASE.txt"), "a release\n");
        Files.writeString(release.resolve("labs/STUDENT_COPY"), "labs/ is the student's\n");
        String old = System.getProperty("vramlab.home");
        System.setProperty("vramlab.home", release.toString());
        try {
            CliRun help = CliRun.of("--help");
            assertThat(help.status()).as(help.err()).isZero();
            assertThat(help.out()).contains("Your loop: lab, jshell and check run your code in labs/")
                    .doesNotContain("touch labs/STUDENT_COPY").doesNotContain("--reference");
        } finally {
            if (old == null) System.clearProperty("vramlab.home");
            else System.setProperty("vramlab.home", old);
        }
        CliRun kit = CliRun.of("--help");
        assertThat(kit.out()).as("the kit's own help is as it was").contains("Your loop: touch labs/STUDENT_COPY once;")
                .contains("--reference runs the reference.");
    }
}
