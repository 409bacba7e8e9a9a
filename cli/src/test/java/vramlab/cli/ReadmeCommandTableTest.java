package vramlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;
import vramlab.quiz.KitPaths;

/**
 * README.adoc is the users' one description of the launcher, and the command table in its
 * "Commands" section is where they look up a command's options. picocli generates --help from
 * the declarations, so the two drift apart whenever an option is added to one only (README's
 * table had no row for exercise or advise, and lacked replay --at/--stacks/--html/--json/
 * --max-input, grade's seven options, quiz --key, lab --scenario-limit and more). This holds the
 * table to the declarations both ways: every command a row, every declared option named in its
 * row, and every option a row names declared by that command.
 */
@DisplayName("README's command table names every command and option the launcher declares, and no other")
class ReadmeCommandTableTest {
    private static final Pattern OPTION = Pattern.compile("(?<![\\w-])--[a-z][a-z0-9-]*[a-z0-9]");

    @TempDir
    Path dir;

    /** The table's rows by command: the text of each row of the Commands section's table. */
    static Map<String, String> rows(String readme) {
        int section = readme.indexOf("\n== Commands\n");
        assertThat(section).as("README has a '== Commands' section").isPositive();
        int start = readme.indexOf("\n|===\n", section);
        int end = readme.indexOf("\n|===\n", start + 1);
        assertThat(start).as("the Commands section has a table").isPositive();
        Map<String, String> rows = new LinkedHashMap<>();
        for (String line : readme.substring(start + 5, end).split("\n")) {
            Matcher m = Pattern.compile("^\\|`([a-z]+)[ `]").matcher(line);
            if (m.find()) rows.put(m.group(1), line);
        }
        return rows;
    }

    /** Every command the launcher declares (the help command aside), as --help is built from them. */
    static Map<String, CommandLine> declared() {
        Io io = new Io(new ByteArrayInputStream(new byte[0]), new PrintStream(new ByteArrayOutputStream()),
                new PrintStream(new ByteArrayOutputStream()));
        Map<String, CommandLine> all = new LinkedHashMap<>(Launcher.of(Main.needed(new String[0]), io).getSubcommands());
        all.remove("help");
        return all;
    }

    /** The long names a command declares, as a user types them: no --help/--version, nothing hidden. */
    static TreeSet<String> options(CommandLine command) {
        TreeSet<String> names = new TreeSet<>();
        for (OptionSpec o : command.getCommandSpec().options()) {
            if (o.usageHelp() || o.versionHelp() || o.hidden()) continue;
            names.add(o.longestName());
        }
        return names;
    }

    static TreeSet<String> named(String row) {
        TreeSet<String> names = new TreeSet<>();
        Matcher m = OPTION.matcher(row);
        while (m.find()) names.add(m.group());
        return names;
    }

    @Test
    @DisplayName("one row per command, in the launcher's order")
    void everyCommandHasARow() throws IOException {
        Map<String, String> rows = rows(readme());
        assertThat(new ArrayList<>(rows.keySet())).isEqualTo(new ArrayList<>(declared().keySet()));
    }

    @Test
    @DisplayName("each row names exactly the options its command declares")
    void optionsAgree() throws IOException {
        Map<String, String> rows = rows(readme());
        List<String> drift = new ArrayList<>();
        declared().forEach((name, command) -> {
            String row = rows.getOrDefault(name, "");
            TreeSet<String> declaredOnly = options(command);
            declaredOnly.removeAll(named(row));
            TreeSet<String> readmeOnly = named(row);
            readmeOnly.removeAll(options(command));
            if (!declaredOnly.isEmpty()) drift.add(name + ": declared, not in README's row: " + declaredOnly);
            if (!readmeOnly.isEmpty()) drift.add(name + ": in README's row, not declared: " + readmeOnly);
        });
        assertThat(drift).as("README.adoc's command table against the declarations (./vramlab help <command>)").isEmpty();
    }

    @Test
    @DisplayName("the CSV header README gives is the one replay --csv prints")
    void csvHeader() throws IOException {
        Path trace = Files.writeString(dir.resolve("t.trace"), "alloc a 4KiB\nfree a\n");
        CliRun r = CliRun.of("replay", "--csv", trace.toString());
        assertThat(r.status()).as(r.err()).isZero();
        String header = r.out().lines().findFirst().orElseThrow();
        assertThat(readme()).contains("`--csv` prints the header `" + header + "`");
        assertThat(r.out().lines().count()).as("a header, then one row per event and nothing else").isEqualTo(3);
    }

    @Test
    @DisplayName("the class leaderboard's CSV header README gives is the one contest --class writes")
    void classLeaderboardHeader() throws IOException {
        StringBuilder csv = new StringBuilder();
        new vramlab.judge.Leaderboard("t", List.of(), "pytorch", List.of(), List.of()).csv(csv);
        assertThat(readme().replaceAll("\\s+", " ")).contains("with `--class` it writes `" + csv.toString().strip() + "`");
    }

    private static String readme() throws IOException {
        return Files.readString(KitPaths.root().resolve("README.adoc"));
    }
}
