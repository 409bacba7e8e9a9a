package vramlab.site;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import vramlab.kit.ChapterLab;
import vramlab.kit.Chapters;

/**
 * Renders the course site: for every chapter module, its figures (drawn by the simulator now),
 * its lab's real output, its notes as one HTML page and its deck as a reveal.js page; then the
 * index with the course map. Everything a page loads lies beside it: the stylesheet is
 * embedded, code is highlighted by Rouge at build time, reveal.js is copied in.
 *
 * <p>Any Asciidoctor warning (a missing include, tag or attribute) fails the build, and so does
 * a page that loads from the network or shows an image that is not there.
 *
 * <pre>
 * out/index.html
 * out/chNN-slug/notes.html        the notes
 * out/chNN-slug/slides.html       the deck
 * out/chNN-slug/figures/NAME.svg  one per figure method of the chapter (also as chNN-NAME.svg)
 * out/reveal.js/...               reveal.js, shared by every deck, and deck.css (the decks' theme)
 * out/../generated/chNN-slug/lab-output.txt   include::{generated}/lab-output.txt[] in the notes
 * out/../generated/chNN-slug/chNN-slug.txt    the same, as include::{labout}/chNN-slug.txt[]
 * </pre>
 */
public final class SiteBuilder {
    /** The failures of one build, reported together. */
    public static final class SiteException extends RuntimeException {
        public SiteException(String what, List<?> problems) {
            super(what + ":\n  " + String.join("\n  ", problems.stream().map(Object::toString).toList()));
        }
    }

    private static final String MARKER = ".vramlab-site";

    private final Path root;
    private final Path out;
    private final Path revealjs;
    private final Path generated;
    private int pages;
    private int figures;

    public SiteBuilder(Path root, Path out, Path revealjs) {
        this.root = root.toAbsolutePath().normalize();
        this.out = out.toAbsolutePath().normalize();
        this.revealjs = revealjs.toAbsolutePath().normalize();
        this.generated = this.out.resolveSibling("generated");
    }

    public static void main(String[] args) {
        Map<String, String> a = Args.parse(args, "--root", "--out", "--revealjs");
        try {
            long start = System.nanoTime();
            SiteBuilder b = new SiteBuilder(Path.of(a.get("--root")), Path.of(a.get("--out")), Path.of(a.get("--revealjs")));
            Path index = b.build();
            System.out.printf("site: %d chapter pages, %d decks, %d figures in %.1f s -> %s%n", b.pages, b.pages,
                    b.figures, (System.nanoTime() - start) / 1e9, index);
        } catch (SiteException e) {
            System.err.println("error: site: " + e.getMessage());
            System.exit(1);
        }
    }

    /** Builds everything; returns the path of {@code index.html}. */
    public Path build() {
        List<Course.ChapterDir> chapters = Course.chapters(root);
        lint(chapters);
        try {
            clean();
            Files.createDirectories(out);
            Files.writeString(out.resolve(MARKER), "written by vramlab.site.SiteBuilder; deleted by its next run\n");
            for (Course.ChapterDir c : chapters) generate(c);
            Files.createDirectories(generated);
            Files.writeString(generated.resolve("course-map.adoc"), IndexPage.courseMap(chapters));
            pages = new Renderer(root, out, generated).render(chapters);
            copyRevealJs();
        } catch (IOException e) {
            throw new SiteException("cannot write the site", List.of(e));
        }
        SiteChecks.check(out, chapters);
        return out.resolve("index.html");
    }

    /**
     * Deletes the last build's site, so a page whose notes are gone does not linger; only a
     * folder this builder wrote (it holds the marker file) or one inside a build's
     * {@code target/} is ever deleted.
     */
    private void clean() throws IOException {
        if (!Files.isDirectory(out)) return;
        boolean ours = Files.exists(out.resolve(MARKER)) || out.getParent().getFileName().toString().equals("target");
        if (!ours) {
            try (Stream<Path> s = Files.list(out)) {
                if (s.findAny().isPresent()) {
                    throw new SiteException("will not overwrite", List.of(out + " is not empty and was not written by "
                            + "the site build (no " + MARKER + " in it)"));
                }
            }
        }
        try (Stream<Path> s = Files.walk(out)) {
            for (Path p : (Iterable<Path>) s.sorted(java.util.Comparator.reverseOrder())::iterator) Files.delete(p);
        }
    }

