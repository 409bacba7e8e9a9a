package vramlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import picocli.CommandLine;
import picocli.CommandLine.ParseResult;

/**
 * {@code replay} read without picocli ({@link ReplayCommand#parsePlain}) reads each command line
 * it takes exactly as picocli does, and leaves every other one to picocli.
 */
@DisplayName("replay's plain command lines, read without picocli")
class ReplayFastPathTest {

    /** What picocli sets, as the launcher builds it; null when picocli refuses the line or it asks for help. */
    private static String picocli(String[] args) {
        Io io = new Io(new ByteArrayInputStream(new byte[0]), new PrintStream(new ByteArrayOutputStream()),
                new PrintStream(new ByteArrayOutputStream()));
        CommandLine cl = Launcher.of(List.of(new ReplayCommand()), io);
        try {
            ParseResult parsed = cl.parseArgs(args);
            if (CommandLine.executeHelpRequest(parsed) != null || parsed.subcommand() == null) return null;
            return fields((ReplayCommand) parsed.subcommand().commandSpec().commandLine().getCommand());
        } catch (CommandLine.ParameterException e) {
            return null;
        }
    }

    private static String fields(ReplayCommand c) {
        return "policy=" + c.policyName + " conf=" + c.conf + " device=" + c.device + " index=" + c.deviceIndex
                + " version=" + c.pytorchVersion + " fraction=" + c.memoryFraction + " csv=" + c.csv + " map=" + c.map + " export=" + c.export + " maxInput=" + c.input.maxInput
                + " file=" + c.file;
    }

    private static String plain(String[] args) {
        ReplayCommand c = ReplayCommand.parsePlain(args);
        return c == null ? null : fields(c);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {
        "replay trace.txt",
        "replay -",
        "replay --device 1TiB trace.txt",
        "replay --device=80GiB --policy pytorch --alloc-conf expandable_segments:True trace.txt",
        "replay trace.txt --csv",
        "replay --map --csv --export out.pickle run.pickle",
        "replay --device-index 1 run.pickle",
        "replay --device 1GiB --device 2GiB t.txt",
        "replay --policy=toy --policy pytorch t.txt",
        "replay --device 4TiB t.txt",
        "replay --device 512B t.txt",
        "replay --max-input 512MiB run.pickle.gz",
        "replay --max-input=1GiB --device-index 0 run.pickle",
        "replay --max-input 1MiB --max-input 300MiB run.pickle",
        "replay --pytorch-version 2.9 --alloc-conf garbage_collection_threshold:0.8 --memory-fraction 0.99 run.pickle",
        "replay --memory-fraction=1 --memory-fraction 0.5 --policy pytorch t.txt",
        "replay --memory-fraction 7 t.txt",
    })
    @DisplayName("takes the plain forms, and reads them as picocli does")
    void takesPlainForms(String line) {
        String[] args = line.split(" ");
        assertThat(plain(args)).as("taken without picocli").isNotNull().isEqualTo(picocli(args));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {
        "replay",
        "replay --help",
        "replay -h trace.txt",
        "replay --version",
        "replay a.txt b.txt",
        "replay --device trace.txt",
        "replay --device 12XB trace.txt",
        "replay --device 0 trace.txt",
        "replay --device 512 trace.txt",
        "replay --device 5TiB trace.txt",
        "replay --device -1 trace.txt",
        "replay --csv=true trace.txt",
        "replay --dev 1TiB trace.txt",
        "replay --nope trace.txt",
        "replay -- trace.txt",
        "replay @args.txt",
        "replay --export @x t.txt",
        "replay --device-index x t.txt",
        "replay --device-index -1 t.txt",
        "replay --policy",
        "replay --policy= t.txt",
        "replay --max-input 2GiB run.pickle",
        "replay --max-input 0 run.pickle",
        "replay --max-input lots run.pickle",
        "replay --max-input run.pickle",
        "triage trace.txt",
        "--version",
    })
    @DisplayName("leaves everything else to picocli, which parses it or says what is wrong")
    void leavesTheRest(String line) {
        assertThat(plain(line.split(" "))).isNull();
    }

    @Test
    @DisplayName("on seeded random command lines, whatever it takes it reads as picocli does")
    void randomLines() {
        String[] words = {"--device", "--device=1GiB", "1TiB", "80GiB", "12XB", "--policy", "pytorch", "toy",
            "--policy=toy", "--alloc-conf", "max_split_size_mb:128", "--csv", "--map", "--export", "x.pickle",
            "--device-index", "0", "2", "-", "t.txt", "u.txt", "--", "-x", "@f", "--csv=false", "",
            "--max-input", "--max-input=64MiB", "1GiB", "1025MiB", "--memory-fraction", "0.99", "--memory-fraction=-1"};
        Random r = new Random(16);
        int taken = 0;
        for (int trial = 0; trial < 3000; trial++) {
            List<String> args = new ArrayList<>(List.of("replay"));
            int n = r.nextInt(7);
            for (int i = 0; i < n; i++) args.add(words[r.nextInt(words.length)]);
            String[] a = args.toArray(new String[0]);
            String fast = plain(a);
            if (fast == null) continue;
            taken++;
            assertThat(fast).as("%s", Arrays.toString(a)).isEqualTo(picocli(a));
        }
        assertThat(taken).as("lines taken without picocli").isGreaterThan(100);
    }

    @Test
    @DisplayName("a plain replay through the launcher's entry point prints what it printed through picocli")
    void sameRun() throws Exception {
        java.nio.file.Path trace = java.nio.file.Files.createTempFile("plain", ".txt");
        java.nio.file.Files.writeString(trace, "alloc a 3MiB\nalloc b 512\nfree a\nempty_cache\nfree b\n");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Io io = new Io(new ByteArrayInputStream(new byte[0]), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(new ByteArrayOutputStream()));
        assertThat(Main.run(new String[] {"replay", "--device", "1GiB", trace.toString()}, io)).isZero();
        ByteArrayOutputStream viaPicocli = new ByteArrayOutputStream();
        Io io2 = new Io(new ByteArrayInputStream(new byte[0]), new PrintStream(viaPicocli, true, StandardCharsets.UTF_8),
                new PrintStream(new ByteArrayOutputStream()));
        CommandLine cl = Launcher.of(List.of(new ReplayCommand()), io2);
        ParseResult parsed = cl.parseArgs("replay", "--device", "1GiB", trace.toString());
        assertThat(((Command) parsed.subcommand().commandSpec().commandLine().getCommand()).run(io2)).isZero();
        io2.out().flush();
        assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo(viaPicocli.toString(StandardCharsets.UTF_8))
                .contains("events: 5");
        java.nio.file.Files.delete(trace);
    }
}
