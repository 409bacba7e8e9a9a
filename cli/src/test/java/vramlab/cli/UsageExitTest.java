package vramlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import vramlab.quiz.KitPaths;

/**
 * README's exit status: 2 for bad input or usage, with one line {@code error: <where>: <what>}
 * on standard error and no stack trace. {@code ./vramlab help nosuch} escaped as picocli's
 * ParameterException, a stack trace and exit 1; {@code ./vramlab} alone exited 2 with nothing
 * on standard error.
 */
@DisplayName("Usage mistakes outside a command: exit 2 and one error line")
class UsageExitTest {
    @Test
    @DisplayName("help of an unknown command: exit 2, one line with the close match, no stack trace")
    void helpOfUnknownCommand() {
        CliRun r = CliRun.of("help", "relpay");
        assertThat(r.status()).as(r.err()).isEqualTo(2);
        assertThat(r.err().lines().toList()).hasSize(1);
        assertThat(r.err()).startsWith("error: vramlab: unknown command 'relpay' (did you mean ").contains("replay")
                .doesNotContain("Exception").doesNotContain("\tat ");
        CliRun none = CliRun.of("help", "nosuch");
        assertThat(none.status()).as(none.err()).isEqualTo(2);
        assertThat(none.err()).startsWith("error: vramlab: unknown command 'nosuch'").contains("commands: lab,");
    }

    @Test
    @DisplayName("help of a known command still prints its help, exit 0")
    void helpOfKnownCommand() {
        CliRun r = CliRun.of("help", "replay");
        assertThat(r.status()).as(r.err()).isZero();
        assertThat(r.out()).startsWith("usage: vramlab replay");
        assertThat(r.err()).isEmpty();
    }

    @Test
    @DisplayName("no command: the usage on standard output, and exit 2 with one error line")
    void noCommand() {
        CliRun r = CliRun.of();
        assertThat(r.status()).isEqualTo(2);
        assertThat(r.out()).startsWith("usage: vramlab <command>");
        assertThat(r.err().lines().toList()).containsExactly("error: vramlab: expected a command (./vramlab --help lists them)");
    }

    @Test
    @DisplayName("every usage error names its command as <where> (error: contest: --workload ..., not error: --workload: ...)")
    void whereIsTheCommand() throws IOException {
        Pattern thrown = Pattern.compile("new UsageException\\(\"([^\"]*)\"");
        List<String> other = new ArrayList<>();
        try (Stream<Path> files = Files.walk(KitPaths.root().resolve("cli/src/main/java"))) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                Matcher m = thrown.matcher(Files.readString(f));
                while (m.find()) {
                    if (!Main.NAMES.contains(m.group(1))) other.add(f.getFileName() + ": \"" + m.group(1) + "\"");
                }
            }
        }
        assertThat(other).as("a UsageException's where is one of Main.NAMES (ContestCommandTest and"
                + " PyTorchVersionTest hold the lines themselves)").isEmpty();
    }
}
