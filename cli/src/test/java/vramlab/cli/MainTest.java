package vramlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import picocli.CommandLine;

@DisplayName("./vramlab builds only the commands a command line needs")
class MainTest {
    private static List<String> declared(List<Command> commands) {
        return commands.stream().map(c -> new CommandLine(c).getCommandName()).toList();
    }

    /** The commands' classes: cheaper than their picocli names, and as exact once those agree. */
    private static List<Class<?>> classes(List<Command> commands) {
        return commands.stream().<Class<?>>map(Object::getClass).toList();
    }

    private static List<Class<?>> everyCommand() {
        return classes(Main.NAMES.stream().map(Main::create).toList());
    }

    @Test
    @DisplayName("each name makes the command that declares that name, in the help's order")
    void namesAgreeWithDeclarations() {
        for (String name : Main.NAMES) {
            assertThat(new CommandLine(Main.create(name)).getCommandName()).as(name).isEqualTo(name);
        }
        assertThat(declared(Main.needed(new String[0]))).isEqualTo(Main.NAMES);
        assertThat(Main.create("nosuch")).isNull();
    }

    @Nested
    @DisplayName("which commands a command line builds")
    class Needed {
        @ParameterizedTest(name = "{0}")
        @CsvSource({"replay x.trace, replay", "check 3.1, check", "triage -, triage", "replay --help, replay"})
        @DisplayName("a command line that starts with a command builds that one alone")
        void one(String args, String command) {
            assertThat(classes(Main.needed(args.split(" ")))).containsExactly(Main.create(command).getClass());
        }

        @ParameterizedTest(name = "{0}")
        @CsvSource({"--help", "help replay", "nosuch", "completion", "--version replay", "relpay x"})
        @DisplayName("the root's help, help COMMAND, a mistyped command and completion build them all")
        void all(String args) {
            assertThat(classes(Main.needed(args.split(" ")))).isEqualTo(everyCommand());
        }

        @Test
        @DisplayName("--version alone builds none")
        void version() {
            assertThat(Main.needed(new String[] {"--version"})).isEmpty();
            CliRun r = CliRun.of("--version");
            assertThat(r.status()).isZero();
            assertThat(r.out()).startsWith("vramlab ");
        }
    }

    @Test
    @DisplayName("a mistyped command still gets its suggestion and the list of every command")
    void mistypedCommand() {
        CliRun r = CliRun.of("relpay", "x.trace");
        assertThat(r.status()).isEqualTo(2);
        assertThat(r.err()).startsWith("error: vramlab: unknown command 'relpay' (did you mean ")
                .contains(" replay")
                .contains("(commands: " + String.join(", ", Main.NAMES) + ")");
    }

    @Test
    @DisplayName("a mistyped option of the one command built still gets its suggestion")
    void mistypedOption() {
        CliRun r = CliRun.of("replay", "--hepl");
        assertThat(r.status()).isEqualTo(2);
        assertThat(r.err().strip())
                .isEqualTo("error: replay: unknown option --hepl (did you mean --help?) (see replay --help)");
    }
}