    /** Every .adoc of every chapter (notes, deck, partials they include) obeys NotesLint. */
    private void lint(List<Course.ChapterDir> chapters) {
        List<NotesLint.Problem> problems = new ArrayList<>();
        for (Course.ChapterDir c : chapters) {
            if (!Files.isDirectory(c.docs())) continue;
            try (Stream<Path> s = Files.walk(c.docs())) {
                s.filter(p -> p.toString().endsWith(".adoc")).sorted()
                        .forEach(p -> problems.addAll(NotesLint.check(p, root)));
            } catch (IOException e) {
                throw new SiteException("cannot read " + c.docs(), List.of(e));
            }
        }
        if (!problems.isEmpty()) throw new SiteException("the notes break the site's rules", problems);
    }

    /** Figures and lab output for one chapter, from its code on the classpath. */
    private void generate(Course.ChapterDir c) throws IOException {
        ChapterLab lab = Chapters.all().stream().filter(l -> l.id().equals(c.id())).findFirst().orElse(null);
        if (lab == null) {
            if (c.notes().isPresent()) {
                throw new SiteException(c.id(), List.of("no ChapterLab with this id on the classpath: register it in "
                        + "META-INF/services/vramlab.kit.ChapterLab and add the chapter to cli/pom.xml"));
            }
            return;
        }
        Path dir = out.resolve(c.id()).resolve("figures");
        Files.createDirectories(dir);
        try {
            for (FigureRegistry.Figure f : FigureRegistry.figures(lab).values()) {
                String svg = f.draw();
                Files.writeString(dir.resolve(f.name() + ".svg"), svg);
                Files.writeString(dir.resolve(FigureRegistry.prefixed(c.id(), f.name()) + ".svg"), svg);
                figures++;
            }
        } catch (IllegalStateException e) {
            throw new SiteException(c.id() + ": a figure cannot be drawn", List.of(e.getMessage()));
        }
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        try (PrintStream ps = new PrintStream(buf, true, StandardCharsets.UTF_8)) {
            lab.run(ps);
        }
        Path g = generated.resolve(c.id());
        Files.createDirectories(g);
        // Two names for one output: {generated}/lab-output.txt and {labout}/chNN-slug.txt.
        Files.writeString(g.resolve("lab-output.txt"), buf.toString(StandardCharsets.UTF_8));
        Files.writeString(g.resolve(c.id() + ".txt"), buf.toString(StandardCharsets.UTF_8));
    }

    /** reveal.js's own files, the part a deck loads: its dist folder and the plugins we enable. */
    private void copyRevealJs() throws IOException {
        if (!Files.isRegularFile(revealjs.resolve("dist/reveal.js"))) {
            throw new SiteException("reveal.js is missing", List.of(revealjs + "/dist/reveal.js (build with -Psite, "
                    + "which fetches it)"));
        }
        // Only the theme the decks use: other reveal.js themes @import Google Fonts.
        for (String part : List.of("dist/reveal.js", "dist/reveal.css", "dist/reset.css", "dist/theme/white.css",
                "dist/theme/fonts/source-sans-pro", "plugin/notes", "plugin/zoom", "plugin/search")) {
            copyTree(revealjs.resolve(part), out.resolve("reveal.js").resolve(part));
        }
        Files.copy(revealjs.resolve("LICENSE"), out.resolve("reveal.js/LICENSE"), StandardCopyOption.REPLACE_EXISTING);
        Files.copy(root.resolve("site/src/site/deck.css"), out.resolve("reveal.js/deck.css"),
                StandardCopyOption.REPLACE_EXISTING);
    }

    private static void copyTree(Path from, Path to) throws IOException {
        Files.createDirectories(to.getParent());
        try (Stream<Path> s = Files.walk(from)) {
            for (Path p : (Iterable<Path>) s::iterator) {
                Path t = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(t);
                } else {
                    Files.copy(p, t, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
    }

}
