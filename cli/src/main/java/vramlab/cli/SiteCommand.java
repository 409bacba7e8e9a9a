package vramlab.cli;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import picocli.CommandLine;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/**
 * {@code vramlab site}: renders the notes, decks and index to HTML that opens offline, by
 * running the site module's Maven profile ({@code -Psite}, see site/README.adoc), and prints
 * the path of {@code index.html} as its last line. The student edition by default;
 * {@code --instructor} renders the edition with the reference solutions, into its own folder.
 */
@CommandLine.Command(name = "site", mixinStandardHelpOptions = true,
        header = "render notes and slides to HTML and print the path of index.html",
        description = """
                Renders every chapter's notes (chapters/chNN-slug/src/docs/asciidoc/chNN-slug.adoc)
                to one HTML page and its deck (slides/chNN-slug.adoc) to a reveal.js page, draws each
                chapter's figures and worked examples by running its simulator, and writes the course
                index. The pages open from disk with the network off. A warning (a missing include or
                tag) fails it. The last line printed is the path of index.html.

                Without --instructor, the student edition, site/target/site/: a graded step shows its
                contract and worked example, never its body; --instructor writes
                site/target/site-instructor/ (both folders can exist side by side).""",
        footer = "%nIt runs: mvn -q -B -Psite -DskipTests -Dvramlab.site.edition=student -pl site -am package%n"
                + "with " + ReleaseCommand.DETERMINISTIC_JVM + " added to MAVEN_OPTS, as release runs it: two builds"
                + " give the same playground bundles.")
final class SiteCommand implements Command {
    /** Terminal colour and cursor codes, which Maven prints even in batch mode. */
    private static final Pattern ANSI = Pattern.compile("\u001b\\[[0-9;?]*[A-Za-z]");

    @Mixin EditionOption edition;

    @Parameters(arity = "0..*", hidden = true)
    List<String> rest = List.of();

    @Override
    public int run(Io io) throws Exception {
        if (!rest.isEmpty()) throw new UsageException("site", "takes no arguments, got " + rest);
        Path root = root("site");
        int status = run(build(root, edition, System.getenv()), io.err());
        Path index = root.resolve(edition.instructor ? "site/target/site-instructor" : "site/target/site")
                .resolve("index.html");
        if (status != 0 || !Files.isRegularFile(index)) {
            io.err().println("error: site: the site build failed (exit " + status + "); its messages are above");
            return 1;
        }
        io.out().println(index);
        return 0;
    }

    /** The kit's root (the launcher's {@code vramlab.home}); a usage error when it has no site. */
    static Path root(String command) {
        Path root = Path.of(System.getProperty("vramlab.home", ".")).toAbsolutePath().normalize();
        if (!Files.isRegularFile(root.resolve("site/pom.xml"))) {
            if (vramlab.quiz.KitPaths.isRelease(root)) {        // a student release: rendered already
                Path docs = root.resolve("docs/index.html");
                throw new UsageException(command, Files.isRegularFile(docs)
                        ? "this release's notes and decks are rendered already: open " + docs
                        : "this release was written without its rendered notes (release --no-site): read"
                                + " chapters/chNN-slug/src/docs/asciidoc/, or ask for the release with docs/");
            }
            throw new UsageException(command, "no site/pom.xml under " + root + " (run from the kit's root)");
        }
        return root;
    }

    /**
     * The site's Maven build of {@code edition} in the kit at {@code root}, as {@code site} and
     * {@code release} run it: {@code -o} under {@code --offline} or {@code VRAMLAB_OFFLINE} in
     * {@code env} ({@link EditionOption#maven}), and the JVM given
     * {@link ReleaseCommand#DETERMINISTIC_JVM} ({@link ReleaseCommand#maven}), so that TeaVM
     * compiles the same playground bundles every time (before, only release's render had it, and
     * two {@code ./vramlab site} builds of one commit could differ).
     */
    static ProcessBuilder build(Path root, EditionOption edition, Map<String, String> env) {
        return ReleaseCommand.maven(root, edition.maven(env, "-q", "-B", "-Psite", "-DskipTests",
                "-Dvramlab.site.edition=" + edition.edition(), "-pl", "site", "-am", "package"));
    }

    /** Runs Maven's {@code cmd} in {@code root} as {@link #run} does (the decks' build: no TeaVM in it). */
    static int maven(Path root, List<String> cmd, PrintStream err) throws Exception {
        return run(new ProcessBuilder(cmd).directory(root.toFile()), err);
    }

    /**
     * Runs {@code maven}, its output (stdout and stderr) copied to {@code err} so that the
     * command's own stdout holds only the paths it prints; terminal escape codes are dropped
     * unless a person is watching a terminal.
     */
    static int run(ProcessBuilder maven, PrintStream err) throws Exception {
        boolean terminal = System.console() != null;
        err.println("vramlab: " + String.join(" ", maven.command()));
        Process p = maven.redirectErrorStream(true).start();
        p.getOutputStream().close();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = r.readLine()) != null; ) {
                String shown = terminal ? line : ANSI.matcher(line).replaceAll("");
                if (!shown.isBlank()) err.println(shown);
            }
        }
        return p.waitFor();
    }

    /** Drops terminal escape codes from a line. */
    static String plain(String line) { return ANSI.matcher(line).replaceAll(""); }
}
