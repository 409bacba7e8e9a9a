package vramlab.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import vramlab.kit.ChapterLab;

/**
 * {@code vramlab slides [chapter]}: builds the authored decks ({@code slides/chNN-slug.adoc})
 * alone, with their figures and reveal.js, into {@code slides/target/slides/}, by running the
 * slides module's Maven profile ({@code -Pslides}); prints the path of each deck it built, one
 * a line. {@code ./vramlab site} builds the same decks into the site.
 */
final class SlidesCommand implements Command {
    @Override public String name() { return "slides"; }
    @Override public String summary() { return "build the chapters' reveal.js decks and print their paths"; }

    @Override
    public String usage() {
        return """
                usage: vramlab slides [chapter] [--instructor] [--offline]

                Builds the deck of one chapter (by number or slug: 3, ch03, caching-allocator), or of
                every chapter, from slides/chNN-slug.adoc into slides/target/slides/chNN-slug/slides.html,
                with the chapter's figures drawn by its simulator and reveal.js beside it; opens from
                disk with the network off. Press s for the speaker notes, Esc for the overview.

                  --instructor  the instructor edition (reference bodies in listings), into
                                slides/target/slides-instructor/
                  --offline     passes -o to Maven (everything already downloaded once)

                It runs: mvn -q -B -Pslides -DskipTests -pl slides -am package
                """;
    }

    @Override
    public int run(List<String> args, Io io) throws Exception {
        Args a = Args.parse("slides", args, Set.of("--offline", "--instructor"), Set.of());
        if (a.positional().size() > 1) {
            throw new UsageException("slides", "takes at most one chapter, got " + a.positional());
        }
        String chapter = "";
        if (!a.positional().isEmpty()) {
            ChapterLab lab = LabCommand.find(a.positional().get(0), "slides");
            chapter = lab.id();
        }
        Path root = SiteCommand.root("slides");
        String edition = a.flag("--instructor") ? "instructor" : "student";
        List<String> cmd = new ArrayList<>(List.of(SiteCommand.maven(), "-q", "-B", "-Pslides", "-DskipTests",
                "-Dvramlab.slides.edition=" + edition, "-Dvramlab.slides.chapter=" + chapter, "-pl", "slides", "-am",
                "package"));
        if (a.flag("--offline")) cmd.add(1, "-o");
        int status = SiteCommand.maven(root, cmd, io.err());
        Path out = root.resolve(a.flag("--instructor") ? "slides/target/slides-instructor" : "slides/target/slides");
        List<Path> decks = new ArrayList<>();
        if (Files.isDirectory(out)) {
            try (var dirs = Files.list(out)) {
                dirs.map(d -> d.resolve("slides.html")).filter(Files::isRegularFile).sorted().forEach(decks::add);
            }
        }
        if (status != 0 || decks.isEmpty()) {
            io.err().println("error: slides: the deck build failed (exit " + status + "); its messages are above");
            return 1;
        }
        decks.forEach(io.out()::println);
        return 0;
    }
}
