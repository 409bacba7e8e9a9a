package vramlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import picocli.CommandLine;

/**
 * README's Practitioners: "Paste a real PyTorch OOM message into ./vramlab triage". Typed at a
 * terminal, triage waited in silence for the end of its input, and nothing said how to end it
 * (walk of a fresh clone, issue 52). At a terminal it now says so on standard error first; piped
 * or given a file it prints exactly what it printed before.
 */
@DisplayName("triage at a terminal says how to end the paste")
class TriagePasteHintTest {
    private static final String MESSAGE = "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB."
            + " GPU 0 has a total capacity of 23.64 GiB of which 11.69 MiB is free. Including non-PyTorch memory,"
            + " this process has 23.62 GiB memory in use. Of the allocated memory 22.10 GiB is allocated by"
            + " PyTorch, and 1.07 GiB is reserved by PyTorch but unallocated.\n";

    private record Run(int status, String out, String err) { }

    private static Run triage(boolean terminal, String stdin, String... args) throws Exception {
        TriageCommand command = new TriageCommand();
        new CommandLine(command).parseArgs(args);
        command.terminal = () -> terminal;
        var out = new ByteArrayOutputStream();
        var err = new ByteArrayOutputStream();
        Io io = new Io(new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        int status = command.run(io);
        return new Run(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    @DisplayName("at a terminal, with no FILE or with -: one line on stderr naming Ctrl-D, the report unchanged")
    void terminalGetsTheHint() throws Exception {
        Run piped = triage(false, MESSAGE);
        for (String[] args : new String[][] {{}, {"-"}}) {
            Run typed = triage(true, MESSAGE, args);
            assertThat(typed.status()).isZero();
            assertThat(typed.err()).hasLineCount(1).contains("paste the OOM message").contains("Ctrl-D")
                    .contains("Ctrl-Z");
            assertThat(typed.out()).isEqualTo(piped.out()).contains("Most likely cause: FRAGMENTATION");
        }
    }

    @Test
    @DisplayName("piped, or given a file: nothing more on stderr than before")
    void noHintWhenNobodyTypes(@TempDir Path dir) throws Exception {
        assertThat(triage(false, MESSAGE).err()).isEmpty();
        Path f = Files.writeString(dir.resolve("oom.txt"), MESSAGE);
        Run fromFile = triage(true, "", f.toString());
        assertThat(fromFile.err()).isEmpty();
        assertThat(fromFile.out()).contains("Most likely cause: FRAGMENTATION");
    }
}
