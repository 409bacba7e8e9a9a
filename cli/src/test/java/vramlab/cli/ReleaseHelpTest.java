package vramlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

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
}
