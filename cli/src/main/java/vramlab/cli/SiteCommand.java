package vramlab.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * {@code vramlab site}: renders the notes, decks and index to HTML that opens offline, by
 * running the site module's Maven profile ({@code -Psite}, see site/README.adoc), and prints
 * the path of {@code index.html}.
 */
final class SiteCommand implements Command {
    @Override public String name() { return "site"; }
    @Override public String summary() { return "render notes and slides to HTML and print the path of index.html"; }

    @Override
    public String usage() {
        return """
                usage: vramlab site [--offline]

                Renders every chapter's notes (chapters/chNN-slug/src/docs/asciidoc/chNN-slug.adoc)
                to one HTML page and one reveal.js deck, draws each chapter's figures by running
                its simulator, and writes the course index, all under site/target/site/. The pages
                open from disk with the network off. A warning (a missing include or tag) fails it.

                It runs: mvn -q -B -Psite -DskipTests -pl site -am package
                --offline  passes -o to Maven (everything already downloaded once)
                """;
    }

    @Override
    public int run(List<String> args, Io io) throws Exception {
        Args a = Args.parse("site", args, Set.of("--offline"), Set.of());
        if (!a.positional().isEmpty()) throw new UsageException("site", "takes no arguments, got " + a.positional());
        Path root = Path.of(System.getProperty("vramlab.home", ".")).toAbsolutePath().normalize();
        if (!Files.isRegularFile(root.resolve("site/pom.xml"))) {
            throw new UsageException("site", "no site/pom.xml under " + root + " (run from the kit's root)");
        }
        List<String> cmd = new ArrayList<>(List.of(maven(), "-q", "-B", "-Psite", "-DskipTests", "-pl", "site", "-am",
                "package"));
        if (a.flag("--offline")) cmd.add(1, "-o");
        io.err().println("vramlab: rendering the site (" + String.join(" ", cmd) + ")...");
        Process p = new ProcessBuilder(cmd).directory(root.toFile()).inheritIO().start();
        int status = p.waitFor();
        Path index = root.resolve("site/target/site/index.html");
        if (status != 0 || !Files.isRegularFile(index)) {
            io.err().println("error: site: the site build failed (exit " + status + "); its messages are above");
            return 1;
        }
        io.out().println(index);
        return 0;
    }

    private static String maven() {
        return System.getProperty("os.name", "").startsWith("Windows") ? "mvn.cmd" : "mvn";
    }
}
