package vramlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import picocli.CommandLine;

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
