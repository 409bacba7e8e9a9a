package vramlab.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import picocli.CommandLine;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;
import vramlab.kit.ChapterLab;

/**
 * {@code vramlab slides [chapter]}: builds the authored decks ({@code slides/chNN-slug.adoc})
 * alone, with their figures and reveal.js, into {@code slides/target/slides/}, by running the
 * slides module's Maven profile ({@code -Pslides}); prints the path of each deck it built, one
 * a line. {@code ./vramlab site} builds the same decks into the site.
 */
@CommandLine.Command(name = "slides", mixinStandardHelpOptions = true,
        header = "build the chapters' reveal.js decks and print their paths",
        description = """
                Builds the deck of one chapter (by number or slug: 3, ch03, caching-allocator), or of
                every chapter, from slides/chNN-slug.adoc into slides/target/slides/chNN-slug/slides.html,
                with the chapter's figures drawn by its simulator and reveal.js beside it; opens from
                disk with the network off. Press s for the speaker notes, Esc for the overview.
                --instructor builds the instructor edition (reference bodies in listings) into
                slides/target/slides-instructor/.""",
        footer = """

                It runs: mvn -q -B -Pslides -DskipTests -pl slides -am package""")
final class SlidesCommand implements Command {
    @Parameters(index = "0", arity = "0..1", paramLabel = "chapter",
            description = "the chapter, by number or slug (default: every chapter)")
    String chapterName;

    @Parameters(index = "1..*", hidden = true)
    List<String> rest = List.of();

    @Mixin EditionOption edition;

    @Override
    public int run(Io io) throws Exception {
        if (!rest.isEmpty()) {
            List<String> all = new ArrayList<>(List.of(chapterName));
            all.addAll(rest);
            throw new UsageException("slides", "takes at most one chapter, got " + all);
        }
        String chapter = "";
        if (chapterName != null) {
            ChapterLab lab = LabCommand.find(chapterName, "slides");
            chapter = lab.id();
        }
        Path root = SiteCommand.root("slides");
        List<String> cmd = edition.maven(System.getenv(), "-q", "-B", "-Pslides", "-DskipTests",
                "-Dvramlab.slides.edition=" + edition.edition(), "-Dvramlab.slides.chapter=" + chapter, "-pl", "slides", "-am",
                "package");
        int status = SiteCommand.maven(root, cmd, io.err());
        Path out = root.resolve(edition.instructor ? "slides/target/slides-instructor" : "slides/target/slides");
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
